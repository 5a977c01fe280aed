import { expect, test } from 'bun:test';
import { fail } from '../contract/index.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import { decideAcceptance, UNDECIDED, withVerdict, type AcceptanceInput } from './decide-acceptance.ts';
import { runLoop } from './loop.ts';
import type { LoopRun, LoopStep, LoopStop } from './loop-state.ts';
import type { LiveRun, Task } from './task.ts';
import { echoCall, scripted, STEP_TASK, stepContext } from './testing/loop-kit.ts';
import { memoryRecorder, type MemoryRecorder } from './testing/memory-recorder.ts';

const usage = { input_tokens: 1, output_tokens: 1 };
const check = (verdict: AcceptanceCheck['verdict']): AcceptanceCheck => ({ id: 'echoed', object: 'echo calls', condition: 'an echo succeeded', evidence: 'calls', verdict });

/** A loop that ran: one echo call, then a final answer, recorded in `recorder`. */
async function ranLoop(recorder: MemoryRecorder): Promise<LoopRun> {
  return runLoop(stepContext({ recorder, model: scripted([{ tool_calls: [echoCall('t1', 'hi')], usage }, { text: 'done', usage }]) }));
}

/** A task whose live acceptance records what it was given and decides `verdict`. */
function judging(verdict: AcceptanceCheck['verdict'], seen: LiveRun[]): Pick<Task, 'acceptance'> {
  return {
    acceptance: {
      ...STEP_TASK.acceptance,
      live: (run) => (seen.push(run), { checks: [check(verdict)], files: [{ role: 'artifact', path: 'card.json', sha256: 'ab', bytes: 2 }], fields: { judged: true }, artifact: { path: 'card.json', sha256: 'ab', bytes: 2 } }),
    },
  };
}

function input(task: Pick<Task, 'acceptance'>, recorder: MemoryRecorder, onStep?: (step: LoopStep) => void): AcceptanceInput {
  return { task, run: { runId: 'steps' }, recorder, readFile: () => undefined, ...(onStep ? { onStep } : {}) };
}

test('decideAcceptance: after a finished loop, the task decides from what was observed; the event is recorded, then reported', async () => {
  const recorder = memoryRecorder();
  const loop = await ranLoop(recorder);
  expect(recorder.events.map((e) => e.type)).toEqual(['request', 'response', 'call', 'request', 'response']);
  const seen: LiveRun[] = [];
  const steps: LoopStep[] = [];
  const decided = decideAcceptance(input(judging('pass', seen), recorder, (step) => steps.push(step)), loop);
  expect(decided).toEqual({ ok: true, value: { checks: [check('pass')], accepted: true, artifact: { path: 'card.json', sha256: 'ab', bytes: 2 } } });
  expect(recorder.events.at(-1)).toEqual({ type: 'acceptance', data: { files: [{ role: 'artifact', path: 'card.json', sha256: 'ab', bytes: 2 }], accepted: true, checks: [check('pass')], judged: true } });
  expect(steps).toEqual([{ type: 'acceptance', checks: [check('pass')], accepted: true }]);
  // The task read the loop's calls, and found the request that asked for a call by its id.
  expect(seen[0]!.calls).toBe(loop.calls);
  expect(seen[0]!.requestOf('t1')).toMatchObject({ id: 'req-01', payload: loop.requests[0]!.sent.payload });
  expect(seen[0]!.requestOf('nosuch')).toBeUndefined();
});

test('decideAcceptance: a failing check is not accepted; a check that cannot be verified does not fail the run', async () => {
  for (const [verdict, accepted] of [['fail', false], ['not_verifiable', true]] as const) {
    const recorder = memoryRecorder();
    const decided = decideAcceptance(input(judging(verdict, []), recorder), await ranLoop(recorder));
    expect(decided.ok && decided.value.accepted).toBe(accepted);
  }
});

test('decideAcceptance: an interrupted loop, or one stopped at a refusal, gets no verdict: the task is not asked, nothing is recorded', () => {
  for (const stop of ['interrupted', 'failed'] as const satisfies readonly LoopStop[]) {
    const recorder = memoryRecorder();
    const seen: LiveRun[] = [];
    const loop: LoopRun = { requests: [], calls: [], stop, ...(stop === 'failed' ? { failure: fail('precondition', 'too_large', 'too large') } : {}) };
    expect(decideAcceptance(input(judging('pass', seen), recorder), loop)).toEqual({ ok: true, value: UNDECIDED });
    expect([stop, seen.length, recorder.events]).toEqual([stop, 0, []]);
  }
});

test('decideAcceptance: every other stop is decided (the script ran out, the request bound was hit)', () => {
  for (const stop of ['final_answer', 'script_exhausted', 'max_requests'] as const satisfies readonly LoopStop[]) {
    const recorder = memoryRecorder();
    const decided = decideAcceptance(input(judging('pass', []), recorder), { requests: [], calls: [], stop });
    expect([stop, decided.ok && decided.value.accepted, recorder.events.map((e) => e.type)]).toEqual([stop, true, ['acceptance']]);
  }
});

test('withVerdict: an acceptance event the record refuses ends the loop failed with that refusal, undecided', async () => {
  const refused = fail('precondition', 'record_limit', 'the acceptance event would pass a record limit');
  const recorder = memoryRecorder((write) => ('event' in write && write.event === 'acceptance' ? refused : undefined));
  const loop = await ranLoop(recorder);
  const steps: LoopStep[] = [];
  const decided = decideAcceptance(input(judging('pass', []), recorder, (step) => steps.push(step)), loop);
  expect(decided).toEqual(refused);
  expect(steps).toEqual([]);
  expect(withVerdict(loop, decided)).toEqual({ ...loop, checks: [], accepted: false, stop: 'failed', failure: refused });
  const good = decideAcceptance(input(judging('pass', []), memoryRecorder()), loop);
  expect(withVerdict(loop, good)).toEqual({ ...loop, checks: [check('pass')], accepted: true, artifact: { path: 'card.json', sha256: 'ab', bytes: 2 } });
});
