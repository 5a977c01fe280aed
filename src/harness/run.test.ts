import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../test/scratch.ts';
import { canonicalHash, ok, type Contract } from '../contract/index.ts';
import { EXCERPT_SCENARIOS, excerptTask } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import { textBlock, type RuntimeTool } from '../pipeline/index.ts';
import type { Builtin } from './host-tools.ts';
import { recheckAcceptance } from './recheck.ts';
import { DEFAULT_MAX_TOKENS, runTask, type RunOptions } from './run.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { ECHO, scripted, STEP_TASK } from './testing/loop-kit.ts';
import { replacingTool } from './testing/replace-tool.ts';
import { testHost } from './testing/test-host.ts';

/** The excerpt with local tools, read_source's handler replaced by what `handler` makes of the real tool. */
const withReadSource = (handler: (tool: RuntimeTool) => RuntimeTool['handler']): Task => replacingTool('read_source', (t) => ({ ...t, handler: handler(t) }));

test('a local result that breaks its contract is refused (business/result_invalid); the ledger keeps the raw result hash', async () => {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  const raw = { totally: 'wrong' };
  const dir = mkdtempSync(join(tmpdir(), 'caplab-result-'));
  try {
    const outcome = await runTask({
      task: withReadSource(() => async () => ok({ data: raw, content: [textBlock('fine')], evidence: 'bytes observed now' })),
      model: scriptedModel(scenario.value),
      runId: 'wrong-result',
      runDir: join(dir, 'run'),
      ...testHost(),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.loop.accepted).toBe(false);
    const events = readFileSync(join(outcome.value.runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const reads = events.filter((e) => e.type === 'call' && e.name === 'read_source');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect([read.outcome.ok, read.outcome.class, read.outcome.kind, read.handler_entered]).toEqual([false, 'business', 'result_invalid', true]);
      expect(read.outcome.raw_result_sha256).toBe(canonicalHash(raw));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The excerpt's happy run with `more`, in a fresh scratch dir. */
async function happyRun(more: Partial<RunOptions> = {}) {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  return runTask({ task: excerptTask, model: scriptedModel(scenario.value), runId: 'max-tokens', runDir: join(scratchDir('caplab-run-'), 'run'), ...testHost(), ...more });
}

const maxTokensOf = (runDir: string, n: number) => JSON.parse(readFileSync(join(runDir, `requests/0${n}-request.json`), 'utf8')).max_tokens;

test(`max_tokens is the host's option: ${DEFAULT_MAX_TOKENS} unless given, the given number in every request otherwise`, async () => {
  const plain = await happyRun();
  if (!plain.ok) throw new Error(plain.message);
  expect(maxTokensOf(plain.value.runDir, 1)).toBe(1024);
  const given = await happyRun({ maxTokens: 4096 });
  if (!given.ok) throw new Error(given.message);
  expect(given.value.loop.requests.map((_, i) => maxTokensOf(given.value.runDir, i + 1))).toEqual(given.value.loop.requests.map(() => 4096));
  expect(verify(given.value.runDir, { recheck: recheckAcceptance(excerptTask) }).ok).toBe(true);
});

test('a maxTokens that is not a positive integer is refused before any work (invalid_arguments/bad_option): no run dir', async () => {
  for (const maxTokens of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    const runDir = join(scratchDir('caplab-run-'), 'run');
    const outcome = await happyRun({ maxTokens, runDir });
    expect(outcome.ok ? 'ran' : [outcome.class, outcome.kind, outcome.message]).toEqual(['invalid_arguments', 'bad_option', `maxTokens must be a positive integer, not ${maxTokens}`]);
    expect(existsSync(runDir)).toBe(false);
  }
});

// A built-in that takes names from the run's allocator (its services' scope) each time it runs.
const namesContract = { ...ECHO, name: 'take_names', description: 'Takes names.', discovery: 'Take names.', input: v.strictObject({}), result: v.strictObject({ names: v.array(v.string()) }) } as const satisfies Contract;
const takeNames: Builtin = {
  contract: namesContract,
  version: 'names/1',
  handler: async (_input, _context, services) => {
    const names = [services.names.request().id, services.names.action().id, services.names.child('agent').action().output];
    return ok({ data: { names }, content: [textBlock(names.join(' '))], evidence: 'bytes observed now' });
  },
};

test("a built-in's names come from a child scope of the run's: they never collide with the loop's, and the loop's numbering is unchanged", async () => {
  const task: Task = { ...STEP_TASK, tools: () => [] };
  const usage = { input_tokens: 1, output_tokens: 1 };
  const take = (id: string) => ({ id, name: 'take_names', arguments: {} });
  const model = scripted([{ tool_calls: [take('t1'), take('t2')], usage }, { tool_calls: [take('t3')], usage }, { text: 'done', usage }]);
  const outcome = await runTask({ task, model, runId: 'names', runDir: join(scratchDir('caplab-run-names-'), 'run'), ...testHost(), builtins: [takeNames] });
  if (!outcome.ok) throw new Error(outcome.message);
  const { loop } = outcome.value;
  expect([loop.requests.map((r) => r.intent.request_id), loop.calls.map((c) => c.actionId)]).toEqual([['req-01', 'req-02', 'req-03'], ['act-01', 'act-02', 'act-03']]);
  const taken = loop.calls.map((c) => (c.outcome.ok ? (c.outcome.value.data as { names: string[] }).names : []));
  expect(taken).toEqual([
    ['host-1/req-01', 'host-1/act-01', 'outputs/host-1/agent-1/act-01.txt'],
    ['host-1/req-02', 'host-1/act-02', 'outputs/host-1/agent-2/act-01.txt'],
    ['host-1/req-03', 'host-1/act-03', 'outputs/host-1/agent-3/act-01.txt'],
  ]);
});
