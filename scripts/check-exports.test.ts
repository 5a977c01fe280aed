import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../test/scratch.ts';
import { exportsProblems, importGraph, isKit, kitProblems, surfaceProblems } from './check-exports.ts';

const root = join(import.meta.dir, '..');
const onDisk = (rel: string) => existsSync(join(root, rel));

test("package.json's exports pass the check: the root entry, folder surfaces, no test kit reached", async () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  expect(exportsProblems(pkg, onDisk)).toEqual([]);
  expect(pkg.exports['.']).toBe('./src/index.ts');
  expect(await surfaceProblems(root)).toEqual([]);
});

/** A sound exports map with one more entry. */
const withEntry = (extra: Record<string, unknown>) => ({ exports: { '.': './src/index.ts', ...extra } });

test.each([
  ['no exports', {}, 'package.json has no `exports` object'],
  ['exports a string', { exports: './src/contract/index.ts' }, 'package.json has no `exports` object'],
  ['empty exports', { exports: {} }, 'package.json `exports` is empty'],
  ['no root entry', { exports: { './contract': './src/contract/index.ts' } }, 'no root entry "." (→ ./src/index.ts)'],
  ['a root entry elsewhere', { exports: { '.': './src/main.ts' } }, '.: points to "./src/main.ts", not the root entry ./src/index.ts'],
  ['a file, not a folder surface', withEntry({ './contract': './src/contract/failure.ts' }), './contract: points to "./src/contract/failure.ts", not its folder\'s surface ./src/contract/index.ts'],
  ['another folder', withEntry({ './contract': './src/binding/index.ts' }), './contract: points to "./src/binding/index.ts", not its folder\'s surface ./src/contract/index.ts'],
  ['conditions object', withEntry({ './contract': { import: './src/contract/index.ts' } }), './contract: points to {"import":"./src/contract/index.ts"}, not its folder\'s surface ./src/contract/index.ts'],
  ['a folder that does not exist', withEntry({ './nothing': './src/nothing/index.ts' }), './nothing: ./src/nothing/index.ts does not exist'],
  ['a nested key', withEntry({ './pipeline/hooks': './src/pipeline/hooks/index.ts' }), './pipeline/hooks: an entry is ./FOLDER (one folder of src) or the root "."'],
])('%s is a problem', (_label, pkg, problem) => {
  expect(exportsProblems(pkg, onDisk)).toEqual([problem]);
});

test('the script exits 1 only on a problem', () => {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, 'check-exports.ts')], { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  expect({ code: run.exitCode, err: run.stderr.toString() }).toEqual({ code: 0, err: '' });
});

test.each([
  ['src/mcp/testing/fake-child.ts', true],
  ['src/excerpt/testing/drive-serve.ts', true],
  ['src/ledger/test-kit.ts', true],
  ['src/cli/verify-test-kit.ts', true],
  ['src/harness/task.test.ts', true],
  ['test/scratch.ts', true],
  ['bun:test', true],
  ['src/harness/testing.ts', false],
  ['src/contract/index.ts', false],
  ['src/cli/kit.ts', false],
  ['node:fs', false],
])('%s is a kit: %p', (module, kit) => {
  expect(isKit(module)).toBe(kit);
});

test('an entry that reaches a kit, however deep or lazily, is named with the chain that reaches it; each entry once', () => {
  const graph = new Map([
    ['src/a/index.ts', ['src/a/one.ts', 'node:fs']],
    ['src/a/one.ts', ['src/a/two.ts']],
    ['src/a/two.ts', ['src/a/testing/kit.ts', 'bun:test']],
    ['src/b/index.ts', ['src/b/x.ts', 'src/a/one.ts']],
    ['src/b/x.ts', ['src/b/x.ts']],
    ['src/c/index.ts', ['node:path']],
  ]);
  const entries = ['a', 'b', 'c'].map((name) => ({ key: `./${name}`, module: `src/${name}/index.ts` }));
  expect(kitProblems(entries, graph)).toEqual([
    './a: reaches the test kit src/a/testing/kit.ts (src/a/index.ts → src/a/one.ts → src/a/two.ts → src/a/testing/kit.ts); a kit stays out of every exported surface',
    './b: reaches the test kit src/a/testing/kit.ts (src/b/index.ts → src/a/one.ts → src/a/two.ts → src/a/testing/kit.ts); a kit stays out of every exported surface',
  ]);
});

test('the graph is what the bundler loads: a re-export and a dynamic import of a kit are both seen; a type-only import is erased', async () => {
  const dir = scratchDir('caplab-exports-');
  const write = (rel: string, text: string) => (mkdirSync(join(dir, rel, '..'), { recursive: true }), writeFileSync(join(dir, rel), text));
  write('src/a/index.ts', "export { kit } from './testing/kit.ts';\n");
  write('src/a/testing/kit.ts', 'export const kit = 1;\n');
  write('src/b/index.ts', "export const lazy = () => import('./b-kit.ts');\n");
  write('src/b/b-kit.ts', 'export const b = 2;\n');
  write('src/c/index.ts', "import type { T } from './testing/types.ts';\nexport const c: T = 3;\n");
  write('src/c/testing/types.ts', 'export type T = number;\n');
  const entries = ['a', 'b', 'c'].map((name) => ({ key: `./${name}`, module: `src/${name}/index.ts` }));
  const problems = kitProblems(entries, await importGraph(dir, entries.map((e) => e.module)));
  expect(problems.map((p) => p.split(':')[0])).toEqual(['./a', './b']);
});
