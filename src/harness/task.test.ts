/**
 * The harness runs any Task, not only the excerpt: a second, minimal task —
 * only `id`, `prompt`, `tools` and `acceptance`, one real local `echo` tool —
 * goes through the same host, loop, record and `verify` recheck (found by the
 * task id its record names), with no tool, source or file of it known to the
 * harness. The host's own tools (built-ins) run beside it through the same
 * pipeline.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../test/scratch.ts';
import { exitCodeOf } from '../base/index.ts';
import { bind } from '../binding/index.ts';
import { fail, ok, type Contract } from '../contract/index.ts';
import { excerptTask } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import { rechain, readEvents } from '../ledger/test-kit.ts';
import { attributesOf, inProcessHook, NO_RULES, parseRules, permissionPolicy, textBlock, type ToolHookInput } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import type { Builtin } from './host-tools.ts';
import { HOST_RULES } from './payload.ts';
import { recheckAcceptance, recheckByTask } from './recheck.ts';
import { runTask, type RunOptions } from './run.ts';
import { Scenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { testHost } from './testing/test-host.ts';
import { localProvider, type ToolProvider } from './tools.ts';

const echo = echoContractWith(v.strictObject({ word: v.string() }));

/** Passes iff some echo call succeeded; recorded and live read the same thing (a call outcome). */
const echoed = (n: number): AcceptanceCheck[] => [{ id: 'echoed', object: 'echo calls', condition: 'an echo call succeeded', evidence: `${n} successful`, verdict: n > 0 ? 'pass' : 'fail' }];

const echoTask: Task = {
  id: 'echo',
  prompt: { user: 'Echo one word.', rule: 'Echo exactly once.' },
  tools: () => [
    localProvider([
      {
        entry: { contract: echo, implementation: { kind: 'local', version: 'echo/1' } },
        make: () => ({
          contract: echo,
          binding: bind(echo, { implementation: { kind: 'local', version: 'echo/1' } }),
          attributes: attributesOf(echo),
          handler: async (input) => {
            const { word } = input as { word: string };
            return ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' });
          },
        }),
      },
    ]),
  ],
  acceptance: {
    live: (run) => ({ checks: echoed(run.calls.filter((c) => c.name === 'echo' && c.outcome.ok).length), files: [], fields: {} }),
    recorded: (run) => ok(echoed(run.calls.filter((c) => c.name === 'echo' && c.outcome.ok).length)),
  },
};

/** `verify`'s recheck over a registry holding both tasks (a record naming neither is the excerpt's). */
const registry = new Map<string, Task>([
  ['excerpt', excerptTask],
  ['echo', echoTask],
]);
const dispatch = recheckByTask((id) => registry.get(id), 'excerpt');

const usage = { input_tokens: 1, output_tokens: 1 };
const scenarioOf = (calls: readonly { id: string; name: string; arguments: unknown }[]) =>
  v.parse(Scenario, { name: 'echo-once', description: 'calls, then done', expect: { accepted: true }, responses: [{ tool_calls: calls, usage }, { text: 'done', usage }] });

async function run(dir: string, overrides: Partial<RunOptions> = {}) {
  const outcome = await runTask({ task: echoTask, model: scriptedModel(scenarioOf([{ id: 't1', name: 'echo', arguments: { word: 'hi' } }])), runId: 'echo', runDir: dir, ...testHost(), ...overrides });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.value;
}

