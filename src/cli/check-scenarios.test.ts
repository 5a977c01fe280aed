/**
 * `caplab check --scenarios DIR`: which files of DIR become cases, and every
 * refusal found before the first case (exit 2, no run dir, no server
 * started). Only two tests start a server (the test server, marked); the
 * real server-everything runs in check-scenarios-everything.test.ts.
 */
import { expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { HELP } from './help.ts';
import { caplab, serversLeft, testServer, writeConfig } from './testing/configured-kit.ts';

const SCENARIOS = join(import.meta.dir, '../../fixtures/scenarios');
const usage = { input_tokens: 1, output_tokens: 1 };

/** An expectations scenario calling server `key`'s echo once per id, each expected ok. */
function echoScenario(name: string, key: string, ids: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task: 'expectations',
    name,
    description: `Echo ${ids.length} time(s).`,
    servers: [key],
    permissions: { allow: [`mcp__${key}__echo`] },
    responses: [{ tool_calls: ids.map((id) => ({ id, name: `mcp__${key}__echo`, arguments: { text: id } })), usage }, { text: 'Done.', usage }],
    expect: { calls: Object.fromEntries(ids.map((id) => [id, { ok: true }])), end: { calls: ids.length, stop: 'final_answer' } },
    ...extra,
  };
}

/** A folder of scenario files: each name gets its JSON (a string: its text as is). */
function folder(dir: string, files: Record<string, unknown>): string {
  const path = join(dir, 'scenarios');
  mkdirSync(path);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(path, name), typeof body === 'string' ? body : JSON.stringify(body));
  return path;
}

