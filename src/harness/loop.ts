import type { Failure } from '../contract/index.ts';
import { appendResults, executeCalls, toolUses } from './calls-step.ts';
import type { LoopContext, LoopRun, LoopState, LoopStop } from './loop-state.ts';
import { isExhausted } from './model.ts';
import { buildRequest, recordRequest } from './request-step.ts';
import { recordResponse, respond } from './response-step.ts';

export type { LoopContext, LoopRun, LoopState, LoopStep, LoopStop, MethodStage, MethodSupport, RequestRecord } from './loop-state.ts';

export interface LoopOptions extends LoopContext {
  /** Requests at most (default 8); the loop stops `max_requests` after that many without a final answer. */
  readonly maxRequests?: number;
}

/** One turn's end: the state it left, and why the loop stops there, if it does. */
export interface Turn {
  readonly state: LoopState;
  readonly stop?: LoopStop;
  readonly failure?: Failure;
}

const refused = (state: LoopState, failure: Failure): Turn => ({ state, stop: 'failed', failure });

/**
 * One turn, as named steps: `buildRequest → recordRequest → respond →
 * recordResponse → executeCalls → appendResults`, then (skill tool mode)
 * what those calls made visible to the next request's catalog
 * (`MethodSupport.observe`, recorded before it). A step that is refused
 * ends the turn and the loop (`failed`, with its failure); the state it
 * returns holds everything recorded before that.
 */
export async function takeTurn(context: LoopContext, before: LoopState): Promise<Turn> {
  const built = buildRequest(context, before);
  if (!built.ok) return refused(before, built);
  const request = recordRequest(context, before, built.value);
  if (!request.ok) return refused(before, request);
  const asked: LoopState = { ...before, requests: [...before.requests, request.value] };
  const answer = await respond(context, request.value);
  const answered = recordResponse(context, asked, answer);
  if (!answered.ok) return refused(asked, answered);
  if (isExhausted(answer)) return { state: answered.value, stop: 'script_exhausted' };
  const uses = toolUses(answer.content);
  if (uses.length === 0) return { state: answered.value, stop: 'final_answer' };
  const executed = await executeCalls(context, answered.value, request.value.sent, uses);
  // Calls recorded before a refusal count too: the run's end counts what the ledger holds.
  const state = appendResults(answered.value, executed.calls);
  const failure = executed.failure ?? context.method?.observe?.(executed.calls, context.recorder, context.pipeline.runDir);
  return failure ? refused(state, failure) : { state };
}

/**
 * Runs the conversation: turn after turn until a final answer, the model's
 * last response, `maxRequests`, an interruption, or a refused step. An
 * aborted `pipeline.signal` stops new work (no request after it); a bound
 * (`LIMITS.callsPerResponse`, `LIMITS.requestPayloadBytes`, a record limit)
 * stops it before the step that would pass it. No verdict here: acceptance
 * is decided after the loop (`decideAcceptance`).
 */
export async function runLoop(options: LoopOptions): Promise<LoopRun> {
  let state: LoopState = { messages: [{ role: 'user', content: options.task.prompt.user }], requests: [], calls: [] };
  let stop: LoopStop = 'max_requests';
  for (let turn = 0; turn < (options.maxRequests ?? 8) && !options.pipeline.signal?.aborted; turn++) {
    const taken = await takeTurn(options, state);
    state = taken.state;
    if (taken.failure) return { requests: state.requests, calls: state.calls, stop: 'failed', failure: taken.failure };
    if (taken.stop) {
      stop = taken.stop;
      break;
    }
  }
  // Interrupted before a turn, or during the last one: the run ends without a verdict either way.
  if (options.pipeline.signal?.aborted) stop = 'interrupted';
  return { requests: state.requests, calls: state.calls, stop };
}
