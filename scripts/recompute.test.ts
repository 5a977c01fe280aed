/**
 * scripts/recompute.mjs, run by Node as a reviewer runs it, on the run dirs
 * of demo (both transports) and of every check scenario (test/golden's runs):
 * every hash recomputes; one edited recorded byte gives exactly that field.
 */
import { beforeAll, expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenRuns } from '../test/golden/run-dirs.ts';
import { rechain } from '../src/ledger/test-kit.ts';
import { scratchDir } from '../test/scratch.ts';

const root = join(import.meta.dir, '..');
const cwd = scratchDir('caplab-recompute-');
const DEMOS = ['caplab-runs/golden-demo-local', 'caplab-runs/golden-demo-mcp'].map((d) => join(cwd, d));

beforeAll(async () => {
  const runs = await goldenRuns(cwd);
  expect(Object.values(runs).map((r) => r.exit)).toEqual([0, 0, 0]);
}, 120_000);

interface Result {
  runs: number;
  checked: Record<string, number>;
  skipped: Record<string, number>;
  mismatches: { run: string; field: string; where: string }[];
}

function recompute(...paths: string[]): { code: number; result: Result } {
  const node = Bun.spawnSync(['node', join(root, 'scripts/recompute.mjs'), '--json', '--skills', join(root, 'skills'), ...paths], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
  if (node.stderr.length > 0) throw new Error(node.stderr.toString());
  return { code: node.exitCode, result: JSON.parse(node.stdout.toString()) };
}

test('every hash of the demo run dirs (local, mcp) and of every check scenario recomputes with node and canonicalize: zero mismatches', () => {
  const { code, result } = recompute(...DEMOS, join(cwd, 'check'));
  expect(result.mismatches).toEqual([]);
  expect(code).toBe(0);
  expect(result.runs).toBeGreaterThan(40);
  // Each field is really recomputed somewhere, not only skipped.
  const fields = ['ledger.prev', 'ledger.head', 'files[].sha256', 'request.payload.sha256', 'run_start.snapshot.sources[].sha256', 'run_start.snapshot.id', 'run_start.bindings[].contract.schemaHash', 'run_start.bindings[].id', 'request.tools[]', 'call.binding_id', 'call.model_content_sha256', 'call.outcome.data_sha256', 'call.outcome.object_version', 'acceptance.card.sha256 and receipt', 'request.method.instructions_sha256', 'request.method.resources_present[].sha256', 'method.hash (package, outside the run dir)'];
  expect(fields.filter((f) => !(result.checked[f]! > 0))).toEqual([]);
  expect(Object.keys(result.checked).sort()).toEqual([...fields].sort());
});

/** A copy of the MCP demo's run dir to edit. */
function copy(): string {
  const dir = join(scratchDir('caplab-recompute-edit-'), 'run');
  cpSync(DEMOS[1]!, dir, { recursive: true });
  return dir;
}
const fieldsOf = (result: Result) => [...new Set(result.mismatches.map((m) => m.field))];

test('one edited byte of a recorded file gives exactly files[].sha256 of that file', () => {
  const dir = copy();
  const path = join(dir, 'requests/01-response.json');
  const bytes = readFileSync(path);
  bytes[10] = bytes[10] === 0x61 ? 0x62 : 0x61;
  writeFileSync(path, bytes);
  const { code, result } = recompute(dir);
  expect([code, result.mismatches.map((m) => [m.field, m.where])]).toEqual([1, [['files[].sha256', expect.stringContaining('requests/01-response.json')]]]);
});

test('one edited byte of the seal gives exactly ledger.head; of a ledger line, exactly the next line\'s prev', () => {
  const sealed = copy();
  const seal = readFileSync(join(sealed, 'ledger.head'), 'utf8');
  const at = seal.indexOf('"head":"') + 8;
  writeFileSync(join(sealed, 'ledger.head'), `${seal.slice(0, at)}${seal[at] === '0' ? '1' : '0'}${seal.slice(at + 1)}`);
  expect(recompute(sealed).result.mismatches.map((m) => m.where)).toEqual(['ledger.head head']);
  const chained = copy();
  const lines = readFileSync(join(chained, 'ledger.jsonl'), 'utf8').split('\n');
  lines[2] = lines[2]!.replace('"at":"2023', '"at":"2024');
  writeFileSync(join(chained, 'ledger.jsonl'), lines.join('\n'));
  expect(recompute(chained).result.mismatches.map((m) => [m.field, m.where])).toEqual([['ledger.prev', 'line 4']]);
});

test('a hash field edited in a re-chained record gives exactly that field', () => {
  const edits: [string, (e: any) => void][] = [
    ['call.outcome.data_sha256', (e) => e.type === 'call' && e.action_id === 'act-01' && (e.outcome.data_sha256 = '0'.repeat(64))],
    ['call.model_content_sha256', (e) => e.type === 'call' && e.action_id === 'act-02' && (e.model_content_sha256 = '1'.repeat(64))],
    ['run_start.bindings[].id', (e) => e.type === 'run_start' && (e.bindings[0].id = '2'.repeat(64))],
    ['run_start.bindings[].contract.schemaHash', (e) => e.type === 'run_start' && (e.bindings[1].contract.resultSchemaHash = '3'.repeat(64))],
    ['request.method.instructions_sha256', (e) => e.type === 'request' && e.index === 1 && (e.method.instructions_sha256 = '4'.repeat(64))],
    ['run_start.snapshot.id', (e) => e.type === 'run_start' && (e.snapshot.id = 'snap-0000000000000000')],
  ];
  const rows = edits.map(([field, edit]) => {
    const dir = copy();
    rechain(dir, (events) => events.map((e) => (edit(e), e)));
    return [field, fieldsOf(recompute(dir).result)];
  });
  // A schema hash is inside the binding its id hashes: that binding then no longer hashes to its id either,
  // wherever the id is named (each request's tools, each call of that tool).
  const inBinding = ['run_start.bindings[].id', 'request.tools[]', 'call.binding_id'];
  expect(rows).toEqual(edits.map(([field]) => [field, field === 'run_start.bindings[].contract.schemaHash' ? [field, ...inBinding] : [field]]));
});

test('usage: no run dir, or one that does not exist, is exit 2 with a line on stderr', () => {
  for (const args of [[], ['/nonexistent-run-dir']]) {
    const node = Bun.spawnSync(['node', join(root, 'scripts/recompute.mjs'), ...args], { stdout: 'pipe', stderr: 'pipe' });
    expect([node.exitCode, node.stdout.toString(), node.stderr.toString()]).toEqual([2, '', expect.stringMatching(/^(usage|recompute): /)]);
  }
});
