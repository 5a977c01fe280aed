/**
 * Hook types shared by in-process hooks and command hooks (Claude Code's hook
 * protocol). A hook observes, rewrites the input, decides, or blocks.
 */
export type HookEvent = 'PreToolUse' | 'PostToolUse' | 'SubagentStart' | 'SubagentStop';

/** The events a hook of a tool call runs at (their matchers name tools; a subagent event's name agent types). */
export const TOOL_HOOK_EVENTS: readonly HookEvent[] = ['PreToolUse', 'PostToolUse'];

/** What every hook receives: the session, and inside a subagent its id and type (Claude Code field names). */
interface HookInputBase {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  readonly agent_id?: string;
  readonly agent_type?: string;
}

/** The JSON a PreToolUse or PostToolUse hook receives (Claude Code field names). */
export interface ToolHookInput extends HookInputBase {
  readonly hook_event_name: 'PreToolUse' | 'PostToolUse';
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  readonly tool_response?: unknown;
}

/** The JSON a SubagentStart or SubagentStop hook receives (Claude Code field names). */
export interface SubagentHookInput extends HookInputBase {
  readonly hook_event_name: 'SubagentStart' | 'SubagentStop';
  readonly agent_id: string;
  readonly agent_type: string;
  /** SubagentStop: whether the subagent already goes on because a stop hook blocked. */
  readonly stop_hook_active?: boolean;
  /** SubagentStop: the text of its final response. */
  readonly last_assistant_message?: string;
}

/** The JSON a hook receives. */
export type HookInput = ToolHookInput | SubagentHookInput;

/** What one hook said, as a value. */
export interface HookResult {
  /** The hook's name or command, for the record. */
  readonly hook: string;
  /** Set when the hook blocks (exit 2, or `decision: "block"`): the reason. */
  readonly block?: string;
  readonly permissionDecision?: 'allow' | 'deny' | 'ask';
  readonly reason?: string;
  /** A rewritten tool input (PreToolUse only); validated again by the pipeline. */
  readonly updatedInput?: unknown;
  /** SubagentStart: `hookSpecificOutput.additionalContext` (recorded, not applied). */
  readonly additionalContext?: string;
  /** For command hooks: the exit code and anything non-blocking worth recording. */
  readonly exitCode?: number;
  readonly note?: string;
  /** For command hooks: captured stdout/stderr (bounded; `…[truncated]` marks a cut). */
  readonly stdout?: string;
  readonly stderr?: string;
  /** For command hooks: the hook ran past its timeout and its process group was killed. */
  readonly timedOut?: boolean;
}

/** A hook the pipeline can run. `matcher` uses Claude Code's matcher rules. */
export interface Hook {
  readonly name: string;
  readonly event: HookEvent;
  readonly matcher: string;
  /**
   * A deadline the hook engine enforces (the hook's signal is aborted; the
   * hook is recorded as timed out, non-blocking); unset, caplab's default of
   * 60 s (`DEFAULT_IN_PROCESS_TIMEOUT_MS`). A command hook sets it past its
   * own timeout: it kills its own process group first and reports that.
   */
  readonly timeoutMs?: number;
  readonly run: (input: HookInput, signal: AbortSignal) => Promise<HookResult>;
}

/** A permission decision and who made it. */
export interface PermissionDecision {
  readonly decision: 'allow' | 'deny';
  /** rule / flag / hook / default / policy */
  readonly by: 'rule' | 'flag' | 'hook' | 'default' | 'policy';
  readonly rule?: string;
  readonly reason: string;
  /** Set when the decision went through the ask path: what asked (a rule, a hook, or the default). */
  readonly asked?: { readonly by: 'rule' | 'hook' | 'default'; readonly rule?: string };
}
