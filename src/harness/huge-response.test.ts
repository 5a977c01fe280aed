/**
 * A model response asking for 55,000 tool calls (issue W1): before
 * `callsPerResponse`, every one ran and each request repeated the history so
 * far (1.65 GB). Now none runs, the run ends failed, and its record verifies.
 * Kept apart from run-limits.test.ts so that a mutant removing the bound is
 * caught there quickly, not here slowly.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { excerptTask } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { scriptedModel } from './scenario.ts';
import { happyScenario } from './testing/happy.ts';
import { testHost } from './testing/test-host.ts';
import { exitCodeOf } from '../base/index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-huge-response-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('the 55,000-call response runs no call, ends failed as too_many_calls, and verifies', async () => {
  const scenario = happyScenario();
  const first = scenario.responses[0]!;
  if (!first.tool_calls) throw new Error('happy starts with tool calls');
  first.tool_calls = Array.from({ length: 55_000 }, (_, i) => ({ id: `t${i}`, name: 'read_source', arguments: { source_id: 'alpha' } }));
  const outcome = await runTask({ task: excerptTask, model: scriptedModel(scenario), runId: 'huge', runDir: join(scratch, 'huge'), ...testHost() });
  if (!outcome.ok) throw new Error(outcome.message);
  expect([outcome.value.loop.calls.length, exitCodeOf(outcome.value.ending), outcome.value.loop.failure?.kind]).toEqual([0, 1, 'too_many_calls']);
  const report = verify(outcome.value.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(report.ok ? report.value.end.cause?.split(':')[0] : report.message).toBe('invalid_arguments/too_many_calls');
});
