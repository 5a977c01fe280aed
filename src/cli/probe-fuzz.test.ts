import { expect, test } from 'bun:test';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { versionProfile } from '../mcp/client/index.ts';
import { classifySets } from '../mcp/probe/fuzz/classify.ts';
import { fuzzSets } from '../mcp/probe/fuzz/fuzz-sets.ts';
import { gateCommand, gateTools, type GateMode } from '../mcp/probe/testing/gate-server.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { sarifSchema, validateSarif } from './testing/sarif-check.ts';
import { testIo } from './test-io.ts';
import { readJUnit } from './testing/junit-read.ts';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const ROOT = join(import.meta.dir, '../..');
const profile = versionProfile('2025-06-18')!;

/** `caplab probe [--json] … -- gate-server MODE` in `dir`, each tools/call the server got logged to `log`. */
async function gate(dir: string, mode: GateMode, flags: readonly string[], log: string, json = true): Promise<{ code: number; report: any; out: string; err: string }> {
  const io = testIo(dir, { PATH });
  const code = await cli(['probe', ...(json ? ['--json'] : []), '--startup-timeout-ms', '10000', '--env', `GATE_LOG=${log}`, ...flags, '--', ...gateCommand(mode)], io);
  const out = io.out();
  return { code, report: json && out !== '' ? JSON.parse(out) : undefined, out, err: io.err() };
}

/** What the server was sent, a call a line. */
const logged = (log: string): { name: string; arguments: unknown }[] => {
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    return [];
  }
};

const schemaOf = (mode: GateMode, tool: string): Record<string, unknown> => gateTools(mode).find((t) => t['name'] === tool)!['inputSchema'] as Record<string, unknown>;

test('fragile server: a crash on "" and a hang on a long string give exit 4 and both findings; other tools still fuzzed; no set sent twice; each reproduced by --fuzz-replay', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const log = join(dir, 'calls.log');
  const tools = ['parse', 'render', 'fetch', 'erase'];
  const run = await gate(dir, 'fragile', ['--timeout-ms', '2000', '--fuzz', '30', ...tools.flatMap((t) => ['--fuzz-tool', t])], log);
  expect(run.code).toBe(4);
  const fuzz = run.report.fuzz;
  expect(fuzz.seed).toBe(1);
  const errors = fuzz.findings.filter((f: any) => f.level === 'error');
  expect(errors.map((f: any) => [f.kind, f.tool])).toEqual([['fuzz_exit', 'parse'], ['fuzz_hang', 'render']]);
  // The arguments are the drawn set, whole: the same seed draws them again.
  for (const f of errors) expect(JSON.stringify(f.arguments)).toBe(JSON.stringify(fuzzSets(schemaOf('fragile', f.tool), 30, 1)[f.index]));
  expect(errors[0].arguments).toEqual({ text: '' });
  expect(errors[1].arguments.text.length).toBeGreaterThan(8000);
  // Each stopped at its set; the others sent all 30; two restarts.
  const byName = Object.fromEntries(fuzz.tools.map((t: any) => [t.name, t]));
  expect([byName.parse.sent, byName.render.sent]).toEqual([errors[0].index + 1, errors[1].index + 1]);
  expect([byName.fetch.sent, byName.erase.sent, fuzz.restarts]).toEqual([30, 30, 2]);
  // What the server got, in order: each tool's drawn sets up to where it stopped, each once (none re-sent after a restart).
  const expected = tools.flatMap((t) => fuzzSets(schemaOf('fragile', t), 30, 1).slice(0, byName[t].sent).map((set) => JSON.stringify({ name: t, arguments: set })));
  expect(logged(log).map((call) => JSON.stringify(call))).toEqual(expected);
  // fetch forbids extra fields yet answers ok: accepted_invalid_input, among them a set with an extra field.
  const accepted = fuzz.findings.filter((f: any) => f.kind === 'accepted_invalid_input');
  expect(accepted.some((f: any) => f.tool === 'fetch' && Object.keys(f.arguments).some((k) => k !== 'url'))).toBe(true);
  expect(accepted.every((f: any) => f.level === 'warning' && f.valid === false && f.seed === 1)).toBe(true);
  // erase has no additionalProperties: an extra field is valid there, never accepted_invalid_input.
  const eraseSets = classifySets('erase', schemaOf('fragile', 'erase'), fuzzSets(schemaOf('fragile', 'erase'), 30, 1), profile);
  if (!('sets' in eraseSets)) throw new Error('erase not classified');
  expect(eraseSets.sets.some((s) => s.valid && Object.keys(s.arguments as object).some((k) => k !== 'id'))).toBe(true);
  expect(byName.erase.valid).toBe(eraseSets.sets.filter((s) => s.valid).length);
  const takes = (args: any): boolean => args !== null && typeof args === 'object' && !Array.isArray(args) && (!('id' in args) || typeof args.id === 'string');
  expect(accepted.filter((f: any) => f.tool === 'erase' && takes(f.arguments))).toEqual([]);
  // Replayed: each finding once, each reproduced; the exit is the hang's.
  const report = join(dir, 'report.json');
  writeFileSync(report, run.out);
  const replayLog = join(dir, 'replay.log');
  const replay = await gate(dir, 'fragile', ['--timeout-ms', '2000', '--fuzz-replay', report], replayLog);
  expect(replay.code).toBe(4);
  expect(replay.report.replay.map((r: any) => [r.kind, r.index, r.reproduced])).toEqual(fuzz.findings.map((f: any) => [f.kind, f.index, true]));
  expect(logged(replayLog).map((c) => JSON.stringify(c.arguments))).toEqual(fuzz.findings.map((f: any) => JSON.stringify(f.arguments)));
}, 120_000);

