import type { Binding } from '../binding/index.ts';
import { fail, LIMITS, ok, type Outcome } from '../contract/index.ts';
import { toolDisclosure } from './disclosure.ts';
import { intentTools, mappingTag, type Intent } from './intent.ts';
import type { LoopContext, LoopState, RequestRecord, MethodStage } from './loop-state.ts';
import { encodePayload, systemText, toolSpec, type RequestPayload } from './payload.ts';
import { TASK_STAGE } from './task.ts';

/** A request built and not yet recorded: its place in the run, its stage, the bindings it shows (and which are deferred), its exact bytes. */
export interface BuiltRequest {
  readonly index: number;
  readonly stage: MethodStage;
  readonly bindings: Readonly<Record<string, Binding>>;
  /** The names sent with `defer_loading: true`; empty in a run that defers nothing. */
  readonly deferred: readonly string[];
  readonly bytes: Uint8Array;
}

/**
 * Builds the next request from the conversation so far, under the tool table
 * in effect now and the stage the calls so far put it in; a deferred tool's
 * definition is sent with `defer_loading: true`. Refused before anything is
 * sent or recorded: more than `LIMITS.deferredTools` deferred
 * (`precondition/too_many_deferred`, the Messages API's cap), or a payload
 * over `LIMITS.requestPayloadBytes` (`precondition/too_large`).
 */
export function buildRequest(context: Pick<LoopContext, 'task' | 'model' | 'maxTokens' | 'tools' | 'method'> & { readonly pipeline?: { readonly runDir?: string } }, state: LoopState): Outcome<BuiltRequest> {
  const index = state.requests.length;
  const tools = Object.values(context.tools());
  const bindings: Record<string, Binding> = Object.fromEntries(tools.map((t) => [t.binding.tool, t.binding]));
  const deferred = tools.filter((t) => t.attributes.deferred).map((t) => t.binding.tool);
  if (deferred.length > LIMITS.deferredTools) {
    return fail('precondition', 'too_many_deferred', `${deferred.length} tools are deferred; at most ${LIMITS.deferredTools} are sent deferred (deferredTools, the Messages API's cap), so nothing was sent`);
  }
  const stage = context.task.method?.stageOf(state.calls) ?? TASK_STAGE;
  const payload: RequestPayload = {
    model: context.model.name,
    max_tokens: context.maxTokens,
    system: [{ type: 'text', text: systemText(context.task) }, ...(context.method?.blocks(stage, context.pipeline?.runDir) ?? [])],
    tools: tools.map((t) => toolSpec(t.binding, t.attributes.deferred)),
    messages: state.messages,
  };
  const bytes = encodePayload(payload);
  if (bytes.byteLength > LIMITS.requestPayloadBytes) {
    return fail('precondition', 'too_large', `request ${index + 1} would be ${bytes.byteLength} bytes; at most ${LIMITS.requestPayloadBytes} are sent (requestPayloadBytes), so nothing was sent`);
  }
  return ok({ index, stage, bindings, deferred, bytes });
}

/**
 * Names a built request (the loop's scope: `req-01`, `requests/01-request.json`),
 * writes its payload file, and records its request event — intent, the task's
 * fields from the exact bytes, the file — before it is reported or sent.
 */
export function recordRequest(context: Pick<LoopContext, 'task' | 'run' | 'recorder' | 'names' | 'method' | 'onStep' | 'defers' | 'agent'> & { readonly pipeline?: { readonly runDir?: string } }, state: LoopState, built: BuiltRequest): Outcome<RequestRecord> {
  const names = context.names.request();
  const { id } = names;
  const file = context.recorder.writeFile(names.payload, built.bytes);
  if (!file.ok) return file;
  // What a run that defers records of each request is read back from the bytes sent, never from what the host meant to send.
  const shown = context.defers ? toolDisclosure(built.bytes) : undefined;
  const intent: Intent = {
    request_id: id,
    index: built.index,
    payload: file.value,
    tools: intentTools(built.bindings, shown?.deferred),
    mapping_tag: mappingTag(built.bindings),
    method: context.method ? context.method.adoption(built.stage, built.bytes, context.pipeline?.runDir) : null,
    ...(context.method?.catalog ? { skill_catalog: [...context.method.catalog(built.bytes)] } : {}),
    ...(shown ? { disclosed_tools: shown.disclosed, visible_tool_bytes: shown.visibleToolBytes } : {}),
    fields: context.task.requestFields?.({ id, payload: built.bytes, calls: state.calls, ...(context.agent ? { agent: context.agent.id } : {}) }, context.run) ?? {},
  };
  const { fields, ...own } = intent;
  const appended = context.recorder.append('request', { ...fields, ...own, files: [{ role: 'request_payload', ...file.value }] });
  if (!appended.ok) return appended;
  context.onStep?.({ type: 'request', intent });
  const sent = { id, payload: built.bytes, payloadSha256: file.value.sha256, bindings: built.bindings, stage: built.stage, ...(shown ? { disclosedTools: shown.disclosed } : {}) };
  return ok({ intent, names, sent });
}
