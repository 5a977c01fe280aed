import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCERPT_SCENARIOS, excerptTask, excerptTaskOverMcp } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import { FAST } from '../mcp/client/testing/timeouts.ts';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { loadScenario, type Scenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { replacingTool } from './testing/replace-tool.ts';
import { happyScenario } from './testing/happy.ts';
import { testHost } from './testing/test-host.ts';
import { exitCodeOf } from '../base/index.ts';
import { summaryOf } from './ending.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-unknown-outcome-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * `happy` with its create repeated, unchanged but under a new id, in a later
 * response: what a model that saw a timeout and "tries again" sends.
 */
function createThenRepeat(): Scenario {
  const scenario = happyScenario();
  const create = scenario.responses[1]!;
  if (!create.tool_calls) throw new Error('happy creates in its second response');
  const again = { ...structuredClone(create), tool_calls: create.tool_calls.map((call) => ({ ...call, id: 'toolu_04' })) };
  scenario.responses.splice(2, 0, again);
  return scenario;
}

/**
 * The local tools with a create_card that performs its effect (writes the
 * card) and then never answers, under a short handler timeout: the call's
 * outcome is unknown although the effect happened.
 */
function effectThenHang(): { task: Task; entered: () => number } {
  let entered = 0;
  const task = replacingTool('create_card', (tool): RuntimeTool => ({
    ...tool,
    attributes: { ...tool.attributes, timeoutMs: 50 },
    handler: async (input, context) => {
      entered++;
      const done = await tool.handler(input, context);
      if (!done.ok) return done;
      // The effect is on disk; the answer never comes (released on abort so nothing leaks).
      return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(done)));
    },
  }));
  return { task, entered: () => entered };
}

test('a create whose handler times out after its effect is unknown, never retried, and never repeated by a later identical call', async () => {
  const hanging = effectThenHang();
  const runDir = join(scratch, 'run');
  const outcome = await runTask({
    task: hanging.task,
    model: scriptedModel(createThenRepeat()),
    runId: 'unknown-outcome',
    runDir,
    ...testHost(),
  });
  if (!outcome.ok) throw new Error(`${outcome.class}/${outcome.kind}: ${outcome.message}`);
  const creates = outcome.value.loop.calls.filter((c) => c.name === 'create_card');
  const summary = creates.map((c) => [c.toolCallId, c.handlerEntered, c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`]);
  // The first create: entered once, its outcome unknown (timeout). The repeat: refused before its handler.
  expect(summary).toEqual([
    ['toolu_03', true, 'timeout/handler_timeout'],
    ['toolu_04', false, 'precondition/target_exists'],
  ]);
  // The effect happened exactly once: one handler entry (no retry by the pipeline), one card, never overwritten.
  expect(hanging.entered()).toBe(1);
  expect(readdirSync(join(runDir, 'card'))).toEqual(['excerpt-card.md']);
  expect(readFileSync(join(runDir, 'card', 'excerpt-card.md'), 'utf8')).toContain('act-03');
  // No receipt came back, so the card is not accepted on the run's word, and the run ends "outcome unknown".
  expect(outcome.value.loop.accepted).toBe(false);
  expect([exitCodeOf(outcome.value.ending), summaryOf(outcome.value.ending)]).toEqual([4, 'outcome unknown: timeout/handler_timeout']);
  const verified = verify(runDir, { recheck: recheckAcceptance(excerptTask), expectedHead: outcome.value.head });
  expect(verified.ok ? 'verifies' : `${verified.kind}: ${verified.message}`).toBe('verifies');
});

test('over MCP, a tools/call whose reply never comes ends unknown at the pipeline deadline and is sent once, never re-sent', async () => {
  // read_source over the misbehaving server in `hang` mode: it reads every request and never answers a tools/call.
  const task = replacingTool('read_source', (t) => ({ ...t, attributes: { ...t.attributes, timeoutMs: 300 } }), excerptTaskOverMcp({ envSource: {}, launch: misbehaveLaunch('hang'), timeouts: FAST }));
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!loaded.ok) throw new Error(loaded.message);
  const runDir = join(scratch, 'mcp-hang');
  const outcome = await runTask({
    task,
    model: scriptedModel(loaded.value),
    runId: 'mcp-hang',
    runDir,
    ...testHost(),
  });
  if (!outcome.ok) throw new Error(`${outcome.class}/${outcome.kind}: ${outcome.message}`);
  const reads = outcome.value.loop.calls.filter((c) => c.name === 'read_source');
  expect(reads.map((c) => [c.toolCallId, c.handlerEntered, c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`])).toEqual([
    ['toolu_01', true, 'timeout/handler_timeout'],
    ['toolu_02', true, 'timeout/handler_timeout'],
  ]);
  expect(exitCodeOf(outcome.value.ending)).toBe(4);
  // What went over the wire, as the run recorded it at close: one tools/call per call, each under its own JSON-RPC id.
  const runEnd = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)).find((e) => e.type === 'run_end');
  const sent = (runEnd.transport_close.exchanges as { method: string; toolCallId: string; jsonrpcId: number }[]).filter((e) => e.method === 'tools/call');
  expect(sent.map((e) => e.toolCallId)).toEqual(['toolu_01', 'toolu_02']);
  expect(new Set(sent.map((e) => e.jsonrpcId)).size).toBe(2);
  const verified = verify(runDir, { recheck: recheckAcceptance(excerptTask), expectedHead: outcome.value.head });
  expect(verified.ok ? 'verifies' : `${verified.kind}: ${verified.message}`).toBe('verifies');
});

test('an unknown outcome outranks a protocol failure in the same run: exit 4, not 3', async () => {
  // Until now no run had both, so ranking 3 over 4 in endingOf went unnoticed.
  const task = replacingTool('read_source', (tool): RuntimeTool => ({
    ...tool,
    handler: async (input) =>
      (input as { source_id: string }).source_id === 'alpha'
        ? { ok: false, class: 'protocol', kind: 'framing', message: 'a protocol failure' }
        : { ok: false, class: 'timeout', kind: 'handler_timeout', message: 'no answer in time: outcome unknown' },
  }));
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!loaded.ok) throw new Error(loaded.message);
  const outcome = await runTask({ task, model: scriptedModel(loaded.value), runId: 'ranked', runDir: join(scratch, 'ranked'), ...testHost() });
  if (!outcome.ok) throw new Error(outcome.message);
  expect([exitCodeOf(outcome.value.ending), summaryOf(outcome.value.ending)]).toEqual([4, 'outcome unknown: timeout/handler_timeout']);
  expect(verify(outcome.value.runDir, { recheck: recheckAcceptance(excerptTask) }).ok).toBe(true);
});