test('stray stdout after a set: exit 3, fuzz_session_ended naming the set; text mode prints the seed and the counts', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const run = await gate(dir, 'babble', ['--fuzz', '40', '--fuzz-tool', 'parse'], join(dir, 'log'));
  expect(run.code).toBe(3);
  const ended = run.report.fuzz.findings.filter((f: any) => f.kind === 'fuzz_session_ended');
  expect(ended.map((f: any) => [f.tool, f.arguments, f.level])).toEqual([['parse', { text: '' }, 'error']]);
  const text = await gate(dir, 'babble', ['--fuzz', '40', '--fuzz-tool', 'parse'], join(dir, 'log2'), false);
  expect(text.code).toBe(3);
  expect(text.out).toContain('  fuzz      seed 1, 40 set(s) per tool, 0 restart(s)');
  expect(text.out).toMatch(/ {2}fuzz {6}parse: \d+ of 40 sent \(\d+ valid, \d+ invalid\); set #\d+ ended the session: fuzzed no further\n/);
}, 60_000);

test('a restarted server listing another tool: tools_changed (an error), fuzzing goes on', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const run = await gate(dir, 'shifty', ['--fuzz', '30', '--fuzz-tool', 'parse', '--fuzz-tool', 'fetch'], join(dir, 'log'));
  expect(run.code).toBe(4);
  const changed = run.report.fuzz.findings.filter((f: any) => f.kind === 'tools_changed');
  expect(changed.map((f: any) => [f.level, f.evidence])).toEqual([['error', 'session 2 of --fuzz']]);
  expect(run.report.fuzz.tools.map((t: any) => t.name === 'fetch' ? t.sent : 'x')).toEqual(['x', 30]);
}, 60_000);

test('restarts stop at fuzzRestarts: every call exits, ten tools fuzzed, the last not', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const log = join(dir, 'calls.log');
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const run = await gate(dir, 'crashy', ['--fuzz', '3', ...names.flatMap((n) => ['--fuzz-tool', n])], log);
  expect(run.code).toBe(4);
  expect(run.report.fuzz.restarts).toBe(LIMITS.fuzzRestarts);
  expect(logged(log).length).toBe(LIMITS.fuzzRestarts + 1);
  const last = run.report.fuzz.tools.at(-1);
  expect([last.sent, last.stopped]).toEqual([0, `the server was restarted ${LIMITS.fuzzRestarts} times (fuzzRestarts): fuzzed no further`]);
}, 120_000);

