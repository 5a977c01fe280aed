import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBE_RULES } from '../mcp/index.ts';
import { gateCommand, type GateMode } from '../mcp/probe/testing/gate-server.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { sarifSchema, validateSarif } from './testing/sarif-check.ts';
import { readJUnit } from './testing/junit-read.ts';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const FAST = ['--timeout-ms', '5000', '--startup-timeout-ms', '5000'];

/** `caplab probe --json … -- gate-server MODE` in `dir`: its exit and report. */
async function gate(dir: string, mode: GateMode, flags: readonly string[] = []): Promise<{ code: number; report: any; err: string }> {
  const io = testIo(dir, { PATH });
  const code = await cli(['probe', '--json', ...FAST, ...flags, '--', ...gateCommand(mode)], io);
  const out = io.out();
  return { code, report: out === '' ? undefined : JSON.parse(out), err: io.err() };
}

/** Every finding's kind is a rule: a report naming a kind PROBE_RULES lacks fails here. */
function expectRegistered(report: any): void {
  const kinds = [...report.findings, ...report.calls.flatMap((c: any) => c.findings), ...(report.failure ? [report.failure] : [])].map((f: any) => f.kind);
  expect(kinds.filter((kind: string) => !Object.hasOwn(PROBE_RULES, kind))).toEqual([]);
}

test('a 5000-character description is a warning: exit 0, 1 under --fail-on warning; a non-object inputSchema an error (lowering it: exit 2)', async () => {
  const dir = scratchDir('caplab-gate-');
  const long = await gate(dir, 'long_description');
  expect([long.code, long.report.findings.map((f: any) => [f.kind, f.level])]).toEqual([0, [['oversized_description', 'warning']]]);
  expectRegistered(long.report);
  expect((await gate(dir, 'long_description', ['--fail-on', 'warning'])).code).toBe(1);
  expect((await gate(dir, 'long_description', ['--level', 'oversized_description=error'])).code).toBe(1);
  const stringly = await gate(dir, 'string_input');
  expect([stringly.code, stringly.report.findings.map((f: any) => [f.kind, f.level])]).toEqual([1, [['input_schema', 'error']]]);
  const lowered = await gate(dir, 'string_input', ['--level', 'input_schema=warning']);
  expect([lowered.code, lowered.report, lowered.err]).toEqual([2, undefined, expect.stringContaining('input_schema rests on a spec MUST; it stays an error')]);
  expect((await gate(dir, 'base', ['--level', 'no_such_kind=note'])).code).toBe(2);
  // Text mode: the level before the class, and the counts.
  const io = testIo(dir, { PATH });
  expect(await cli(['probe', ...FAST, '--', ...gateCommand('long_description')], io)).toBe(0);
  expect(io.out()).toContain('  finding   warning protocol/oversized_description [caplab host rule] long: description has 5000 characters');
  expect(io.out()).toContain('  levels    0 error, 1 warning, 0 note (--fail-on error)\n');
}, 60_000);

/** What each drift mode gives against the base's pins: its one kind, level, tool and named field. */
const DRIFTS: readonly (readonly [GateMode, string, string, string | undefined, string])[] = [
  ['description', 'tool_changed', 'error', 'search', '/description'],
  ['property_description', 'tool_changed', 'error', 'search', '/inputSchema/properties/query/description'],
  ['optional_property', 'tool_changed', 'error', 'search', '/inputSchema'],
  ['annotation', 'tool_meta_changed', 'warning', 'search', '/annotations'],
  ['removed', 'tool_removed', 'warning', 'erase', ''],
  ['added', 'tool_added', 'error', 'export', ''],
  ['renamed', 'tool_renamed', 'error', 'fetch_page', '/name'],
  ['version', 'server_version_changed', 'note', undefined, '/serverInfo/version'],
  ['instructions', 'instructions_changed', 'error', undefined, '/instructions'],
];

