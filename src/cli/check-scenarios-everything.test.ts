/**
 * Acceptance of issue 23 for `caplab check --scenarios DIR --mcp-config FILE`
 * against the pinned server-everything: the example passes whole and its
 * reports parse; a changed expectation fails by its check id in the table,
 * the JSON and the JUnit file; the side-effect check is per call, and a
 * forged record breaks it.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { callEffectViolation, readCallEffects } from './check-effects.ts';
import { caplab, EVERYTHING_CONFIG } from './testing/configured-kit.ts';
import { copyRun, rechain, type Event } from './verify-test-kit.ts';

const EXAMPLES = join(import.meta.dir, '../../fixtures/examples');
const EXAMPLE = join(EXAMPLES, 'everything.scenario.json');
const usage = { input_tokens: 0, output_tokens: 0 };

/** The JUnit file's testcases as python3's xml.etree reads them (name, failure message, failure body), or undefined without python3. */
async function junitByPython(file: string): Promise<Array<{ name: string; message: string | null; body: string | null }> | undefined> {
  if (!Bun.which('python3')) return undefined;
  const script = 'import json,sys,xml.etree.ElementTree as E\nr=E.parse(sys.argv[1]).getroot()\nprint(json.dumps([{"name":c.get("name"),"message":(c.find("failure").get("message") if c.find("failure") is not None else None),"body":(c.find("failure").text if c.find("failure") is not None else None)} for c in r.iter("testcase")]))';
  const proc = Bun.spawn(['python3', '-c', script, file], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env['PATH'] ?? '' } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`python3 could not parse ${file}: ${err}`);
  return JSON.parse(out);
}

test('check --scenarios fixtures/examples --mcp-config everything.mcp.json --json --junit: exit 0, every check pass, the JUnit parses, the run dirs verify', async () => {
  const dir = scratchDir();
  const junit = join(dir, 'report.xml');
  const run = await caplab(['check', '--scenarios', EXAMPLES, '--mcp-config', EVERYTHING_CONFIG, '--json', '--junit', junit, '--out', join(dir, 'runs')], dir);
  expect([run.code, run.err]).toEqual([0, '']);
  const doc = JSON.parse(run.out);
  expect([doc.passed, doc.scenarios, doc.results.map((r: any) => [r.id, r.passed, r.observed])]).toEqual([true, 1, [['everything', true, 'all 10 checks pass, record verifies']]]);
  const checks = doc.results[0].checks;
  expect(checks.map((c: any) => c.id)).toEqual(['call:echo:ok', 'call:weather:ok', 'call:weather:/temperature', 'call:weather:/conditions', 'call:weather:output_valid', 'call:sum:ok', 'call:sum:/content/0/text', 'call:resource:error', 'end:calls', 'end:stop']);
  expect(checks.filter((c: any) => c.verdict !== 'pass')).toEqual([]);
  expect(checks.find((c: any) => c.id === 'call:weather:/temperature')).toEqual({ id: 'call:weather:/temperature', verdict: 'pass', condition: 'data at "/temperature" is 36', evidence: '36' });
  const parsed = await junitByPython(junit);
  if (parsed) expect(parsed).toEqual([{ name: 'everything', message: null, body: null }]);
  const verified = await caplab(['verify', doc.results[0].runDir], dir);
  expect([verified.code, verified.out]).toEqual([0, expect.stringContaining('verdict accepted (re-computed)')]);
}, 60_000);

test('a copy with /temperature 37 fails by that check (observed 36) in the table, the JSON and the JUnit; two calls of one tool beside it pass', async () => {
  const dir = scratchDir();
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  example.expect.calls.weather.values['/temperature'] = 37;
  writeFileSync(join(scenarios, 'everything.scenario.json'), JSON.stringify(example));
  const echo = (id: string) => ({ id, name: 'mcp__everything__echo', arguments: { message: id } });
  const twice = {
    task: 'expectations',
    name: 'twice',
    description: 'Echo twice, one call per response.',
    servers: ['everything'],
    permissions: { allow: ['mcp__everything__echo'] },
    responses: [{ tool_calls: [echo('first')], usage }, { tool_calls: [echo('second')], usage }, { text: 'Done.', usage }],
    expect: { calls: { first: { ok: true, values: { '/content/0/text': 'Echo: first' } }, second: { ok: true } }, end: { calls: 2 } },
  };
  writeFileSync(join(scenarios, 'twice.scenario.json'), JSON.stringify(twice));
  const junit = join(dir, 'report.xml');
  const [table, json] = await Promise.all([
    caplab(['check', '--scenarios', scenarios, '--mcp-config', EVERYTHING_CONFIG, '--junit', junit, '--out', join(dir, 'table')], dir),
    caplab(['check', '--scenarios', scenarios, '--mcp-config', EVERYTHING_CONFIG, '--json', '--out', join(dir, 'json')], dir),
  ]);
  expect([table.code, json.code]).toEqual([1, 1]);
  expect(table.out).toMatch(/✗ everything +expected: every expectation holds \(10 checks\), record verifies, each call's handler entered at most once\n +observed: call:weather:\/temperature: 36, record verifies\n/);
  expect(table.out).toMatch(/✓ twice +expected: every expectation holds \(4 checks\)/);
  const [everything, two] = JSON.parse(json.out).results;
  expect(everything.checks.filter((c: any) => c.verdict !== 'pass')).toEqual([{ id: 'call:weather:/temperature', verdict: 'fail', condition: 'data at "/temperature" is 37', evidence: '36' }]);
  expect([two.passed, two.observed]).toEqual([true, 'all 4 checks pass, record verifies']);
  const xml = readFileSync(junit, 'utf8');
  const cases = (await junitByPython(junit)) ?? [];
  const failed = cases.find((c) => c.name === 'everything') ?? { message: xml, body: xml };
  expect(failed.message).toStartWith('failed checks: call:weather:/temperature; expected every expectation holds (10 checks)');
  expect(failed.body!.split('\n')).toContain('call:weather:/temperature: expected data at "/temperature" is 37; observed 36');
  if (cases.length > 0) expect(cases.find((c) => c.name === 'twice')).toEqual({ name: 'twice', message: null, body: null });

  // The per-call rule, read back from the record: the real run holds it; a forged record breaks it.
  const real = two.runDir as string;
  expect(callEffectViolation(readCallEffects(real))).toBeUndefined();
  const doubled = copyRun(real, dir);
  rechain(doubled, (events) => events.flatMap((e: Event) => (e.type === 'call' && e['tool_call_id'] === 'second' ? [e, e] : [e])));
  expect(callEffectViolation(readCallEffects(doubled))).toBe('call "second": handler entered 2 times');
  const unasked = copyRun(real, dir);
  rechain(unasked, (events) => events.map((e: Event) => (e.type === 'call' && e['tool_call_id'] === 'second' ? { ...e, tool_call_id: 'ghost' } : e)));
  expect(callEffectViolation(readCallEffects(unasked))).toBe('call "ghost": handler entered, but no recorded response asked for that id');
  // A call whose handler was not entered is no side effect, asked for or not.
  const refused = copyRun(real, dir);
  rechain(refused, (events) => events.flatMap((e: Event) => (e.type === 'call' && e['tool_call_id'] === 'second' ? [e, { ...e, tool_call_id: 'ghost', handler_entered: false }] : [e])));
  expect(callEffectViolation(readCallEffects(refused))).toBeUndefined();
}, 60_000);

