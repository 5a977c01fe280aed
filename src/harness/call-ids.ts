import { fail, type Failure } from '../contract/index.ts';
import { errorContent, type CallRecord, type ToolCall } from '../pipeline/index.ts';

/**
 * The calls of one response whose `tool_call` id cannot identify them: an id
 * given twice in the response, or already used earlier in the conversation.
 *
 * Every call that shares the id is refused, the first one too, and only
 * those: a tool_result is matched to its call by id alone, so with two calls
 * under one id neither result could be attributed (which create made the
 * card?), and running "the first" would guess at the model's intent. The
 * other calls of the response are unambiguous and run as usual, as with any
 * other per-call refusal. A refused call never reaches its handler, so a
 * create is never run twice.
 *
 * @param earlier Ids of every call of earlier responses in this run.
 */
export function ambiguousCallIds(calls: readonly ToolCall[], earlier: ReadonlySet<string>): ReadonlySet<string> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.id, (counts.get(call.id) ?? 0) + 1);
  return new Set(calls.filter((call) => counts.get(call.id)! > 1 || earlier.has(call.id)).map((call) => call.id));
}

/** The record of a call refused for its id: no stage ran, the handler was not entered. */
export function duplicateIdRecord(call: ToolCall, actionId: string, reused: boolean): CallRecord {
  const failure = fail(
    'invalid_arguments',
    'duplicate_call_id',
    reused
      ? `tool_call id ${JSON.stringify(call.id)} was already used earlier in this conversation; every call needs its own id`
      : `tool_call id ${JSON.stringify(call.id)} is given to more than one call in this response; none of them is run`,
  );
  return refusedRecord(call, actionId, failure);
}

/** The record of a call the loop refused before any stage ran (its id; inside a subagent, an Agent call): the handler was not entered. */
export function refusedRecord(call: Pick<ToolCall, 'id' | 'name' | 'arguments'>, actionId: string, failure: Failure): CallRecord {
  return { toolCallId: call.id, actionId, name: call.name, arguments: { original: call.arguments }, stages: [], hooks: [], handlerEntered: false, outcome: failure, modelContent: errorContent(failure) };
}