test('a task with only id, prompt, tools and acceptance runs through the host, is accepted from its own checks, and verifies by its id', async () => {
  expect(Object.keys(echoTask).sort()).toEqual(['acceptance', 'id', 'prompt', 'tools']);
  const dir = join(scratchDir('caplab-echo-task-'), 'run');
  const outcome = await run(dir);
  expect([outcome.loop.accepted, exitCodeOf(outcome.ending), outcome.loop.calls.map((c) => [c.name, c.outcome.ok && c.outcome.value.content])]).toEqual([true, 0, [['echo', [textBlock('hi')]]]]);
  const payload = JSON.parse(readFileSync(join(dir, 'requests/01-request.json'), 'utf8'));
  expect(payload.system[0].text).toBe(`${HOST_RULES} Echo exactly once.`);
  expect(payload.messages[0]).toEqual({ role: 'user', content: 'Echo one word.' });
  const events = readEvents(dir);
  const start = events.find((e) => e['type'] === 'run_start')!;
  expect([start['task'], start['snapshot'], start['files']]).toEqual(['echo', undefined, []]);
  // No request fields of its own, no files: the request event is the host's alone.
  expect(Object.keys(events.find((e) => e['type'] === 'request')!).sort()).toEqual(['at', 'files', 'index', 'mapping_tag', 'method', 'payload', 'prev', 'request_id', 'seq', 'tools', 'type']);
  const acceptance = events.find((e) => e['type'] === 'acceptance')!;
  expect([acceptance['accepted'], acceptance['files']]).toEqual([true, undefined]);
  const verified = verify(dir, { recheck: dispatch });
  expect(verified.ok && verified.value.recheck).toEqual({ decided: true, accepted: true, checks: echoed(1) });

  // The comparison of recorded and re-computed checks is the harness's own, whatever the task.
  rechain(dir, (es) => es.map((e) => (e['type'] === 'acceptance' ? { ...e, checks: [{ ...(e['checks'] as object[])[0], verdict: 'fail' }] } : e)));
  const forged = verify(dir, { recheck: dispatch });
  expect(forged.ok ? 'verified' : forged.kind).toBe('acceptance_mismatch');
});

test('verify dispatches by the task run_start names: the echo record under the excerpt name fails the excerpt’s recheck; an unknown id is unknown_task', async () => {
  const dir = join(scratchDir('caplab-echo-dispatch-'), 'run');
  await run(dir);
  rechain(dir, (es) => es.map((e) => (e['type'] === 'run_start' ? { ...e, task: 'excerpt' } : e)));
  const asExcerpt = verify(dir, { recheck: dispatch });
  // The excerpt's recheck looks for its snapshot in run_start: it is not there.
  expect(asExcerpt.ok ? 'verified' : asExcerpt.kind).toBe('bad_event');
  // One task's recheck refuses a record naming another.
  const other = verify(dir, { recheck: recheckAcceptance(echoTask) });
  expect(other.ok ? 'verified' : [other.kind, other.message]).toEqual(['unknown_task', 'run_start names task "excerpt"; this is the recheck of task "echo"']);
  rechain(dir, (es) => es.map((e) => (e['type'] === 'run_start' ? { ...e, task: 'nosuch' } : e)));
  const unknown = verify(dir, { recheck: dispatch });
  expect(unknown.ok ? 'verified' : [unknown.class, unknown.kind, unknown.at?.type]).toEqual(['evidence', 'unknown_task', 'run_start']);
  rechain(dir, (es) => es.map((e) => (e['type'] === 'run_start' ? { ...e, task: 'echo' } : e)));
  expect(verify(dir, { recheck: dispatch }).ok).toBe(true);
});

// A built-in for tests: it reports how many tools the run's table holds (what HostServices gives it).
const countContract = {
  ...echoContractWith(v.strictObject({})),
  name: 'tool_count',
  description: 'Counts the tools of this run.',
  discovery: 'Count the tools.',
  result: v.strictObject({ tools: v.number() }),
} as const satisfies Contract;
const toolCount: Builtin = {
  contract: countContract,
  version: 'count/1',
  handler: async (_input, _context, services) => {
    const tools = Object.keys(services.tools()).length;
    return services.signal.aborted ? fail('precondition', 'run_interrupted', 'the run was interrupted') : ok({ data: { tools }, content: [textBlock(String(tools))], evidence: 'bytes observed now' });
  },
};
const echoThenCount = scenarioOf([
  { id: 't1', name: 'echo', arguments: { word: 'hi' } },
  { id: 't2', name: 'tool_count', arguments: {} },
]);

