import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { excerptTask } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import type { Hook } from '../pipeline/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { scriptedModel, type Scenario } from './scenario.ts';
import { happyScenario } from './testing/happy.ts';
import { testHost } from './testing/test-host.ts';
import { exitCodeOf } from '../base/index.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-run-limits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const happy = happyScenario;

/** `happy` with the first call's arguments replaced: what a model sending them looks like to the host. */
function happyWithFirstArguments(args: unknown): Scenario {
  const scenario = happy();
  const step = scenario.responses[0]!;
  if (!step.tool_calls) throw new Error('happy starts with tool calls');
  step.tool_calls[0]!.arguments = args;
  return scenario;
}

async function run(name: string, scenario: Scenario, hooks: readonly Hook[] = [], more: Partial<Parameters<typeof runTask>[0]> = {}) {
  const outcome = await runTask({
    task: excerptTask,
    model: scriptedModel(scenario),
    runId: name,
    runDir: join(scratch, name),
    ...testHost(),
    hooks,
    ...more,
  });
  if (!outcome.ok) throw new Error(`${outcome.class}/${outcome.kind}: ${outcome.message}`);
  return outcome.value;
}

/** The verdict of `verify` with the acceptance recheck, and the cause its run_end names. */
function verified(runDir: string): { verdict: string; cause?: string } {
  const report = verify(runDir, { recheck: recheckAcceptance(excerptTask) });
  return report.ok ? { verdict: 'verifies', ...(report.value.end.cause ? { cause: report.value.end.cause.split(':')[0]! } : {}) } : { verdict: `${report.kind}: ${report.message}` };
}

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

/** `happy` whose first response asks for `n` reads of alpha. */
function manyCalls(n: number): Scenario {
  const scenario = happy();
  const first = scenario.responses[0]!;
  if (!first.tool_calls) throw new Error('happy starts with tool calls');
  first.tool_calls = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, name: 'read_source', arguments: { source_id: 'alpha' } }));
  return scenario;
}

/** The first refused call's class/kind (later ones follow from it: alpha was never read). */
const firstFailure = (calls: readonly { outcome: { ok: boolean; class?: string; kind?: string } }[]) =>
  calls.flatMap((c) => (c.outcome.ok ? [] : [`${c.outcome.class}/${c.outcome.kind}`]))[0];

test('a non-finite number in a call’s arguments fails that call by kind; the run ends normally and verifies', async () => {
  // Before: an uncaught TypeError from canonicalJson while recording the call, after the run dir existed.
  const result = await run('nonfinite', happyWithFirstArguments({ source_id: 'alpha', n: Number.POSITIVE_INFINITY }));
  expect(firstFailure(result.loop.calls)).toBe('invalid_arguments/non_finite_number');
  expect(result.loop.stop).toBe('final_answer');
  const ledger = readFileSync(join(result.runDir, 'ledger.jsonl'), 'utf8');
  expect(ledger).toContain('"type":"run_end"');
  expect(ledger).toContain('"unrecordable":"invalid_arguments/non_finite_number');
  // The response file says what the model sent, never null in place of the number.
  const response = readFileSync(join(result.runDir, 'requests/01-response.json'), 'utf8');
  expect(response).toContain('"unrecordable": "invalid_arguments/non_finite_number');
  expect(response).not.toContain('"n": null');
  const verified = verify(result.runDir, { recheck: recheckAcceptance(excerptTask), expectedHead: result.head });
  expect(verified.ok ? 'verifies' : verified.message).toBe('verifies');
});

test('a hook rewriting input to a non-finite number fails the call at pre_hooks by kind; the run ends normally', async () => {
  const rewrite: Hook = {
    name: 'rewrite-to-infinity',
    event: 'PreToolUse',
    matcher: 'read_source',
    run: async () => ({ hook: 'rewrite-to-infinity', updatedInput: { source_id: 'alpha', n: Number.POSITIVE_INFINITY } }),
  };
  const result = await run('hook-nonfinite', happy(), [rewrite]);
  expect(firstFailure(result.loop.calls)).toBe('invalid_arguments/non_finite_number');
  expect(result.loop.calls.find((c) => !c.outcome.ok)?.stages.at(-1)?.stage).toBe('pre_hooks');
  expect(verify(result.runDir, { recheck: recheckAcceptance(excerptTask) }).ok).toBe(true);
});

