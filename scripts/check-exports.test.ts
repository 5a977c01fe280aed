import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportsProblems } from './check-exports.ts';

const root = join(import.meta.dir, '..');
const onDisk = (rel: string) => existsSync(join(root, rel));

test("package.json's exports pass the check", () => {
  expect(exportsProblems(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), onDisk)).toEqual([]);
});

test.each([
  ['no exports', {}, 'package.json has no `exports` object'],
  ['exports a string', { exports: './src/contract/index.ts' }, 'package.json has no `exports` object'],
  ['empty exports', { exports: {} }, 'package.json `exports` is empty'],
  ['a file, not a folder surface', { exports: { './contract': './src/contract/failure.ts' } }, './contract: points to "./src/contract/failure.ts", not its folder\'s surface ./src/contract/index.ts'],
  ['another folder', { exports: { './contract': './src/binding/index.ts' } }, './contract: points to "./src/binding/index.ts", not its folder\'s surface ./src/contract/index.ts'],
  ['conditions object', { exports: { './contract': { import: './src/contract/index.ts' } } }, './contract: points to {"import":"./src/contract/index.ts"}, not its folder\'s surface ./src/contract/index.ts'],
  ['a folder that does not exist', { exports: { './nothing': './src/nothing/index.ts' } }, './nothing: ./src/nothing/index.ts does not exist'],
  ['a nested key', { exports: { './pipeline/hooks': './src/pipeline/hooks/index.ts' } }, './pipeline/hooks: an entry is ./FOLDER (one folder of src)'],
  ['the root key', { exports: { '.': './src/main.ts' } }, '.: an entry is ./FOLDER (one folder of src)'],
])('%s is a problem', (_label, pkg, problem) => {
  expect(exportsProblems(pkg, onDisk)).toEqual([problem]);
});

test('the script exits 1 only on a problem', () => {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, 'check-exports.ts')], { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  expect({ code: run.exitCode, err: run.stderr.toString() }).toEqual({ code: 0, err: '' });
});