test('a built-in binds as kind host, runs through the whole pipeline (a PreToolUse hook sees it by its bare name), is recorded via host, and verifies', async () => {
  const dir = join(scratchDir('caplab-builtin-'), 'run');
  const seen: ToolHookInput[] = [];
  const watch = inProcessHook('PreToolUse', 'tool_count', 'watch', (input) => (seen.push(input), {}));
  const outcome = await run(dir, { model: scriptedModel(echoThenCount), builtins: [toolCount], hooks: [watch] });
  const count = outcome.loop.calls.find((c) => c.name === 'tool_count')!;
  expect(count.outcome.ok && count.outcome.value.content).toEqual([textBlock('2')]);
  expect(seen.map((input) => [input.tool_name, input.tool_use_id])).toEqual([['tool_count', 't2']]);
  const events = readEvents(dir);
  const bindings = events.find((e) => e['type'] === 'run_start')!['bindings'] as { tool: string; implementation: { kind: string } }[];
  expect(bindings.map((b) => [b.tool, b.implementation.kind])).toEqual([
    ['echo', 'local'],
    ['tool_count', 'host'],
  ]);
  expect(events.filter((e) => e['type'] === 'call').map((e) => [e['name'], e['via']])).toEqual([
    ['echo', 'local'],
    ['tool_count', 'host'],
  ]);
  expect(verify(dir, { recheck: dispatch }).ok).toBe(true);

  // The record must say a built-in ran exactly when its binding is one.
  rechain(dir, (es) => es.map((e) => (e['type'] === 'call' && e['name'] === 'tool_count' ? { ...e, via: 'local' } : e)));
  const relabelled = verify(dir, { recheck: dispatch });
  expect(relabelled.ok ? 'verified' : relabelled.kind).toBe('call_inconsistent');
  rechain(dir, (es) => es.map((e) => (e['type'] === 'call' ? { ...e, via: 'host' } : e)));
  const claimed = verify(dir, { recheck: dispatch });
  expect(claimed.ok ? 'verified' : [claimed.kind, claimed.message]).toEqual(['call_inconsistent', 'call t1 says a built-in of the host ran it, but its binding is no built-in\'s']);
});

test('a permission rule denies a built-in by its bare name, like any tool: not executed, and the record verifies', async () => {
  const dir = join(scratchDir('caplab-builtin-deny-'), 'run');
  const deny = parseRules(['tool_count'], 'test');
  if (!deny.ok) throw new Error(deny.message);
  const policy = permissionPolicy({ rules: { ...NO_RULES, deny: deny.value }, allowFlags: [], denyFlags: [], interactive: false, yes: false });
  const outcome = await run(dir, { model: scriptedModel(echoThenCount), builtins: [toolCount], permission: (tool, hook) => policy(tool, hook) });
  const count = outcome.loop.calls.find((c) => c.name === 'tool_count')!;
  expect([count.outcome.ok ? 'ok' : `${count.outcome.class}/${count.outcome.kind}`, count.handlerEntered, count.permission?.by]).toEqual(['permission_denied/rule', false, 'rule']);
  expect(readEvents(dir).filter((e) => e['type'] === 'call').map((e) => e['via'])).toEqual(['local', 'not_executed']);
  expect(verify(dir, { recheck: dispatch }).ok).toBe(true);
});

test('two tools under one name — a task’s and a built-in, or two providers — are refused before any work: nothing opened, no run dir', async () => {
  let opened = 0;
  const counting = (provider: ToolProvider): ToolProvider => ({ offers: provider.offers, open: (at) => (opened++, provider.open(at)) });
  const clash = { ...toolCount, contract: { ...countContract, name: 'echo' } };
  const dir = join(scratchDir('caplab-duplicate-'), 'run');
  for (const overrides of [{ builtins: [clash] }, { providers: [counting(echoTask.tools({ runId: 'x' })[0]!)] }] satisfies Partial<RunOptions>[]) {
    const task = { ...echoTask, tools: () => echoTask.tools({ runId: 'x' }).map(counting) };
    const outcome = await runTask({ task, model: scriptedModel(echoThenCount), runId: 'dup', runDir: dir, ...testHost(), ...overrides });
    expect(outcome.ok ? 'ran' : [outcome.class, outcome.kind]).toEqual(['invalid_arguments', 'duplicate_tool']);
    expect(!outcome.ok && outcome.message).toContain('"echo"');
  }
  expect([opened, existsSync(dir)]).toEqual([0, false]);
});
