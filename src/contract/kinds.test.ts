import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXAMPLE_KINDS } from '../../fixtures/contracts/kinds.ts';
import { BINDING_KINDS } from '../binding/kinds.ts';
import { CLI_KINDS } from '../cli/kinds.ts';
import { EXCERPT_KINDS } from '../excerpt/kinds.ts';
import { EXPECTATIONS_KINDS } from '../expectations/kinds.ts';
import { HARNESS_KINDS } from '../harness/kinds.ts';
import { LEDGER_KINDS } from '../ledger/kinds.ts';
import { MCP_KINDS } from '../mcp/wire/kinds.ts';
import { PIPELINE_KINDS } from '../pipeline/kinds.ts';
import { SKILL_KINDS } from '../skill/kinds.ts';
import type { KindTable } from './failure.ts';
import { CONTRACT_KINDS } from './kinds.ts';

const root = join(import.meta.dir, '../..');

/** Where a folder's table is: its kinds.ts, or (mcp, in layers) the kinds.ts of the layer all the others build on. */
const tableOf = (folder: string): string => (folder === 'src/mcp' ? 'src/mcp/wire/kinds.ts' : `${folder}/kinds.ts`);

/** Each table and the folder whose sources raise its kinds. */
const TABLES: readonly (readonly [folder: string, table: KindTable])[] = [
  ['src/contract', CONTRACT_KINDS],
  ['src/binding', BINDING_KINDS],
  ['src/pipeline', PIPELINE_KINDS],
  ['src/mcp', MCP_KINDS],
  ['src/skill', SKILL_KINDS],
  ['src/ledger', LEDGER_KINDS],
  ['src/harness', HARNESS_KINDS],
  ['src/excerpt', EXCERPT_KINDS],
  ['src/expectations', EXPECTATIONS_KINDS],
  ['src/cli', CLI_KINDS],
  ['fixtures/contracts', EXAMPLE_KINDS],
];

test('a kind outside every table, a class its row does not give, or a refusal without its basis fails tsc', async () => {
  const fixture = join(root, 'test/types/failure-kinds.ts');
  const expected = readFileSync(fixture, 'utf8').split('@ts-expect-error').length - 1;
  expect(expected).toBeGreaterThanOrEqual(10);
  const run = Bun.spawn([join(root, 'node_modules/.bin/tsc'), '--noEmit', '--listFiles', '-p', join(root, 'test/types/tsconfig.json')], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  const output = `${out}${err}`;
  // Every directive met its error (an unused one is TS2578), and the fixture and every table were in the program.
  expect(output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
  expect(code).toBe(0);
  const files = new Set(output.split('\n').map((line) => relative(root, line.trim())));
  expect(files.has('test/types/failure-kinds.ts')).toBe(true);
  for (const [folder] of TABLES) expect({ folder, table: files.has(tableOf(folder)) }).toEqual({ folder, table: true });
}, 120_000); // one tsc over a small program, seconds

/** The folder's own sources (test kits included, tests and the table itself not). */
function sourcesOf(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') && e.name !== 'kinds.ts')
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
}

/** Kinds a text raises by name: `fail(class, 'kind'`, `refuse(…)`, `failAt('kind'`, `usageFailure('kind'`, `{ class: …, kind: 'kind'`. */
function namedKinds(text: string): string[] {
  const patterns = [
    /\b(?:fail|refuse|refusal)\(\s*'[a-z_]+',\s*'([a-z_]+)'/g,
    /\b(?:failAt|usageFailure|invalid|kindMessage)\(\s*'([a-z_]+)'/g,
    /\bclass: '[a-z_]+', kind: '([a-z_]+)'/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

test("each layer's table lists every kind its sources raise by name, and each of its rows is named in them", () => {
  const problems: string[] = [];
  for (const [folder, table] of TABLES) {
    const sources = sourcesOf(folder);
    for (const kind of new Set(sources.flatMap(namedKinds))) if (!Object.hasOwn(table, kind)) problems.push(`${folder} raises ${kind}, not in its table`);
    for (const kind of Object.keys(table)) if (!sources.some((text) => text.includes(`'${kind}'`))) problems.push(`${tableOf(folder)} lists ${kind}, which its sources never name`);
  }
  expect(problems).toEqual([]);
  // The gate sees what it checks: a raise by name is found, a made-up one would be reported.
  expect(namedKinds("fail('precondition', 'binding_changed', m); failAt('count_mismatch', m)")).toEqual(['binding_changed', 'count_mismatch']);
});

test('a row names a basis exactly where a peer is refused: the strict client\'s refusals, and nothing outside mcp', () => {
  const refusals = TABLES.flatMap(([folder, table]) => Object.entries(table).filter(([, row]) => row.basis !== null).map(([kind]) => `${folder}:${kind}`));
  expect(refusals.every((name) => name.startsWith('src/mcp:'))).toBe(true);
  expect(refusals.length).toBe(31);
});
