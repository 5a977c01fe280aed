import { resolvePinned, type Binding } from '../binding/index.ts';
import { fail, validateArguments, type Failure, type Outcome } from '../contract/index.ts';
import { checkArgumentLimits } from './argument-limits.ts';
import type { Hook, HookInput, HookResult, PermissionDecision } from './hook.ts';
import type { HookDecision } from './permissions/index.ts';
import { truncateUtf8 } from './output-limit.ts';
import type { CallContext, ProducingRequest, RuntimeTool, ToolCall, ToolOutput } from './tool.ts';

/** The stages every call passes through, in order (SPEC F-PIPE). */
export type StageName = 'resolve' | 'convert' | 'validate' | 'pre_hooks' | 'permission' | 'handler' | 'output_limit' | 'post_hooks';

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
  /** What the model sees in the tool_result. */
  readonly modelText: string;
  readonly fullOutput?: KeptFile;
}

/** The pipeline's dependencies: all injected, all plain. */
export interface Pipeline {
  /** The current tool table; a call is still interpreted under its request's pinned binding. */
  readonly tools: Readonly<Record<string, RuntimeTool>>;
  readonly hooks: readonly Hook[];
  readonly matches: (matcher: string, toolName: string) => boolean;
  readonly permission: (tool: RuntimeTool, hookDecision: HookDecision | undefined) => PermissionDecision;
  /** Model-facing arguments → contract arguments under the pinned binding. */
  readonly convert: (binding: Binding, args: unknown) => Outcome<{ readonly converted: unknown; readonly filled: readonly string[] }>;
  readonly keepOutput: (actionId: string, text: string) => KeptFile;
  readonly session: { readonly id: string; readonly transcriptPath: string; readonly cwd: string };
  readonly runDir: string;
}

/**
 * Resolves a call under the binding recorded in the request that produced it.
 * Never looks the name up "fresh": a changed binding is refused.
 */
export function resolveCall(call: ToolCall, request: ProducingRequest, tools: Pipeline['tools']): Outcome<{ tool: RuntimeTool; binding: Binding }> {
  const current = Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, tool.binding]));
  const pinned = resolvePinned(request.bindings, current, call.name);
  if (!pinned.ok) return pinned;
  return { ok: true, value: { tool: tools[call.name]!, binding: pinned.value } };
}

/** Error text the model sees: the class and kind are always present. */
export function errorText(failure: Failure): string {
  return JSON.stringify({ error: { class: failure.class, kind: failure.kind, message: failure.message } });
}

/**
 * Runs one call through every stage. A failure before the handler becomes an
 * error result and the handler is not entered; nothing here throws for bad input.
 */
export async function executeCall(call: ToolCall, request: ProducingRequest, actionId: string, pipeline: Pipeline): Promise<CallRecord> {
  const stages: StageRecord[] = [];
  const hooks: HookResult[] = [];
  const args: { original: unknown; converted?: unknown; filled?: readonly string[]; rewritten?: unknown } = { original: call.arguments };
  let permission: PermissionDecision | undefined;
  let bindingId: string | undefined;

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
    modelText: modelText ?? (outcome.ok ? outcome.value.text : errorText(outcome)),
    ...(fullOutput ? { fullOutput } : {}),
  });
  const failAt = (stage: StageName, failure: Failure): CallRecord => {
    stages.push({ stage, status: 'failed', detail: `${failure.class}/${failure.kind}` });
    return finish(failure, false);
  };

  const resolved = resolveCall(call, request, pipeline.tools);
  if (!resolved.ok) return failAt('resolve', resolved);
  const { tool, binding } = resolved.value;
  bindingId = binding.id;
  stages.push({ stage: 'resolve', status: 'ok', detail: binding.id });

  const context: CallContext = { runDir: pipeline.runDir, actionId, toolCallId: call.id, request, signal: new AbortController().signal };
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
  const matching = (event: HookInput['hook_event_name']) =>
    pipeline.hooks.filter((hook) => hook.event === event && pipeline.matches(hook.matcher, call.name));

  let hookDecision: HookDecision | undefined;
  for (const hook of matching('PreToolUse')) {
    const result = await hook.run(hookInput('PreToolUse', input.value), context.signal);
    hooks.push(result);
    if (result.block !== undefined) {
      return failAt('pre_hooks', fail('permission_denied', 'hook', `blocked by hook ${result.hook}: ${result.block}`));
    }
    if (result.updatedInput !== undefined) {
      args.rewritten = result.updatedInput;
      input = validate(result.updatedInput);
      if (!input.ok) return failAt('pre_hooks', { ...input, message: `input rewritten by hook ${result.hook} is invalid: ${input.message}` });
    }
    if (result.permissionDecision) {
      hookDecision = strongerDecision(hookDecision, { decision: result.permissionDecision, hook: result.hook, ...(result.reason ? { reason: result.reason } : {}) });
    }
  }
  stages.push({ stage: 'pre_hooks', status: 'ok', detail: `${hooks.length} hook(s)` });

  permission = pipeline.permission(tool, hookDecision);
  if (permission.decision === 'deny') {
    return failAt('permission', fail('permission_denied', permission.by, permission.reason));
  }
  stages.push({ stage: 'permission', status: 'ok', detail: `${permission.by}: ${permission.reason}` });

  const outcome = await runHandler(tool, input.value, context);
  if (!outcome.ok) {
    stages.push({ stage: 'handler', status: 'failed', detail: `${outcome.class}/${outcome.kind}` });
    return finish(outcome, true);
  }
  stages.push({ stage: 'handler', status: 'ok' });

  const limited = truncateUtf8(outcome.value.text, tool.attributes.maxResultBytes);
  let modelText = limited.text;
  let fullOutput: KeptFile | undefined;
  if (limited.truncated) {
    fullOutput = pipeline.keepOutput(actionId, outcome.value.text);
    modelText = `${limited.text}\n[output truncated: ${limited.fullBytes} bytes; full output kept at ${fullOutput.path} sha256 ${fullOutput.sha256}]`;
  }
  stages.push({ stage: 'output_limit', status: 'ok', detail: limited.truncated ? `truncated to ${tool.attributes.maxResultBytes} bytes` : 'within limit' });

  const postHooks = matching('PostToolUse');
  for (const hook of postHooks) hooks.push(await hook.run(hookInput('PostToolUse', input.value, outcome.value.data), context.signal));
  stages.push({ stage: 'post_hooks', status: 'ok', detail: `${postHooks.length} hook(s)` });
  return finish(outcome, true, modelText, fullOutput);
}

/** deny > ask > allow, as Claude Code combines hook decisions. */
function strongerDecision(a: HookDecision | undefined, b: HookDecision): HookDecision {
  const rank = { allow: 1, ask: 2, deny: 3 } as const;
  return !a || rank[b.decision] > rank[a.decision] ? b : a;
}

/**
 * Calls the handler with its timeout and an abort signal. A timeout leaves the
 * outcome unknown: the effect may have happened, so it is never retried here.
 */
async function runHandler(tool: RuntimeTool, input: unknown, context: CallContext): Promise<Outcome<ToolOutput>> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(fail('timeout', 'handler_timeout', `${tool.contract.name} did not finish within ${tool.attributes.timeoutMs} ms; outcome unknown`));
    }, tool.attributes.timeoutMs);
  });
  try {
    return await Promise.race([tool.handler(input, { ...context, signal: controller.signal }), timeout]);
  } catch (error) {
    // A handler that throws is a bug in it, but the call's outcome is still a value.
    return fail('business', 'handler_threw', `${tool.contract.name} threw: ${String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
