import { expect, test } from 'bun:test';
import { fail } from '../../contract/index.ts';
import { runStages } from '../run.ts';
import { callState } from '../testing/call-state.ts';
import { STAGES } from './index.ts';
import { stop, type CallState, type CallStage } from './stage.ts';

test('STAGES is the pipeline of SPEC F-PIPE, in order', () => {
  expect(STAGES.map((stage) => stage.name)).toEqual(['resolve', 'convert', 'validate', 'pre_hooks', 'permission', 'handler', 'result_validate', 'output_limit', 'post_hooks']);
});

/** Runs `stages` with each one first checking that its `needs` are set (a stage whose are not stops the call). */
async function missingNeeds(stages: readonly CallStage[]) {
  const missing: string[] = [];
  const checked = stages.map((stage): CallStage => ({
    ...stage,
    run: (state) => {
      const absent = stage.needs.filter((key: keyof CallState) => state[key] === undefined);
      missing.push(...absent.map((key) => `${stage.name} needs ${key}`));
      return absent.length === 0 ? stage.run(state) : stop(fail('precondition', 'binding_changed', 'a need is not set'));
    },
  }));
  const record = await runStages(checked, callState({}));
  return { missing, passed: record.stages.filter((s) => s.status === 'ok').length };
}

test("every stage's needs are set by the stages before it, on a call that passes them all", async () => {
  expect(await missingNeeds(STAGES)).toEqual({ missing: [], passed: STAGES.length });
});

test('the check catches a list that runs a stage too early', async () => {
  const [resolve, convert, ...rest] = STAGES;
  expect(await missingNeeds([convert!, resolve!, ...rest])).toEqual({ missing: ['convert needs binding'], passed: 0 });
});