test('a bad file anywhere in DIR is exit 2 naming it before the first case: no run dir, no server started', async () => {
  const dir = scratchDir();
  const mark = `check-scenarios-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo') });
  const good = echoScenario('good', 'a', ['e1']);
  const bad: Record<string, [unknown, string]> = {
    'not JSON': ['{"task": "expectations",', 'bad_scenario'],
    'a bad field': [{ ...good, name: 'bad', max_requests: LIMITS.scenarioRequests + 1 }, 'max_requests: is at most 64'],
    'an unknown key': [{ ...good, name: 'bad', extra: true }, 'unknown key'],
    'an expectation no response makes': [{ ...good, name: 'bad', expect: { calls: { nope: { ok: true } } } }, 'expect.calls.nope: no scripted response makes a call with this id'],
    'a server the config lacks': [echoScenario('bad', 'missing', ['e1']), 'names missing'],
    'values with error': [{ ...good, name: 'bad', expect: { calls: { e1: { error: { class: 'business' }, values: { '': 1 } } } } }, 'values and output_valid need ok: true'],
  };
  for (const [what, [body, says]] of Object.entries(bad)) {
    const sub = scratchDir();
    const scenarios = folder(sub, { 'a-good.scenario.json': good, 'z-bad.scenario.json': body });
    const out = join(sub, 'runs');
    const run = await caplab(['check', '--scenarios', scenarios, '--mcp-config', config, '--out', out], sub);
    expect({ what, code: run.code, out: run.out, names: run.err.includes(`${join(scenarios, 'z-bad.scenario.json')}: `), says: run.err.includes(says), runs: existsSync(out) }).toEqual({ what, code: 2, out: '', names: true, says: true, runs: false });
  }
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('DIR itself: missing, empty, only a subfolder, more than LIMITS.checkScenarios files, a symlink or a folder named *.scenario.json — each exit 2, no run dir', async () => {
  const dir = scratchDir();
  const happy = readFileSync(join(SCENARIOS, 'happy.json'), 'utf8');
  const many = folder(scratchDir(), Object.fromEntries(Array.from({ length: LIMITS.checkScenarios + 1 }, (_, i) => [`s${i}.scenario.json`, happy])));
  const linked = folder(scratchDir(), { 'a.scenario.json': happy });
  symlinkSync(join(linked, 'a.scenario.json'), join(linked, 'b.scenario.json'));
  const nested = folder(scratchDir(), { 'a.scenario.json': happy });
  mkdirSync(join(nested, 'b.scenario.json'));
  const below = folder(scratchDir(), {});
  mkdirSync(join(below, 'sub'));
  writeFileSync(join(below, 'sub', 'a.scenario.json'), happy);
  const cases: Record<string, [string[], string]> = {
    missing: [['--scenarios', join(dir, 'nope')], 'invalid_arguments/bad_path: --scenarios '],
    empty: [['--scenarios', folder(scratchDir(), { 'happy.json': happy })], 'invalid_arguments/no_scenarios: '],
    'only below': [['--scenarios', below], 'invalid_arguments/no_scenarios: '],
    'too many': [['--scenarios', many], `invalid_arguments/too_many_scenarios: --scenarios ${many}: ${LIMITS.checkScenarios + 1} *.scenario.json files, more than ${LIMITS.checkScenarios}`],
    symlink: [['--scenarios', linked], `invalid_arguments/bad_scenario: ${join(linked, 'b.scenario.json')}: a symlink, not a regular file`],
    folder: [['--scenarios', nested], `invalid_arguments/bad_scenario: ${join(nested, 'b.scenario.json')}: a folder, not a regular file`],
    'empty flag': [['--scenarios='], '--scenarios needs a folder'],
    'require-server': [['--scenarios', linked, '--mcp-config', join(dir, 'x.json'), '--require-server', 'a'], '--require-server does not apply to --scenarios'],
  };
  for (const [what, [args, says]] of Object.entries(cases)) {
    const out = join(dir, `runs-${what.replace(/\W/g, '-')}`);
    const run = await caplab(['check', ...args, '--out', out], dir);
    expect({ what, code: run.code, says: run.err.startsWith(`caplab check: ${says}`) ? says : run.err, runs: existsSync(out) }).toEqual({ what, code: 2, says, runs: false });
  }
}, 60_000);

test('a scenario naming servers without --mcp-config is exit 2 before the first case, even after one that needs none', async () => {
  const dir = scratchDir();
  const scenarios = folder(dir, { 'a.scenario.json': readFileSync(join(SCENARIOS, 'happy.json'), 'utf8'), 'b.scenario.json': echoScenario('echoes', 'a', ['e1']) });
  const run = await caplab(['check', '--scenarios', scenarios, '--out', join(dir, 'runs')], dir);
  expect([run.code, run.out]).toEqual([2, '']);
  expect(run.err).toContain(`${join(scenarios, 'b.scenario.json')}: scenario echoes names servers (a); give --mcp-config FILE`);
  expect(existsSync(join(dir, 'runs'))).toBe(false);
});

test("excerpt scenarios in DIR run as the built-in cases do, sorted by file name, each case named by its file's stem; other files are not read", async () => {
  const dir = scratchDir();
  const scenarios = folder(dir, { 'notes.json': '{ not a scenario', 'zz.scenario.json': readFileSync(join(SCENARIOS, 'happy.json'), 'utf8') });
  copyFileSync(join(SCENARIOS, 'unknown-tool.json'), join(scenarios, 'b-unknown.scenario.json'));
  const out = join(dir, 'runs');
  const run = await caplab(['check', '--scenarios', scenarios, '--json', '--out', out], dir);
  expect(run.code).toBe(0);
  const doc = JSON.parse(run.out);
  expect(doc.results.map((r: any) => [r.id, r.scenario, r.transport, r.passed, r.runDir])).toEqual([
    ['b-unknown', 'unknown-tool', 'mcp', true, join(out, 'b-unknown')],
    ['zz', 'happy', 'mcp', true, join(out, 'zz')],
  ]);
  expect(doc.results[1].expected).toContain('accepted');
  for (const r of doc.results) expect((await caplab(['verify', r.runDir], dir)).code).toBe(0);
  const text = await caplab(['check', '--scenarios', scenarios, '--out', join(dir, 'text')], dir);
  expect(text.out.split('\n')[0]).toBe(`caplab check — 2 scenario(s) from ${scenarios}, run dirs under ${join(dir, 'text')}`);
}, 60_000);

test('an expectations case whose server does not start is a failed case (exit 1), not exit 3; the next case still runs', async () => {
  const dir = scratchDir();
  const mark = `check-scenarios-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), gone: { command: join(dir, 'no-such-server') } });
  const scenarios = folder(dir, { 'a-gone.scenario.json': echoScenario('gone', 'gone', ['g1']), 'b-echo.scenario.json': echoScenario('echoes', 'a', ['e1', 'e2']) });
  const run = await caplab(['check', '--scenarios', scenarios, '--mcp-config', config, '--json', '--out', join(dir, 'runs')], dir);
  expect(run.code).toBe(1);
  const [gone, echoes] = JSON.parse(run.out).results;
  expect([gone.id, gone.passed, gone.observed, gone.failure.kind]).toEqual(['a-gone', false, 'did not run: spawn/required_server', 'required_server']);
  expect(existsSync(join(dir, 'runs', 'a-gone'))).toBe(false);
  // Two calls of one foreign tool: the side-effect check is per call, so they pass.
  expect([echoes.id, echoes.passed, echoes.observed]).toEqual(['b-echo', true, 'all 4 checks pass, record verifies']);
  expect(echoes.expected).toBe("every expectation holds (4 checks), record verifies, each call's handler entered at most once");
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test("check's help states the limit LIMITS.checkScenarios holds", () => {
  expect(HELP['check']!.replace(/\s+/g, ' ')).toContain(`*.scenario.json of DIR instead (sorted by name, not the folders below it, at most ${LIMITS.checkScenarios}: checkScenarios)`);
});

