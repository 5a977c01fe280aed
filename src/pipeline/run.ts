import { resolvePinned, type Binding } from '../binding/index.ts';
import { fail, validateArguments, type Failure, type Outcome } from '../contract/index.ts';
import { checkArgumentLimits } from './argument-limits.ts';
import { runHandler } from './handler.ts';
import type { Hook, HookInput, HookResult, PermissionDecision } from './hook.ts';
import { runHookEvent } from './hooks/index.ts';
import { toolNames } from './names.ts';
import { truncateUtf8 } from './output-limit.ts';
import { deniedByHookBlock, permissionFailure, type HookDecision } from './permissions/index.ts';
import { checkResult } from './result.ts';
import type { CallContext, ProducingRequest, RuntimeTool, ToolCall, ToolOutput } from './tool.ts';

/** The stages every call passes through, in order (SPEC F-PIPE). */
export type StageName =
  | 'resolve'
  | 'convert'
  | 'validate'
  | 'pre_hooks'
  | 'permission'
  | 'handler'
  | 'result_validate'
  | 'output_limit'
  | 'post_hooks';

export interface StageRecord {
  readonly stage: StageName;
  readonly status: 'ok' | 'failed';
  readonly detail?: string;
}

/** A file kept in the run dir (full outputs). */
export interface KeptFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** Everything that happened to one call. Plain data; the ledger records it. */
export interface CallRecord {
  readonly toolCallId: string;
  readonly actionId: string;
  readonly name: string;
  readonly bindingId?: string;
  readonly arguments: {
    readonly original: unknown;
    readonly converted?: unknown;
    readonly filled?: readonly string[];
    readonly rewritten?: unknown;
  };
  readonly stages: readonly StageRecord[];
  readonly hooks: readonly HookResult[];
  readonly permission?: PermissionDecision;
  /** Whether the handler was entered: false for every pre-handler failure. */
  readonly handlerEntered: boolean;
  readonly outcome: Outcome<ToolOutput>;
  /**
   * When result_validate refused the handler's data: sha256 of its canonical
   * JSON (absent if JSON cannot carry it). The model never sees that data.
   */
  readonly rawResultSha256?: string;
  /** What the model sees in the tool_result. */
  readonly modelText: string;
  readonly fullOutput?: KeptFile;
}

/** The pipeline's dependencies: all injected, all plain. */
export interface Pipeline {
  /** The tools registered now; a call runs the one registered under its request's pinned binding id. */
  readonly tools: Readonly<Record<string, RuntimeTool>>;
  /** In configured order; selected by Claude Code matchers against `toolNames`. */
  readonly hooks: readonly Hook[];
  readonly permission: (tool: RuntimeTool, hookDecision: HookDecision | undefined) => PermissionDecision;
  /** Model-facing arguments → contract arguments under the pinned binding. */
  readonly convert: (binding: Binding, args: unknown) => Outcome<{ readonly converted: unknown; readonly filled: readonly string[] }>;
  readonly keepOutput: (actionId: string, text: string) => KeptFile;
  readonly session: { readonly id: string; readonly transcriptPath: string; readonly cwd: string };
  readonly runDir: string;
  /**
   * Aborted when the run is interrupted (SIGINT/SIGTERM): running hooks are
   * killed with their process groups, and no handler is entered afterwards.
   */
  readonly signal?: AbortSignal;
}

/** The failure of a call the run's interruption stopped before its handler: not executed. */
function interrupted(signal: AbortSignal): Failure {
  return fail('precondition', 'run_interrupted', `the run was interrupted (${String(signal.reason)}); the handler was not entered`);
}

/**
 * Resolves a call under the binding recorded in the request that produced it.
 * Never looks the name up "fresh": the tool object that runs is the one
 * registered under the pinned binding id, and a name now bound to another id
 * is refused (`precondition/binding_changed`). Names come from each tool's
 * own binding, not from the table's keys.
 */
export function resolveCall(call: ToolCall, request: ProducingRequest, tools: Pipeline['tools']): Outcome<{ tool: RuntimeTool; binding: Binding }> {
  const registered = Object.values(tools);
  const current = Object.fromEntries(registered.map((tool) => [tool.binding.tool, tool.binding]));
  const pinned = resolvePinned(request.bindings, current, call.name);
  if (!pinned.ok) return pinned;
  // resolvePinned found the pinned id registered under this name, so the search always succeeds.
  const tool = registered.find((candidate) => candidate.binding.id === pinned.value.id)!;
  return { ok: true, value: { tool, binding: pinned.value } };
}

/** Error text the model sees: the class and kind are always present. */
export function errorText(failure: Failure): string {
  return JSON.stringify({ error: { class: failure.class, kind: failure.kind, message: failure.message } });
}


/**
 * Runs one call through every stage. A failure before the handler becomes an
 * error result and the handler is not entered; nothing here throws for bad
 * input, a throwing hook or a throwing handler.
 */
