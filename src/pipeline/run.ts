import type { Failure } from '../contract/index.ts';
import { errorContent, type CallRecord, type StageRecord } from './call-record.ts';
import { seedState, STAGES, type Adds, type CallState, type Has, type Pipeline, type CallStage } from './stages/index.ts';
import type { ProducingRequest, ToolCall } from './tool.ts';

/** The record the ledger writes, from the state the call ended in. */
function toRecord(state: CallState, stages: readonly StageRecord[], failure?: Failure): CallRecord {
  const outcome = failure ?? state.outcome;
  if (!outcome) throw new Error('the stages ended without a failure or a handler outcome');
  return {
    toolCallId: state.call.id,
    actionId: state.actionId,
    name: state.call.name,
    ...(state.binding?.id ? { bindingId: state.binding.id } : {}),
    arguments: state.arguments,
    stages,
    hooks: state.hooks,
    ...(state.permission ? { permission: state.permission } : {}),
    handlerEntered: state.handlerEntered,
    outcome,
    ...(state.rawResultSha256 !== undefined ? { rawResultSha256: state.rawResultSha256 } : {}),
    modelContent: outcome.ok ? (state.modelContent ?? outcome.value.content) : errorContent(outcome),
    ...(state.hookContent.length > 0 ? { hookContent: state.hookContent } : {}),
    ...(state.fullOutput ? { fullOutput: state.fullOutput } : {}),
    ...(state.outputCut ? { outputCut: state.outputCut } : {}),
  };
}

/** The fold's one write: what a stage adds, into the call's state. */
function write(state: CallState, adds: Adds): void {
  const target = state as unknown as Record<string, unknown>;
  const source = adds as Record<string, unknown>;
  // Key by key: Object.assign from patches of this many shapes ran about 3× slower under Bun's JSC.
  for (const key in source) target[key] = source[key];
}

/**
 * Folds a call's state over `stages` in order: each stage reads the state,
 * the fold writes what it adds into `state` (the call's own, from
 * `seedState`: no stage writes it) and records the stage. A stage that stops
 * the call ends the fold: its failure is recorded (under the stage it names,
 * if any) and no later stage runs. The only awaits are on the promises
 * stages hand over (see `Pending`).
 */
export async function runStages(stages: readonly CallStage[], state: CallState): Promise<CallRecord> {
  const records: StageRecord[] = [];
  for (const stage of stages) {
    // Each stage's `needs` are set by the stages before it in the list (stages/index.test.ts runs the check).
    let step = stage.run(state as Has<keyof CallState>);
    while ('awaiting' in step) step = step.resume(await step.awaiting);
    write(state, step.adds);
    const { failure } = step;
    if (failure) {
      records.push({ stage: step.at ?? stage.name, status: 'failed', detail: `${failure.class}/${failure.kind}` });
      return toRecord(state, records, failure);
    }
    records.push(step.detail === undefined ? { stage: stage.name, status: 'ok' } : { stage: stage.name, status: 'ok', detail: step.detail });
  }
  return toRecord(state, records);
}

/**
 * Runs one call through every stage of `STAGES`. A failure before the handler
 * becomes an error result and the handler is not entered; nothing here throws
 * for bad input, a throwing hook or a throwing handler.
 */
export function executeCall(call: ToolCall, request: ProducingRequest, actionId: string, pipeline: Pipeline): Promise<CallRecord> {
  const context = { runDir: pipeline.runDir, actionId, toolCallId: call.id, request, signal: pipeline.signal ?? new AbortController().signal };
  return runStages(STAGES, seedState(call, actionId, pipeline, context));
}
