import { ok, recordable, type Outcome } from '../contract/index.ts';
import type { LoopContext, LoopState, RequestRecord } from './loop-state.ts';
import { isExhausted, originLabel, type Exhausted, type ModelResponse } from './model.ts';

/** Asks the model for the answer to a recorded request: a response, or that it has none left. */
export function respond(context: Pick<LoopContext, 'model' | 'sequence'>, request: RequestRecord): Promise<ModelResponse | Exhausted> {
  const sequence = context.sequence?.next();
  return context.model.respond({ id: request.sent.id, index: request.intent.index, ...(sequence !== undefined ? { sequence } : {}), payload: request.sent.payload });
}

/**
 * Records the model's answer to the last request: a missing response when it
 * had none (the state is unchanged), else the response file (the message as
 * the model gave it) and the response event, labelled by the model's origin;
 * then the response joins the request and, as the assistant's turn, the
 * conversation.
 */
export function recordResponse(context: Pick<LoopContext, 'recorder' | 'onStep'>, state: LoopState, answer: ModelResponse | Exhausted): Outcome<LoopState> {
  const request = state.requests.at(-1);
  if (!request) throw new Error('recordResponse: no request recorded to answer');
  const { id } = request.sent;
  if (isExhausted(answer)) {
    const missing = context.recorder.append('response', { request_id: id, missing: true, reason: answer.exhausted });
    return missing.ok ? ok(state) : missing;
  }
  // JSON.stringify would write a non-finite argument as null, a value the model never sent: the
  // response file and the history carry the same stand-in the call event records (`recordable`).
  const message = { ...answer.message, content: recordableContent(answer.message.content) };
  const responseFile = context.recorder.writeFile(request.names.response, new TextEncoder().encode(`${JSON.stringify(message, null, 2)}\n`));
  if (!responseFile.ok) return responseFile;
  const files = [{ role: 'model_response' as const, ...responseFile.value }];
  const appended = context.recorder.append('response', { request_id: id, files, ...originLabel(answer.origin), usage: answer.usage, stop_reason: answer.stop_reason });
  if (!appended.ok) return appended;
  context.onStep?.({ type: 'response', requestId: id, response: answer });
  return ok({
    ...state,
    requests: [...state.requests.slice(0, -1), { ...request, response: answer, responseFile: responseFile.value }],
    messages: [...state.messages, { role: 'assistant', content: recordableContent(answer.content) }],
  });
}

/** Content blocks with each tool_use input as the record may hold it (`recordable`); other blocks as they are. */
function recordableContent<B>(blocks: readonly B[]): B[] {
  return blocks.map((block) => (isToolUse(block) ? { ...block, input: recordable(block.input) } : block));
}

const isToolUse = <B>(block: B): block is B & { readonly type: 'tool_use'; readonly input: unknown } =>
  typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'tool_use';
