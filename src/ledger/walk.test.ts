import { expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { defaultFs } from './fs.ts';
import { walkRunDir, type WalkStep } from './walk.ts';

const show = (step: WalkStep) => (step.kind === 'entry' ? `${step.path}:${step.stat.isDirectory() ? 'dir' : step.stat.isFile() ? 'file' : 'other'}:${step.pendingDirs}` : `${step.kind}:${step.path}`);

function tree(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'b/inner'), { recursive: true });
  mkdirSync(join(root, 'a'));
  writeFileSync(join(root, 'z.txt'), 'z');
  writeFileSync(join(root, 'a/1.txt'), '1');
  writeFileSync(join(root, 'b/inner/2.txt'), '2');
  symlinkSync('/etc/passwd', join(root, 'link'));
  return root;
}

test('names sorted per folder, a folder entered after its parent is listed, links not followed', () => {
  expect([...walkRunDir(defaultFs, tree())].map(show)).toEqual([
    'a:dir:0',
    'b:dir:1',
    'link:other:2',
    'z.txt:file:2',
    'b/inner:dir:1',
    'b/inner/2.txt:file:1',
    'a/1.txt:file:0',
  ]);
});

test('a skipped path is neither examined nor entered', () => {
  const steps = [...walkRunDir(defaultFs, tree(), (path) => path === 'b' || path === 'z.txt')].map(show);
  expect(steps).toEqual(['a:dir:0', 'link:other:1', 'a/1.txt:file:0']);
});

test('a root that cannot be listed is one step, not a throw', () => {
  expect([...walkRunDir(defaultFs, join(scratchDir(), 'absent'))].map(show)).toEqual(['unlistable:']);
});
