import { afterAll, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunDirFs } from './fs.ts';
import { readRecorded } from './read-recorded.ts';

const dir = mkdtempSync(join(tmpdir(), 'caplab-read-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const kindOf = (path: string, limit = 100, fs: RunDirFs = nodeFs) => {
  const read = readRecorded(fs, path, 'f', limit);
  return read.ok ? new TextDecoder().decode(read.value) : `${read.class}/${read.kind}`;
};

test('a regular file within the limit is read whole', () => {
  writeFileSync(join(dir, 'ok'), 'hello');
  writeFileSync(join(dir, 'empty'), '');
  expect([kindOf(join(dir, 'ok')), kindOf(join(dir, 'empty'))]).toEqual(['hello', '']);
  writeFileSync(join(dir, 'exact'), 'x'.repeat(100));
  expect(kindOf(join(dir, 'exact'))).toHaveLength(100);
});

test('a folder, a FIFO or a dangling symlink in a file\'s place is refused by kind, without blocking', () => {
  mkdirSync(join(dir, 'folder'));
  expect(Bun.spawnSync(['mkfifo', join(dir, 'fifo')]).exitCode).toBe(0);
  symlinkSync('/nonexistent/target', join(dir, 'dangling'));
  expect([kindOf(join(dir, 'folder')), kindOf(join(dir, 'fifo')), kindOf(join(dir, 'dangling'))]).toEqual([
    'evidence/not_a_file',
    'evidence/not_a_file',
    'evidence/not_a_file',
  ]);
  expect(kindOf(join(dir, 'absent'))).toBe('evidence/missing_file');
});

test('a file over the limit is refused from its size; one that grows while read is refused at limit + 1 bytes', () => {
  writeFileSync(join(dir, 'big'), 'x'.repeat(101));
  expect(kindOf(join(dir, 'big'))).toBe('evidence/too_large');
  const big = readRecorded(nodeFs, join(dir, 'big'), 'big', 100);
  expect(!big.ok && big.message).toBe('big: more than 100 bytes (limit 100)');
  writeFileSync(join(dir, 'grows'), 'x'.repeat(10));
  let served = 0;
  const growing: RunDirFs = {
    ...nodeFs,
    readSync: ((_fd: number, buffer: Uint8Array, offset: number, length: number) => {
      const n = Math.min(length, 7);
      buffer.fill(0x78, offset, offset + n);
      served += n;
      return n;
    }) as typeof nodeFs.readSync,
  };
  expect(kindOf(join(dir, 'grows'), 100, growing)).toBe('evidence/too_large');
  expect(served).toBe(101);
});

test('a file swapped for a FIFO after the lstat, or a read error, is a named failure, not a throw', () => {
  writeFileSync(join(dir, 'swapped'), 'data');
  const swapped: RunDirFs = { ...nodeFs, fstatSync: ((fd: number) => ({ ...nodeFs.fstatSync(fd), isFile: () => false, isFIFO: () => true, isDirectory: () => false, isSymbolicLink: () => false, isSocket: () => false })) as typeof nodeFs.fstatSync };
  expect(kindOf(join(dir, 'swapped'), 100, swapped)).toBe('evidence/not_a_file');
  const failing: RunDirFs = { ...nodeFs, readSync: (() => { throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }); }) as typeof nodeFs.readSync };
  expect(kindOf(join(dir, 'swapped'), 100, failing)).toBe('evidence/unreadable');
});

