import type { ToolHookInput } from '../hook.ts';
import { hookToolName } from '../names.ts';
import type { Has } from './stage.ts';

/** The JSON a PreToolUse or PostToolUse hook receives about this call (Claude Code field names). */
export function hookInput(state: Has<'tool'>, event: ToolHookInput['hook_event_name'], toolInput: unknown, response?: unknown): ToolHookInput {
  const { session, agent } = state.pipeline;
  return {
    session_id: session.id,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    hook_event_name: event,
    tool_name: hookToolName(state.tool),
    tool_input: toolInput,
    tool_use_id: state.call.id,
    ...(response === undefined ? {} : { tool_response: response }),
    // Inside a subagent, Claude Code's hook input says which one.
    ...(agent ? { agent_id: agent.id, agent_type: agent.type } : {}),
  };
}
