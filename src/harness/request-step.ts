import type { Binding } from '../binding/index.ts';
import { fail, LIMITS, ok, type Outcome } from '../contract/index.ts';
import { intentTools, mappingTag, type Intent } from './intent.ts';
import type { LoopContext, LoopState, RequestRecord, MethodStage } from './loop-state.ts';
import { encodePayload, systemText, toolSpec, type RequestPayload } from './payload.ts';
import { TASK_STAGE } from './task.ts';

/** A request built and not yet recorded: its place in the run, its stage, the bindings it shows, its exact bytes. */
export interface BuiltRequest {
  readonly index: number;
  readonly stage: MethodStage;
  readonly bindings: Readonly<Record<string, Binding>>;
  readonly bytes: Uint8Array;
}

/**
 * Builds the next request from the conversation so far, under the tool table
 * in effect now and the stage the calls so far put it in. Refused
 * (`precondition/too_large`) when its payload would pass
 * `LIMITS.requestPayloadBytes`: nothing is sent, nothing recorded.
 */
export function buildRequest(context: Pick<LoopContext, 'task' | 'model' | 'maxTokens' | 'tools' | 'method'>, state: LoopState): Outcome<BuiltRequest> {
  const index = state.requests.length;
  const table = context.tools();
  const bindings: Record<string, Binding> = Object.fromEntries(Object.values(table).map((t) => [t.binding.tool, t.binding]));
  const stage = context.task.method?.stageOf(state.calls) ?? TASK_STAGE;
  const payload: RequestPayload = {
    model: context.model.name,
    max_tokens: context.maxTokens,
    system: [{ type: 'text', text: systemText(context.task) }, ...(context.method?.blocks(stage) ?? [])],
    tools: Object.values(table).map((t) => toolSpec(t.binding)),
    messages: state.messages,
  };
  const bytes = encodePayload(payload);
  if (bytes.byteLength > LIMITS.requestPayloadBytes) {
    return fail('precondition', 'too_large', `request ${index + 1} would be ${bytes.byteLength} bytes; at most ${LIMITS.requestPayloadBytes} are sent (requestPayloadBytes), so nothing was sent`);
  }
  return ok({ index, stage, bindings, bytes });
}

/**
 * Names a built request (the loop's scope: `req-01`, `requests/01-request.json`),
 * writes its payload file, and records its request event — intent, the task's
 * fields from the exact bytes, the file — before it is reported or sent.
 */
export function recordRequest(context: Pick<LoopContext, 'task' | 'run' | 'recorder' | 'names' | 'method' | 'onStep'>, state: LoopState, built: BuiltRequest): Outcome<RequestRecord> {
  const names = context.names.request();
  const { id } = names;
  const file = context.recorder.writeFile(names.payload, built.bytes);
  if (!file.ok) return file;
  const intent: Intent = {
    request_id: id,
    index: built.index,
    payload: file.value,
    tools: intentTools(built.bindings),
    mapping_tag: mappingTag(built.bindings),
    method: context.method ? context.method.adoption(built.stage, built.bytes) : null,
    fields: context.task.requestFields?.({ id, payload: built.bytes, calls: state.calls }, context.run) ?? {},
  };
  const { fields, ...own } = intent;
  const appended = context.recorder.append('request', { ...fields, ...own, files: [{ role: 'request_payload', ...file.value }] });
  if (!appended.ok) return appended;
  context.onStep?.({ type: 'request', intent });
  return ok({ intent, names, sent: { id, payload: built.bytes, payloadSha256: file.value.sha256, bindings: built.bindings } });
}