export async function executeCall(call: ToolCall, request: ProducingRequest, actionId: string, pipeline: Pipeline): Promise<CallRecord> {
  const stages: StageRecord[] = [];
  const hooks: HookResult[] = [];
  const args: { original: unknown; converted?: unknown; filled?: readonly string[]; rewritten?: unknown } = { original: call.arguments };
  let permission: PermissionDecision | undefined;
  let bindingId: string | undefined;
  let rawResultSha256: string | undefined;

  const finish = (outcome: Outcome<ToolOutput>, handlerEntered: boolean, modelText?: string, fullOutput?: KeptFile): CallRecord => ({
    toolCallId: call.id,
    actionId,
    name: call.name,
    ...(bindingId ? { bindingId } : {}),
    arguments: args,
    stages,
    hooks,
    ...(permission ? { permission } : {}),
    handlerEntered,
    outcome,
    ...(rawResultSha256 !== undefined ? { rawResultSha256 } : {}),
    modelText: modelText ?? (outcome.ok ? outcome.value.text : errorText(outcome)),
    ...(fullOutput ? { fullOutput } : {}),
  });
  const failAt = (stage: StageName, failure: Failure, handlerEntered = false): CallRecord => {
    stages.push({ stage, status: 'failed', detail: `${failure.class}/${failure.kind}` });
    return finish(failure, handlerEntered);
  };

  const resolved = resolveCall(call, request, pipeline.tools);
  if (!resolved.ok) return failAt('resolve', resolved);
  const { tool, binding } = resolved.value;
  bindingId = binding.id;
  stages.push({ stage: 'resolve', status: 'ok', detail: binding.id });

  const context: CallContext = { runDir: pipeline.runDir, actionId, toolCallId: call.id, request, signal: pipeline.signal ?? new AbortController().signal };
  const bounded = checkArgumentLimits(call.arguments);
  if (!bounded.ok) return failAt('validate', bounded);
  const converted = pipeline.convert(binding, call.arguments);
  if (!converted.ok) return failAt('convert', converted);
  args.converted = converted.value.converted;
  if (converted.value.filled.length > 0) args.filled = converted.value.filled;
  stages.push({ stage: 'convert', status: 'ok', detail: binding.conversion.arguments });

  const validate = (input: unknown): Outcome<unknown> => {
    const bounded = checkArgumentLimits(input);
    if (!bounded.ok) return bounded;
    const checked = validateArguments(tool.contract.input, input);
    if (!checked.ok) return checked;
    const specific = tool.check?.(checked.value, context);
    return specific ?? checked;
  };
  let input = validate(args.converted);
  if (!input.ok) return failAt('validate', input);
  stages.push({ stage: 'validate', status: 'ok' });

  const names = toolNames(tool);
  const hookInput = (event: HookInput['hook_event_name'], toolInput: unknown, response?: unknown): HookInput => ({
    session_id: pipeline.session.id,
    transcript_path: pipeline.session.transcriptPath,
    cwd: pipeline.session.cwd,
    hook_event_name: event,
    tool_name: call.name,
    tool_input: toolInput,
    tool_use_id: call.id,
    ...(response === undefined ? {} : { tool_response: response }),
  });

  if (context.signal.aborted) return failAt('pre_hooks', interrupted(context.signal));
  const pre = await runHookEvent(pipeline.hooks, 'PreToolUse', names, hookInput('PreToolUse', input.value), context.signal);
  hooks.push(...pre.results);
  if (context.signal.aborted) return failAt('pre_hooks', interrupted(context.signal));
  const { block, conflict, decision, updatedInput } = pre.verdict;
  if (block) return failAt('pre_hooks', deniedByHookBlock(`hook ${block.hook}`, block.reason));
  if (conflict) {
    const [a, b] = conflict.hooks;
    return failAt('pre_hooks', fail('permission_denied', 'hook_conflict', `hooks ${a} and ${b} rewrote the input differently; neither rewrite is applied`));
  }
  // A hook's deny wins at the permission stage; a rewrite it makes moot is not applied.
  if (updatedInput && decision?.decision !== 'deny') {
    args.rewritten = updatedInput.input;
    input = validate(updatedInput.input);
    if (!input.ok) return failAt('pre_hooks', { ...input, message: `input rewritten by hook ${updatedInput.hook} is invalid: ${input.message}` });
  }
  stages.push({ stage: 'pre_hooks', status: 'ok', detail: `${pre.results.length} hook(s)` });

  permission = pipeline.permission(tool, decision);
  if (permission.decision === 'deny') return failAt('permission', permissionFailure(permission));
  stages.push({ stage: 'permission', status: 'ok', detail: `${permission.by}: ${permission.reason}` });

  const outcome = await runHandler(tool, input.value, context);
  if (!outcome.ok) return failAt('handler', outcome, true);
  stages.push({ stage: 'handler', status: 'ok' });

  const refused = checkResult(tool, outcome.value.data);
  if (refused) {
    rawResultSha256 = refused.rawSha256;
    return failAt('result_validate', refused.failure, true);
  }
  stages.push({ stage: 'result_validate', status: 'ok' });

  const limited = truncateUtf8(outcome.value.text, tool.attributes.maxResultBytes);
  let modelText = limited.text;
  let fullOutput: KeptFile | undefined;
  if (limited.truncated) {
    fullOutput = pipeline.keepOutput(actionId, outcome.value.text);
    modelText = `${limited.text}\n[output truncated: ${limited.fullBytes} bytes; full output kept at ${fullOutput.path} sha256 ${fullOutput.sha256}]`;
  }
  stages.push({ stage: 'output_limit', status: 'ok', detail: limited.truncated ? `truncated to ${tool.attributes.maxResultBytes} bytes` : 'within limit' });

  const post = await runHookEvent(pipeline.hooks, 'PostToolUse', names, hookInput('PostToolUse', input.value, outcome.value.data), context.signal);
  hooks.push(...post.results);
  // The tool already ran: a PostToolUse block cannot undo it, it tells the model why (as in Claude Code).
  if (post.verdict.block) modelText = `${modelText}\n[PostToolUse hook ${post.verdict.block.hook}: ${post.verdict.block.reason}]`;
  stages.push({ stage: 'post_hooks', status: 'ok', detail: `${post.results.length} hook(s)${post.verdict.block ? `; flagged by ${post.verdict.block.hook}` : ''}` });
  return finish(outcome, true, modelText, fullOutput);
}
