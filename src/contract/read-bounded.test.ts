import { afterAll, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBounded, readBoundedText, type BoundedReadFs } from './read-bounded.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-read-bounded-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const kindOf = (outcome: { ok: boolean; class?: string; kind?: string }) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);

test('a regular file within the limit is read whole; the limit itself passes', () => {
  const path = join(scratch, 'ten.txt');
  writeFileSync(path, '0123456789');
  const read = readBounded(path, 10);
  expect(read.ok && new TextDecoder().decode(read.value)).toBe('0123456789');
  expect(kindOf(readBounded(path, 9))).toBe('precondition/too_large');
});

test('a FIFO is refused by kind without opening it (a read would hang)', () => {
  const fifo = join(scratch, 'pipe');
  expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
  const read = readBounded(fifo, 1024);
  expect(kindOf(read)).toBe('precondition/not_regular_file');
  expect(read.ok ? '' : read.message).toContain('FIFO');
});

test('a directory, a device, a dangling symlink and a missing file are refused by kind', () => {
  const dir = join(scratch, 'dir');
  mkdirSync(dir);
  expect(kindOf(readBounded(dir, 1024))).toBe('precondition/not_regular_file');
  expect(kindOf(readBounded('/dev/zero', 1024))).toBe('precondition/not_regular_file');
  const dangling = join(scratch, 'dangling');
  symlinkSync(join(scratch, 'nowhere'), dangling);
  expect(kindOf(readBounded(dangling, 1024))).toBe('precondition/not_found');
  expect(kindOf(readBounded(join(scratch, 'missing'), 1024))).toBe('precondition/not_found');
  const loop = join(scratch, 'loop');
  symlinkSync(loop, loop);
  expect(kindOf(readBounded(loop, 1024))).toBe('precondition/unreadable');
});

test('a file that says it is small but keeps giving bytes costs at most limit + 1 bytes', () => {
  // What /proc files and a file growing under us look like: stat says 0, reads never end.
  let served = 0;
  const fs: BoundedReadFs = {
    ...nodeFs,
    statSync: (() => ({ isFile: () => true, size: 0 })) as unknown as BoundedReadFs['statSync'],
    openSync: () => 99,
    fstatSync: (() => ({ isFile: () => true, size: 0 })) as unknown as BoundedReadFs['fstatSync'],
    readSync: ((_fd: number, buffer: Uint8Array, offset: number, length: number) => {
      buffer.fill(0x61, offset, offset + length);
      served += length;
      return length;
    }) as BoundedReadFs['readSync'],
    closeSync: () => undefined,
  };
  expect(kindOf(readBounded('/fake', 1000, { fs }))).toBe('precondition/too_large');
  expect(served).toBe(1001);
});

test('a file swapped for something else after the stat is refused after the open', () => {
  const fs: BoundedReadFs = {
    ...nodeFs,
    statSync: (() => ({ isFile: () => true, size: 3 })) as unknown as BoundedReadFs['statSync'],
    openSync: () => 99,
    fstatSync: (() => ({ isFile: () => false, isDirectory: () => false, isFIFO: () => true })) as unknown as BoundedReadFs['fstatSync'],
    closeSync: () => undefined,
  };
  expect(kindOf(readBounded('/fake', 1000, { fs }))).toBe('precondition/not_regular_file');
});

test('readBoundedText refuses bytes that are not UTF-8', () => {
  const path = join(scratch, 'latin1.txt');
  writeFileSync(path, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
  expect(kindOf(readBoundedText(path, 100))).toBe('invalid_arguments/not_utf8');
});
