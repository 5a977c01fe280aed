import { fail, LIMITS, ok, type Failure, type Outcome } from '../contract/index.ts';
import { executeCall, partition, type CallRecord, type KeptFile, type ProducingRequest, type ToolCall } from '../pipeline/index.ts';
import { callEvent, resultBytes } from './call-event.ts';
import { ambiguousCallIds, duplicateIdRecord, refusedRecord } from './call-ids.ts';
import type { LoopContext, LoopState } from './loop-state.ts';
import type { ToolUseBlock } from './model.ts';
import { toolResultOf } from './payload.ts';
import { recordedCall, type RecordedCall } from './recorded-call.ts';

/** The calls of one response as far as they went: each one recorded, in call order, and the refusal that stopped the rest, if one did. */
export interface CallsRun {
  readonly calls: readonly RecordedCall[];
  readonly failure?: Failure;
}

type CallsContext = Pick<LoopContext, 'task' | 'tools' | 'pipeline' | 'recorder' | 'names' | 'protocolOf' | 'onStep' | 'refuseCall'>;

/**
 * Runs one response's tool calls through the pipeline under the bindings its
 * request pinned, in batches (consecutive concurrency-safe calls together),
 * and records each call event once its batch is done, in call order. More
 * than `LIMITS.callsPerResponse` calls run none (`invalid_arguments/too_many_calls`);
 * a write the record refuses (a kept output, a call event) stops it there,
 * with the calls recorded so far.
 */
export async function executeCalls(context: CallsContext, state: LoopState, request: ProducingRequest, uses: readonly ToolUseBlock[]): Promise<CallsRun> {
  if (uses.length > LIMITS.callsPerResponse) {
    // Not one of them runs: running the first N would guess which calls the model meant.
    return { calls: [], failure: fail('invalid_arguments', 'too_many_calls', `response ${request.id} asks for ${uses.length} tool calls; at most ${LIMITS.callsPerResponse} per response are run (callsPerResponse), so none was`) };
  }
  const table = context.tools();
  const toolCalls: ToolCall[] = uses.map((use) => ({ id: use.id, name: use.name, arguments: use.input }));
  const earlier = new Set(state.calls.map((c) => c.toolCallId));
  const ambiguous = ambiguousCallIds(toolCalls, earlier);
  const keeper = outputKeeper(context);
  const resultPaths = new Map<string, string>();
  const run = (call: ToolCall): Promise<CallRecord> => {
    // Named in call order as each starts, so action ids follow the response.
    const action = context.names.action();
    resultPaths.set(action.id, action.result);
    if (ambiguous.has(call.id)) return Promise.resolve(duplicateIdRecord(call, action.id, earlier.has(call.id)));
    const refused = context.refuseCall?.(call);
    if (refused) return Promise.resolve(refusedRecord(call, action.id, refused));
    return executeCall(call, request, action.id, { ...context.pipeline, tools: context.tools(), keepOutput: (_id, text) => keeper.keep(action.output, text) });
  };
  const calls: RecordedCall[] = [];
  for (const batch of partition(toolCalls, (call) => Object.hasOwn(table, call.name) && table[call.name]!.attributes.concurrencySafe)) {
    const executed = await Promise.all(batch.map(run));
    // A kept output the record refused: none of this batch is recorded (what it named is not on disk).
    if (keeper.refused) return { calls, failure: keeper.refused };
    // Context changes are applied after the batch, in call order.
    for (const record of executed) {
      const recorded = recordCall(context, request, record, resultPaths.get(record.actionId));
      if (!recorded.ok) return { calls, failure: recorded };
      calls.push(recorded.value);
    }
  }
  return { calls };
}

/**
 * Where a call's full output goes: the run dir, at its action's name. The
 * pipeline takes the file's reference at once; a write the record refuses
 * is kept as `refused` (the first one) and stops the calls after the batch,
 * so the reference handed back in its place is never recorded.
 */
function outputKeeper(context: Pick<LoopContext, 'recorder'>): { keep(path: string, text: string): KeptFile; readonly refused: Failure | undefined } {
  let refused: Failure | undefined;
  return {
    keep: (path, text) => {
      const kept = context.recorder.writeFile(path, new TextEncoder().encode(text));
      if (kept.ok) return kept.value;
      refused ??= kept;
      return { path, sha256: '', bytes: 0 };
    },
    get refused() {
      return refused;
    },
  };
}

/** Records one call event (and first, when the task keeps results, a successful call's data at `resultPath`), then reports the call. */
function recordCall(context: CallsContext, request: ProducingRequest, executed: CallRecord, resultPath: string | undefined): Outcome<RecordedCall> {
  const record = recordedCall(executed, context.protocolOf, request.bindings);
  const kept = context.task.keepsResults && record.outcome.ok && resultPath !== undefined ? context.recorder.writeFile(resultPath, resultBytes(record.outcome.value.data)) : undefined;
  if (kept && !kept.ok) return kept;
  const appended = context.recorder.append('call', { request_id: request.id, ...callEvent(record, kept?.value) });
  if (!appended.ok) return appended;
  context.onStep?.({ type: 'call', record });
  return ok(record);
}

/** The state with a response's calls recorded and, as the user's next turn, their tool_result blocks in call order. */
export function appendResults(state: LoopState, calls: readonly RecordedCall[]): LoopState {
  return { ...state, calls: [...state.calls, ...calls], messages: [...state.messages, { role: 'user', content: calls.map(toolResultOf) }] };
}

/** The tool_use blocks of a response, in order: the calls it asks for. */
export function toolUses(content: readonly { readonly type: string }[]): ToolUseBlock[] {
  return content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}