test('what needs the servers\' listing is checked for every file before the first case: a later file\'s output_valid without outputSchema, or rule naming an unlisted tool, is exit 2 naming it, no run dir', async () => {
  const dir = scratchDir();
  const mark = `check-scenarios-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo') });
  const good = echoScenario('good', 'a', ['e1']);
  const late: Record<string, [unknown, string]> = {
    'output_valid without outputSchema': [{ ...good, name: 'late', expect: { calls: { e1: { ok: true, output_valid: true } } } }, 'expect.calls.e1.output_valid: tool "mcp__a__echo" lists no outputSchema'],
    'a rule naming an unlisted tool': [{ ...good, name: 'late', permissions: { allow: ['mcp__a__nope'] } }, 'mcp__a__nope'],
  };
  for (const [what, [body, says]] of Object.entries(late)) {
    const sub = scratchDir();
    const scenarios = folder(sub, { 'a-good.scenario.json': good, 'z-late.scenario.json': body });
    const out = join(sub, 'runs');
    const run = await caplab(['check', '--scenarios', scenarios, '--mcp-config', config, '--out', out], sub);
    expect({ what, code: run.code, out: run.out, names: run.err.includes(`${join(scenarios, 'z-late.scenario.json')}: `), says: run.err.includes(says), runs: existsSync(out) }).toEqual({ what, code: 2, out: '', names: true, says: true, runs: false });
  }
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('[test server] a case whose call outcome is unknown fails even where its expectation says that error: run exits 4, check 1', async () => {
  const dir = scratchDir();
  const mark = `check-scenarios-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { d: testServer('die') });
  const crash = {
    task: 'expectations',
    name: 'crash',
    description: 'Call crash, which kills the server before it answers.',
    servers: ['d'],
    permissions: { allow: ['mcp__d__crash'] },
    responses: [{ tool_calls: [{ id: 'c1', name: 'mcp__d__crash', arguments: {} }], usage }, { text: 'Done.', usage }],
    expect: { calls: { c1: { error: { class: 'closed' } } } },
  };
  const scenarios = folder(dir, { 'crash.scenario.json': crash });
  const run = await caplab(['run', '--scenario', join(scenarios, 'crash.scenario.json'), '--mcp-config', config, '--out', join(dir, 'run')], dir);
  expect(run.code).toBe(4);
  const check = await caplab(['check', '--scenarios', scenarios, '--mcp-config', config, '--out', join(dir, 'check'), '--json'], dir);
  const doc = JSON.parse(check.out);
  expect([check.code, doc.results[0].passed, doc.results[0].checks.map((c: { id: string; verdict: string }) => `${c.id} ${c.verdict}`)]).toEqual([1, false, ['call:c1:error pass']]);
  expect(doc.results[0].observed).toContain('ended outcome unknown');
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);
