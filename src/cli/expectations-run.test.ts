/**
 * Acceptance of issue 23 for `caplab run --scenario FILE --mcp-config FILE`
 * against the pinned server-everything: the example run and its record
 * (format 12 — 6's scenario copy and result files, and the task tool
 * server-everything lists at 2025-11-25), a failing copy, and a forged
 * record whose result file was rewritten consistently. Two real-server runs
 * in all; the example's run dir is shared by the tests that read it.
 */
import { expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { callsOf, caplab, EVERYTHING_CONFIG, events } from './testing/configured-kit.ts';
import { copyRun, rechain, verifyJson } from './verify-test-kit.ts';

const EXAMPLE = join(import.meta.dir, '../../fixtures/examples/everything.scenario.json');
const shared = scratchDir('caplab-expectations-run-');

let exampleRun: Promise<{ code: number; out: string; err: string; dir: string }> | undefined;
/** The example, run once for the tests that read its record. */
function example(): Promise<{ code: number; out: string; err: string; dir: string }> {
  exampleRun ??= (async () => {
    const dir = join(shared, 'example');
    const run = await caplab(['run', '--scenario', EXAMPLE, '--mcp-config', EVERYTHING_CONFIG, '--out', dir], shared);
    return { ...run, dir };
  })();
  return exampleRun;
}

type Check = { id: string; verdict: string; evidence: string };
const checksOf = (dir: string): Check[] => events(dir).find((e) => e.type === 'acceptance')!.checks;

test('the example run exits 0 with every check passing, and caplab verify re-computes it (format 12: the result files of 6, and the task tool of server-everything)', async () => {
  const run = await example();
  expect(run.code).toBe(0);
  expect(checksOf(run.dir).map((c) => `${c.id} ${c.verdict}`)).toEqual([
    'call:echo:ok pass',
    'call:weather:ok pass',
    'call:weather:/temperature pass',
    'call:weather:/conditions pass',
    'call:weather:output_valid pass',
    'call:sum:ok pass',
    'call:sum:/content/0/text pass',
    'call:resource:error pass',
    'end:calls pass',
    'end:stop pass',
  ]);
  const verified = await verifyJson(run.dir);
  expect(verified.code).toBe(0);
  expect(verified.doc.verified).toBe(true);
  expect(verified.doc['format']).toBe('caplab.ledger/12');
  const recheck = verified.doc['recheck'] as { accepted: boolean; checks: Check[] };
  expect(recheck.accepted).toBe(true);
  expect(recheck.checks.map((c) => c.id)).toEqual(checksOf(run.dir).map((c) => c.id));
}, 60_000);

test('every successful call keeps results/act-NN.json, its sha256 the call\'s data_sha256; the failed one keeps none', async () => {
  const { dir } = await example();
  const calls = callsOf(dir);
  for (const id of ['echo', 'weather', 'sum']) {
    const call = calls[id]!;
    const [file, ...more] = call.files.filter((f: { role: string }) => f.role === 'call_result');
    expect(more).toEqual([]);
    expect(file.path).toBe(`results/${call.action_id}.json`);
    const bytes = readFileSync(join(dir, file.path));
    expect(sha256Hex(bytes)).toBe(call.outcome.data_sha256);
    expect(file.sha256).toBe(call.outcome.data_sha256);
    expect(bytes.toString('utf8')).toBe(canonicalJson(JSON.parse(bytes.toString('utf8'))));
  }
  expect(JSON.parse(readFileSync(join(dir, calls['weather']!.files[0].path), 'utf8'))).toEqual({ conditions: 'Light rain / drizzle', humidity: 82, temperature: 36 });
  expect(calls['resource']!.files ?? []).toEqual([]);
}, 60_000);

test('run_start references scenario/everything.json (role scenario), byte-identical to the file run', async () => {
  const { dir } = await example();
  const start = events(dir)[0]!;
  expect([start['task'], start['scenario']]).toEqual(['expectations', 'everything']);
  const refs = start['files'].filter((f: { role: string }) => f.role === 'scenario');
  expect(refs.map((f: { path: string }) => f.path)).toEqual(['scenario/everything.json']);
  expect(readFileSync(join(dir, 'scenario/everything.json'))).toEqual(readFileSync(EXAMPLE));
  expect(refs[0].sha256).toBe(sha256Hex(readFileSync(EXAMPLE)));
}, 60_000);

test('a copy with /temperature 37 exits 1 with call:weather:/temperature failed (observed 36), the rest passing; its record verifies as not accepted', async () => {
  const dir = scratchDir();
  const scenario = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  scenario.expect.calls.weather.values['/temperature'] = 37;
  const file = join(dir, 'everything.scenario.json');
  writeFileSync(file, JSON.stringify(scenario, null, 2));
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', file, '--mcp-config', EVERYTHING_CONFIG, '--out', out], dir);
  expect(run.code).toBe(1);
  expect(run.out).toContain('call:weather:/temperature');
  const failed = checksOf(out).filter((c) => c.verdict !== 'pass');
  expect(failed).toEqual([expect.objectContaining({ id: 'call:weather:/temperature', verdict: 'fail', evidence: '36' })]);
  const verified = await verifyJson(out);
  expect(verified.code).toBe(0);
  expect((verified.doc['recheck'] as { accepted: boolean }).accepted).toBe(false);
}, 60_000);

/** A copy of the example's record whose weather result says 37: the file, its call's data_sha256 and file ref rewritten, the ledger re-chained and re-sealed; acceptance untouched. */
function forgedTemperature(dir: string, parent: string, temperature: number): string {
  const copy = copyRun(dir, parent);
  const weather = callsOf(copy)['weather']!;
  const path = weather.files[0].path as string;
  const forged = canonicalJson({ ...JSON.parse(readFileSync(join(copy, path), 'utf8')), temperature });
  writeFileSync(join(copy, path), forged);
  const sha256 = sha256Hex(forged);
  rechain(copy, (all) =>
    all.map((e) =>
      e.type === 'call' && e['tool_call_id'] === 'weather'
        ? { ...e, outcome: { ...(e['outcome'] as object), data_sha256: sha256 }, files: [{ ...weather.files[0], sha256, bytes: Buffer.byteLength(forged) }] }
        : e,
    ),
  );
  return copy;
}

test('a re-chained record whose result file says 37 (data_sha256 and its ref recomputed, acceptance untouched) is acceptance_mismatch naming call:weather:/temperature', async () => {
  const { dir } = await example();
  const parent = scratchDir();
  const forged = await verifyJson(forgedTemperature(dir, parent, 37));
  expect(forged.code).toBe(1);
  expect(forged.doc.verified).toBe(false);
  expect(forged.doc.error?.kind).toBe('acceptance_mismatch');
  expect(JSON.stringify(forged.doc.error)).toContain('call:weather:/temperature');
  // The same forgery with the true value verifies: what failed is the value, not the re-chaining.
  expect((await verifyJson(forgedTemperature(dir, parent, 36))).code).toBe(0);
}, 60_000);

test('a record whose scenario copy was rewritten (its ref recomputed, re-chained): another scenario is scenario_mismatch, another expectation acceptance_mismatch', async () => {
  const { dir } = await example();
  const parent = scratchDir();
  const edit = (text: (scenario: any) => void): string => {
    const copy = copyRun(dir, parent);
    const scenario = JSON.parse(readFileSync(join(copy, 'scenario/everything.json'), 'utf8'));
    text(scenario);
    const bytes = JSON.stringify(scenario);
    writeFileSync(join(copy, 'scenario/everything.json'), bytes);
    const ref = { sha256: sha256Hex(bytes), bytes: Buffer.byteLength(bytes) };
    rechain(copy, (all) => all.map((e) => (e.type === 'run_start' ? { ...e, files: (e['files'] as { role: string }[]).map((f) => (f.role === 'scenario' ? { ...f, ...ref } : f)) } : e)));
    return copy;
  };
  // A scenario of another name, or an excerpt scenario, is not the run's scenario.
  for (const change of [(s: any) => (s.name = 'other'), (s: any) => (delete s.task, (s.expect = { accepted: true }))]) {
    const verified = await verifyJson(edit(change));
    expect([verified.code, verified.doc.error?.kind]).toEqual([1, 'scenario_mismatch']);
  }
  // An expectation changed: the checks re-computed from the copy are not the recorded ones.
  const stricter = await verifyJson(edit((s) => (s.expect.calls.weather.values['/temperature'] = 37)));
  expect([stricter.code, stricter.doc.error?.kind]).toEqual([1, 'acceptance_mismatch']);
}, 60_000);

test('verify ties each result file to its call: a file rewritten (its ref re-hashed, re-chained) under an unchanged data_sha256 is result_mismatch, whatever the checks read; a dropped one too', async () => {
  const { dir } = await example();
  const parent = scratchDir();
  const rewritten = copyRun(dir, parent);
  const weather = callsOf(rewritten)['weather']!;
  const path = weather.files[0].path as string;
  // Humidity is read by no check: only the tie to data_sha256 can tell this file from the one the server sent.
  const forged = canonicalJson({ ...JSON.parse(readFileSync(join(rewritten, path), 'utf8')), humidity: 1 });
  writeFileSync(join(rewritten, path), forged);
  rechain(rewritten, (all) => all.map((e) => (e.type === 'call' && e['tool_call_id'] === 'weather' ? { ...e, files: [{ ...weather.files[0], sha256: sha256Hex(forged), bytes: Buffer.byteLength(forged) }] } : e)));
  const tied = await verifyJson(rewritten);
  expect([tied.code, tied.doc.error?.kind, tied.doc.error?.message]).toEqual([1, 'result_mismatch', `call weather: ${path} is not the data its outcome hashes (data_sha256)`]);
  const dropped = copyRun(dir, parent);
  const echo = callsOf(dropped)['echo']!;
  rmSync(join(dropped, echo.files[0].path as string));
  rechain(dropped, (all) => all.map((e) => (e.type === 'call' && e['tool_call_id'] === 'echo' ? (({ files: _, ...rest }) => rest)(e) : e)));
  const missing = await verifyJson(dropped);
  expect([missing.code, missing.doc.error?.kind, missing.doc.error?.message]).toEqual([1, 'result_mismatch', 'call echo: succeeded, but no result file (call_result) keeps its data']);
}, 60_000);