test('arguments nested past the arguments limit fail that call as too_deep; the recorded response stays small', async () => {
  let deep: unknown = [];
  for (let i = 1; i < LIMITS.argumentsDepth + 8; i++) deep = [deep];
  const result = await run('deep', happyWithFirstArguments({ source_id: 'alpha', x: deep }));
  expect(firstFailure(result.loop.calls)).toBe('invalid_arguments/too_deep');
  const response = join(result.runDir, 'requests/01-response.json');
  expect(existsSync(response)).toBe(true);
  expect(statSync(response).size).toBeLessThan(64 * 1024);
  expect(verify(result.runDir, { recheck: recheckAcceptance(excerptTask) }).ok).toBe(true);
});

test('a response asking for more calls than callsPerResponse runs none of them; the run ends failed and verifies', async () => {
  // huge-response.test.ts runs 55,000; one past the bound is enough here (and stays fast under a mutant).
  const result = await run('many-calls', manyCalls(LIMITS.callsPerResponse + 1));
  expect([result.loop.calls.length, result.loop.stop, exitCodeOf(result.ending), result.loop.failure?.kind]).toEqual([0, 'failed', 1, 'too_many_calls']);
  expect(verified(result.runDir)).toEqual({ verdict: 'verifies', cause: 'invalid_arguments/too_many_calls' });
  // The bound itself still runs every call.
  const atBound = await run('at-bound', manyCalls(LIMITS.callsPerResponse));
  expect(atBound.loop.calls.length).toBeGreaterThanOrEqual(LIMITS.callsPerResponse);
  expect(verified(atBound.runDir).verdict).toBe('verifies');
});

test('no run writes a record its own verify refuses: under small record limits the run ends failed, record_limit, and verifies', async () => {
  const limits = [
    { name: 'file bytes', limits: { fileBytes: 24 * 1024, endReserveBytes: 8 * 1024 } },
    { name: 'entries', limits: { entries: 10, endReserveEntries: 2 } },
    // run_start nests 11 deep; arguments 20 deep make the first response file deeper than 16.
    { name: 'json depth', limits: { jsonDepth: 16 }, scenario: happyWithFirstArguments({ source_id: 'alpha', x: nested(20) }) },
  ];
  for (const { name, limits: recordLimits, scenario } of limits) {
    const result = await run(`record-limit-${name.replace(' ', '-')}`, scenario ?? happy(), [], { recordLimits });
    expect([name, result.loop.stop, exitCodeOf(result.ending), result.loop.failure?.kind]).toEqual([name, 'failed', 1, 'record_limit']);
    expect([name, verified(result.runDir)]).toEqual([name, { verdict: 'verifies', cause: 'precondition/record_limit' }]);
  }
});

test('a request payload past requestPayloadBytes is not sent: the run ends failed, precondition/too_large', async () => {
  // 70 reads, each padded just under argumentsBytes: the next request's history passes the bound.
  const scenario = manyCalls(70);
  const big = 'x'.repeat(LIMITS.argumentsBytes - 64);
  const first = scenario.responses[0]!;
  if (!first.tool_calls) throw new Error('tool calls');
  for (const call of first.tool_calls) call.arguments = { source_id: 'alpha', pad: big };
  const result = await run('too-large', scenario);
  expect([result.loop.stop, result.loop.failure?.class, result.loop.failure?.kind, result.loop.requests.length]).toEqual(['failed', 'precondition', 'too_large', 1]);
  expect(verified(result.runDir)).toEqual({ verdict: 'verifies', cause: 'precondition/too_large' });
});
