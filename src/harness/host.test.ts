/**
 * createHost as a library user meets it (the CLI's use of it is tested
 * through the commands: setup, policy, method and run-command tests): its
 * defaults, its checks before any work, the tools it adds to a task's, and
 * its notices.
 */
import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../test/scratch.ts';
import { ok, type Contract } from '../contract/index.ts';
import { fixedClock } from '../ledger/index.ts';
import { textBlock } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import { defineTool } from './define-tool.ts';
import type { Builtin } from './host-tools.ts';
import { createHost, newRunId } from './host.ts';
import { Scenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { localProvider } from './tools.ts';

const echoContract = echoContractWith(v.strictObject({ word: v.string() }));
/** A tool that is not read-only: the default policy asks, and with no prompt that is a deny. */
const noteContract = { ...echoContractWith(v.strictObject({ word: v.string() })), name: 'note', effect: 'create', readOnly: false, idempotent: false } as const satisfies Contract;
const echoTool = defineTool({ contract: echoContract, version: 'echo/1', handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' }) });
const noteTool = defineTool({ contract: noteContract, version: 'note/1', handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' }) });

const passed = (n: number): AcceptanceCheck[] => [{ id: 'called', object: 'calls', condition: 'a call succeeded', evidence: `${n} successful`, verdict: n > 0 ? 'pass' : 'fail' }];
const task: Task = {
  id: 'notes',
  prompt: { user: 'Echo, then note.', rule: 'Call each tool once.' },
  tools: () => [localProvider([echoTool, noteTool])],
  acceptance: { live: (run) => ({ checks: passed(run.calls.filter((c) => c.outcome.ok).length), files: [], fields: {} }), recorded: (run) => ok(passed(run.calls.filter((c) => c.outcome.ok).length)) },
};

const usage = { input_tokens: 1, output_tokens: 1 };
const calling = (...names: string[]) =>
  scriptedModel(v.parse(Scenario, { name: 'calls', description: 'calls, then done', expect: { accepted: true }, responses: [{ tool_calls: names.map((name, i) => ({ id: `t${i + 1}`, name, arguments: { word: 'hi' } })), usage }, { text: 'done', usage }] }));

/** How each call of a run ended: `ok` or its class/kind. */
const outcomes = (run: Awaited<ReturnType<ReturnType<typeof createHost>['run']>>) =>
  run.ok ? run.value.loop.calls.map((c) => (c.outcome.ok ? `${c.name} ok` : `${c.name} ${c.outcome.class}/${c.outcome.kind}`)) : `${run.class}/${run.kind}`;

test('by default a run gets a fresh id and its run dir under the host cwd (caplab-runs/RUN_ID); a relative runDir is the cwd’s too', async () => {
  const cwd = scratchDir('caplab-host-');
  const host = createHost({ cwd });
  const first = await host.run(task, calling('echo'));
  const second = await host.run(task, calling('echo'));
  if (!first.ok || !second.ok) throw new Error('a run failed');
  expect(first.value.runId).toMatch(/^run-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  expect(first.value.runId).not.toBe(second.value.runId);
  expect(first.value.runDir).toBe(join(cwd, 'caplab-runs', first.value.runId));
  expect(readdirSync(join(cwd, 'caplab-runs')).sort()).toEqual([first.value.runId, second.value.runId].sort());
  const named = await host.run(task, calling('echo'), { runId: 'mine', runDir: 'elsewhere/run', clock: fixedClock(0) });
  expect(named.ok && [named.value.runId, named.value.runDir]).toEqual(['mine', join(cwd, 'elsewhere/run')]);
  expect(newRunId(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toMatch(/^run-20260102T030405Z-[0-9a-f]{6}$/);
});

test("the task's grant is an allow rule; a deny (denyTools) still wins over it; a call no rule decides that is not read-only is denied, or allowed with yes", async () => {
  const cwd = scratchDir('caplab-host-policy-');
  const run = (options: Parameters<typeof createHost>[0], granted: Task = task) => createHost({ cwd, ...options }).run(granted, calling('echo', 'note'));
  expect(outcomes(await run({}))).toEqual(['echo ok', 'note permission_denied/policy']);
  expect(outcomes(await run({ yes: true }))).toEqual(['echo ok', 'note ok']);
  expect(outcomes(await run({}, { ...task, grant: ['note'] }))).toEqual(['echo ok', 'note ok']);
  expect(outcomes(await run({ denyTools: ['note'] }, { ...task, grant: ['note'] }))).toEqual(['echo ok', 'note permission_denied/flag']);
  expect(outcomes(await run({ allowTools: ['note'] }))).toEqual(['echo ok', 'note ok']);
});

test('before any work: a rule naming no tool of the run (its label said), two tools under one name, an unknown method package; nothing is written', async () => {
  const cwd = scratchDir('caplab-host-refusals-');
  const unknown = await createHost({ cwd, denyTools: ['nosuch'] }).prepare(task, { label: 'transport local' });
  expect(unknown.ok || [unknown.kind, unknown.message]).toEqual(['unknown_name', expect.stringMatching(/^--deny-tool=nosuch: names no tool or server this run knows .* \[transport local\]$/)]);
  const unlabelled = await createHost({ cwd, denyTools: ['nosuch'] }).prepare(task);
  expect(unlabelled.ok || unlabelled.message).not.toContain('[');
  const twice = await createHost({ cwd }).run({ ...task, tools: () => [localProvider([echoTool]), localProvider([echoTool])] }, calling('echo'));
  expect(twice.ok || `${twice.class}/${twice.kind}`).toBe('invalid_arguments/duplicate_tool');
  const skill = await createHost({ cwd }).prepare(task, { skill: 'nosuch' });
  expect(skill.ok || [skill.kind, skill.message]).toEqual(['unknown_skill', 'no method package named "nosuch" (have: )']);
  expect(readdirSync(cwd)).toEqual([]);
});

test("caplab's embedded packages are parsed only when asked for: they are staged for its own task, so a task of no stages refuses them when named", async () => {
  const cwd = scratchDir('caplab-host-embedded-');
  expect((await createHost({ cwd }).prepare(task)).ok).toBe(true);
  // Refused but not named: the run goes on without it (W8); named: the run stops on its reason.
  expect((await createHost({ cwd, embeddedSkills: true }).prepare(task)).ok).toBe(true);
  const embedded = await createHost({ cwd, embeddedSkills: true }).prepare(task, { skill: 'excerpt-card' });
  expect(embedded.ok || [embedded.kind, embedded.message]).toEqual(['bad_package', expect.stringContaining("unknown stage 'read'")]);
});

// A built-in the host adds: it echoes, under its own name.
const shout: Builtin = {
  contract: { ...echoContract, name: 'shout' },
  version: 'shout/1',
  handler: async (input) => ok({ data: { echoed: String((input as { word: string }).word).toUpperCase() }, content: [textBlock('HI')], evidence: 'bytes observed now' }),
};

test("the host's own tools and providers join every task's: rules name them, a clash with the task's is refused before any work", async () => {
  const cwd = scratchDir('caplab-host-tools-');
  const extra = localProvider([defineTool({ contract: { ...echoContract, name: 'echo2' }, version: 'echo2/1', handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' }) })]);
  const host = createHost({ cwd, builtins: [shout], providers: [extra], denyTools: ['shout'] });
  expect(outcomes(await host.run(task, calling('echo', 'shout', 'echo2')))).toEqual(['echo ok', 'shout permission_denied/flag', 'echo2 ok']);
  const clash = await createHost({ cwd, builtins: [{ ...shout, contract: { ...echoContract } }] }).run(task, calling('echo'), { runDir: 'clash' });
  expect([clash.ok || `${clash.class}/${clash.kind}`, existsSync(join(cwd, 'clash'))]).toEqual(['invalid_arguments/duplicate_tool', false]);
});

test('prepare tells what the user should know before the run: a project settings file not trusted, a hook matcher that matches no tool', async () => {
  const cwd = scratchDir('caplab-host-notices-');
  mkdirSync(join(cwd, '.caplab'));
  writeFileSync(join(cwd, '.caplab/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }));
  const untrusted = await createHost({ cwd }).prepare(task);
  expect(untrusted.ok && untrusted.value.notices).toEqual([expect.stringContaining('.caplab/settings.json')]);
  const trusted = await createHost({ cwd, trustProject: true }).prepare(task);
  expect(trusted.ok && [trusted.value.notices, trusted.value.options.hooks.map((h) => h.matcher)]).toEqual([[expect.stringContaining('PreToolUse hook matcher "Bash"')], ['Bash']]);
});