test('fuzzing flags: usage errors (exit 2) before anything starts; a replay file over fuzzReplayBytes or not a report', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const log = join(dir, 'log');
  for (const flags of [['--fuzz', '5'], ['--fuzz-tool', 'parse'], ['--fuzz', '0', '--fuzz-tool', 'parse'], ['--fuzz', `${LIMITS.fuzzSetsPerTool + 1}`, '--fuzz-tool', 'x'], ['--fuzz', '2', '--fuzz-tool', 'x', '--seed', '-1'], ['--fuzz-replay', 'r.json', '--fuzz', '2', '--fuzz-tool', 'x']]) {
    const run = await gate(dir, 'fragile', flags, log);
    expect([flags, run.code]).toEqual([flags, 2]);
  }
  const big = join(dir, 'big.json');
  writeFileSync(big, '{}');
  truncateSync(big, LIMITS.fuzzReplayBytes + 1);
  const notJson = join(dir, 'bad.json');
  writeFileSync(notJson, '{"fuzz": {"findings": [{"tool": "parse", "index": 1}]}}');
  for (const [file, says] of [[big, 'fuzzReplayBytes'], [notJson, 'without its tool, kind, seed, index or arguments'], [join(dir, 'none.json'), 'cannot be read']] as const) {
    const run = await gate(dir, 'fragile', ['--fuzz-replay', file], log);
    expect([run.code, run.err]).toEqual([2, expect.stringContaining(`invalid_arguments/malformed_replay: --fuzz-replay ${file}: `)]);
    expect(run.err).toContain(says);
  }
  expect(logged(log)).toEqual([]);
}, 60_000);

test('caplab serve, --fuzz 200 --seed 1 --fuzz-tool read_source: 200 sets judged, 0 findings', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const io = testIo(dir, { PATH });
  const code = await cli(['probe', '--json', '--fuzz', '200', '--seed', '1', '--fuzz-tool', 'read_source', '--', process.execPath, join(ROOT, 'src/main.ts'), 'serve'], io);
  const fuzz = JSON.parse(io.out()).fuzz;
  expect([code, fuzz.findings, fuzz.tools.map((t: any) => [t.name, t.sent, t.valid + t.invalid])]).toEqual([0, [], [['read_source', 200, 200]]]);
  expect(fuzz.tools[0].valid).toBeGreaterThan(0);
  expect(fuzz.tools[0].invalid).toBeGreaterThan(0);
}, 60_000);

test('server-everything: 200 sets judged on each of four tools, the same fuzz lines twice', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const tools = ['echo', 'get-sum', 'get-structured-content', 'get-annotated-message'];
  const once = async (): Promise<{ code: number; lines: string[] }> => {
    const io = testIo(dir, { PATH });
    const code = await cli(['probe', '--fuzz', '200', '--seed', '1', ...tools.flatMap((t) => ['--fuzz-tool', t]), '--', 'node', join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'], io);
    return { code, lines: io.out().split('\n').filter((line) => line.startsWith('  fuzz ')) };
  };
  const first = await once();
  const second = await once();
  expect(first.lines).toEqual(second.lines);
  for (const tool of tools) expect(first.lines.some((line) => line.startsWith(`  fuzz      ${tool}: 200 of 200 sent (`))).toBe(true);
  expect(first.lines[0]).toStartWith('  fuzz      seed 1, 200 set(s) per tool, 0 restart(s), ');
  expect(first.code).toBe(0);
}, 120_000);

test('--junit: a testcase per fuzzed tool, failed where an error is (read by python3, counts match); --sarif: a result per fuzz finding, its set in field', async () => {
  const dir = scratchDir('caplab-fuzz-');
  const xml = join(dir, 'out.xml');
  const sarif = join(dir, 'out.sarif');
  const run = await gate(dir, 'babble', ['--fuzz', '40', '--fuzz-tool', 'parse', '--fuzz-tool', 'erase', '--junit', xml, '--sarif', sarif], join(dir, 'log'));
  expect(run.code).toBe(3);
  const junit = readJUnit(xml);
  expect([junit.exitCode, junit.suites.map((s) => [s.cases.join(','), s.failed.join(',')])]).toEqual([0, [['listing,session,fuzz parse,fuzz erase', 'fuzz parse']]]);
  const results = JSON.parse(readFileSync(sarif, 'utf8')).runs[0].results;
  const fuzzResults = results.filter((r: any) => ['fuzz_session_ended', 'accepted_invalid_input', 'framing'].includes(r.ruleId));
  expect(fuzzResults.length).toBe(run.report.fuzz.findings.length);
  expect(fuzzResults.find((r: any) => r.ruleId === 'fuzz_session_ended').level).toBe('error');
  // Each set's finding has a fingerprint of its own (the set in field).
  expect(new Set(fuzzResults.map((r: any) => JSON.stringify(r.partialFingerprints))).size).toBe(fuzzResults.length);
  // The log with its fuzz results is SARIF 2.1.0: sarif-multitool validates it without an error, and so does the schema it ships.
  expect((await validateSarif(sarif, dir)).errors).toEqual([]);
  const schema = sarifSchema();
  expect([schema(JSON.parse(readFileSync(sarif, 'utf8'))), schema.errors]).toEqual([true, null]);
}, 120_000);