test('pins: --update-pins twice writes identical bytes; unchanged exits 0 twice; each drift gives exactly its kind and level, naming the field', async () => {
  const dir = scratchDir('caplab-gate-');
  const pins = join(dir, 'pins.json');
  const first = await gate(dir, 'base', ['--pins', 'pins.json', '--update-pins', '--name', 'gate']);
  expect([first.code, first.report.pins]).toEqual([0, expect.objectContaining({ mode: 'update', pinned: false, recorded: true, accepted: [expect.objectContaining({ kind: 'server_unpinned' })] })]);
  const bytes = readFileSync(pins, 'utf8');
  expect(bytes.startsWith('{\n  "format": "caplab.pins/1",\n  "servers": {\n    "gate": {\n')).toBe(true);
  expect(JSON.parse(bytes).servers.gate.tools.search.wire.description).toBe('Searches the index.');
  expect((await gate(dir, 'base', ['--pins', 'pins.json', '--update-pins', '--name', 'gate'])).code).toBe(0);
  expect(readFileSync(pins, 'utf8')).toBe(bytes);
  for (let i = 0; i < 2; i++) {
    const same = await gate(dir, 'base', ['--pins', 'pins.json', '--name', 'gate']);
    expect([same.code, same.report.findings, same.report.pins.pinned]).toEqual([0, [], true]);
  }
  for (const [mode, kind, level, tool, field] of DRIFTS) {
    const drift = await gate(dir, mode, ['--pins', 'pins.json', '--name', 'gate']);
    const found = drift.report.findings.map((f: any) => ({ kind: f.kind, level: f.level, tool: f.tool, field: f.field }));
    expect({ mode, found }).toEqual({ mode, found: [{ kind, level, tool, field }] });
    expect({ mode, code: drift.code }).toEqual({ mode, code: level === 'error' ? 1 : 0 });
    expectRegistered(drift.report);
  }
  // The evidence names old and new hash and where the texts part.
  const changed = await gate(dir, 'description', ['--pins', 'pins.json', '--name', 'gate']);
  expect(changed.report.findings[0].evidence).toMatch(/^\/description [0-9a-f]{12}→[0-9a-f]{12}; \/description: …arches the index\[\. → !\]"$/);
  expect(readFileSync(pins, 'utf8')).toBe(bytes);
}, 120_000);

test('a pin file truncated, with an edited hash, missing, or a folder: invalid_arguments/malformed_pins, exit 2, the file untouched', async () => {
  const dir = scratchDir('caplab-gate-');
  expect((await gate(dir, 'base', ['--pins', 'pins.json', '--update-pins', '--name', 'gate'])).code).toBe(0);
  const whole = readFileSync(join(dir, 'pins.json'), 'utf8');
  const cases: [string, string][] = [
    ['truncated.json', whole.slice(0, whole.length >> 1)],
    ['edited.json', whole.replace(/"entry": "([0-9a-f])/, (_, c: string) => `"entry": "${c === '0' ? '1' : '0'}`)],
    ['format.json', whole.replace('caplab.pins/1', 'caplab.pins/2')],
    ['renamed.json', whole.replace('"name": "search"', '"name": "find"')],
  ];
  for (const [name, text] of cases) {
    writeFileSync(join(dir, name), text);
    for (const update of [[], ['--update-pins']]) {
      const run = await gate(dir, 'base', ['--pins', name, '--name', 'gate', ...update]);
      expect({ name, code: run.code, err: run.err.includes('invalid_arguments/malformed_pins') }).toEqual({ name, code: 2, err: true });
      expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    }
  }
  mkdirSync(join(dir, 'folder.json'));
  expect((await gate(dir, 'base', ['--pins', 'folder.json', '--name', 'gate'])).code).toBe(2);
  expect((await gate(dir, 'base', ['--pins', 'missing.json', '--name', 'gate'])).err).toContain('invalid_arguments/malformed_pins');
  // A command line needs --name; --update-pins needs --pins.
  expect((await gate(dir, 'base', ['--pins', 'pins.json'])).code).toBe(2);
  expect((await gate(dir, 'base', ['--update-pins'])).code).toBe(2);
}, 120_000);

test('--all over a clean, a drifted and a dying entry: three sections in order, the worst exit (3); --update-pins keeps the others\' entries byte for byte and writes none for the dead one', async () => {
  const dir = scratchDir('caplab-gate-');
  const entry = (mode: GateMode) => ({ command: gateCommand(mode)[0], args: gateCommand(mode).slice(1) });
  writeFileSync(join(dir, 'base.json'), JSON.stringify({ mcpServers: { clean: entry('base'), drifted: entry('base'), other: entry('renamed') } }));
  const pinned = testIo(dir, { PATH });
  expect(await cli(['probe', '--json', ...FAST, '--mcp-config', 'base.json', '--all', '--pins', 'pins.json', '--update-pins'], pinned)).toBe(0);
  // Another tool wrote "other" in its own layout: still valid, kept as it is.
  const compact = JSON.stringify(JSON.parse(readFileSync(join(dir, 'pins.json'), 'utf8')).servers.other);
  const before = readFileSync(join(dir, 'pins.json'), 'utf8').replace(/"other": \{[\s\S]*\n    \}\n  \}\n\}\n$/, `"other": ${compact}\n  }\n}\n`);
  expect(before).toContain(`"other": ${compact}`);
  writeFileSync(join(dir, 'pins.json'), before);
  writeFileSync(join(dir, 'all.json'), JSON.stringify({ mcpServers: { clean: entry('base'), drifted: entry('description'), dying: entry('die') } }));
  const io = testIo(dir, { PATH });
  const code = await cli(['probe', '--json', ...FAST, '--mcp-config', 'all.json', '--all', '--pins', 'pins.json'], io);
  const report = JSON.parse(io.out());
  expect([code, report.exit, report.servers.map((s: any) => [s.name, s.exit])]).toEqual([3, 3, [['clean', 0], ['drifted', 1], ['dying', 3]]]);
  expect(report.servers[1].findings.map((f: any) => f.kind)).toEqual(['tool_changed']);
  const updated = testIo(dir, { PATH });
  expect(await cli(['probe', ...FAST, '--mcp-config', 'all.json', '--all', '--pins', 'pins.json', '--update-pins'], updated)).toBe(3);
  const after = readFileSync(join(dir, 'pins.json'), 'utf8');
  expect(after).toContain(`"other": ${compact}`);
  expect(JSON.parse(after).servers.drifted.tools.search.wire.description).toBe('Searches the index!');
  expect(Object.keys(JSON.parse(after).servers)).toEqual(['clean', 'drifted', 'other']);
  expect(updated.out()).toContain('server dying\n');
  expect(updated.out()).toContain('not recorded: the session ended early');
  expect(updated.out()).toContain('all       3 of 3 server(s) probed; exit 3\n');
}, 120_000);


test('--sarif: SARIF 2.1.0 that sarif-multitool validates without an error, one rule per kind, fingerprints equal across runs; --junit: read by python3, counts match', async () => {
  const dir = scratchDir('caplab-gate-');
  const entry = (mode: GateMode) => ({ command: gateCommand(mode)[0], args: gateCommand(mode).slice(1) });
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { gate: entry('base') } }));
  expect((await gate(dir, 'base', ['--pins', 'pins.json', '--update-pins', '--name', 'gate'])).code).toBe(0);
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { gate: entry('description'), long: entry('long_description') } }));
  const runOnce = async (n: number) => {
    const io = testIo(dir, { PATH });
    const code = await cli(['probe', ...FAST, '--mcp-config', 'mcp.json', '--all', '--pins', 'pins.json', '--call', 'search', '--sarif', `out${n}.sarif`, '--junit', `out${n}.xml`], io);
    return { code, sarif: JSON.parse(readFileSync(join(dir, `out${n}.sarif`), 'utf8')) };
  };
  const [one, two] = [await runOnce(1), await runOnce(2)];
  expect(one.code).toBe(1);
  const run = one.sarif.runs[0];
  expect([one.sarif.version, run.tool.driver.rules.length]).toEqual(['2.1.0', Object.keys(PROBE_RULES).length]);
  expect(run.tool.driver.rules.find((r: any) => r.id === 'oversized_description')).toEqual({ id: 'oversized_description', shortDescription: { text: PROBE_RULES['oversized_description']!.help }, defaultConfiguration: { level: 'warning' }, properties: { class: 'protocol', basis: ['caplab host rule'] } });
  const summary = run.results.map((r: any) => [r.ruleId, r.level, r.locations[0].logicalLocations[0].fullyQualifiedName, r.locations[0].physicalLocation.artifactLocation.uri]);
  const uri = `file://${join(dir, 'mcp.json')}`;
  expect(summary).toEqual([
    ['tool_changed', 'error', 'gate/search', uri],
    ['oversized_description', 'warning', 'long/long', uri],
    ['server_unpinned', 'error', 'long', uri],
  ]);
  expect(two.sarif.runs[0].results.map((r: any) => r.partialFingerprints)).toEqual(run.results.map((r: any) => r.partialFingerprints));
  const validated = await validateSarif(join(dir, 'out1.sarif'), dir);
  expect(validated.errors).toEqual([]);
  // sarif-multitool 5.7.0's validate passes a log whose level is "fatal" without a word: the schema it ships is checked too.
  const schema = sarifSchema();
  expect([schema(one.sarif), schema.errors]).toEqual([true, null]);
  expect(schema({ ...one.sarif, runs: [{ ...run, results: [{ ...run.results[0], level: 'fatal' }] }] })).toBe(false);
  // JUnit: a suite per server; listing, session, the call, pins; failures where an error is.
  const junit = readJUnit(join(dir, 'out1.xml'));
  expect([junit.exitCode, junit.suites.map((s) => [s.name, s.cases.length, s.failed.join(',')]), junit.tests, junit.failures]).toEqual([0, [['gate', 4, 'pins'], ['long', 4, 'pins']], '8', '2']);
}, 180_000);
