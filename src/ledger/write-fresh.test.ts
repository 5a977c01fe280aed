import { afterAll, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunDirFs } from './fs.ts';
import { writeFresh } from './write-fresh.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-fresh-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
/** A run dir and a folder outside it that a planted symlink points at. */
function layout(): { root: string; outside: string } {
  const base = join(scratch, `t${n++}`);
  mkdirSync(join(base, 'run'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  return { root: join(base, 'run'), outside: join(base, 'outside') };
}
const bytes = new TextEncoder().encode('card\n');

test('a symlink planted at a folder under the run dir is refused: precondition/unsafe_path, nothing written through it', () => {
  const { root, outside } = layout();
  symlinkSync(outside, join(root, 'card'));
  const written = writeFresh(nodeFs, root, 'card/excerpt-card.md', bytes, 't');
  expect(!written.ok && [written.class, written.kind]).toEqual(['precondition', 'unsafe_path']);
  expect(readdirSync(outside)).toEqual([]);
});

test('a symlink deeper down is refused too, and so is a symlink as the run dir itself', () => {
  const { root, outside } = layout();
  mkdirSync(join(root, 'a'));
  symlinkSync(outside, join(root, 'a', 'b'));
  expect(writeFresh(nodeFs, root, 'a/b/c.txt', bytes, 't')).toMatchObject({ ok: false, kind: 'unsafe_path' });
  const linkedRoot = join(root, '..', 'linked-run');
  symlinkSync(outside, linkedRoot);
  expect(writeFresh(nodeFs, linkedRoot, 'x.txt', bytes, 't')).toMatchObject({ ok: false, kind: 'unsafe_path' });
  expect(readdirSync(outside)).toEqual([]);
});

test('a symlink at the target name itself is never followed: target_exists', () => {
  const { root, outside } = layout();
  mkdirSync(join(root, 'card'));
  symlinkSync(join(outside, 'x.md'), join(root, 'card', 'excerpt-card.md'));
  expect(writeFresh(nodeFs, root, 'card/excerpt-card.md', bytes, 't')).toMatchObject({ ok: false, kind: 'target_exists' });
  expect(readdirSync(outside)).toEqual([]);
});

test('a folder swapped for a symlink between the check and the write is caught afterwards and never reported as written', () => {
  const { root, outside } = layout();
  let swapped = false;
  const racing: RunDirFs = {
    ...nodeFs,
    // Swap card/ for a symlink just before the temp file is created: the window lstat-before cannot see.
    openSync: ((path: string, flags: string, mode?: number) => {
      if (!swapped && path.endsWith('.tmp')) {
        swapped = true;
        renameSync(join(root, 'card'), join(root, 'card-moved'));
        symlinkSync(outside, join(root, 'card'));
      }
      return nodeFs.openSync(path, flags, mode);
    }) as RunDirFs['openSync'],
  };
  const written = writeFresh(racing, root, 'card/excerpt-card.md', bytes, 't');
  expect(swapped).toBe(true);
  expect(!written.ok && [written.class, written.kind]).toEqual(['precondition', 'unsafe_path']);
});

test('an ordinary write still creates the folders and the file', () => {
  const { root } = layout();
  expect(writeFresh(nodeFs, root, 'a/b/c.txt', bytes, 't')).toMatchObject({ ok: true, value: { path: 'a/b/c.txt', bytes: 5 } });
  expect(readdirSync(join(root, 'a', 'b'))).toEqual(['c.txt']);
});
