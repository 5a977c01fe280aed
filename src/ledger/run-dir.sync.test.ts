/**
 * When the run dir reaches the disk: every fsync(2) counted through an
 * injected fs, by the path it was made on. No timing: which calls, in which
 * order, is the claim.
 */
import { describe, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fixedClock } from './clock.ts';
import type { RunDirFs } from './fs.ts';
import { readLedger } from './read-ledger.ts';
import { openRunDir, type RunDir } from './run-dir.ts';
import { failedEnd, must, sampleRequest, sampleStart, tempDir } from './testing/sample-run.ts';
import { verify } from './verify.ts';

/** An fs that records every fsync by path (relative to the run dir, `.` for the dir itself); `ahead` the concurrent ones. */
function countingFs(failSyncOf?: string, failAheadOf?: string) {
  const pathOf = new Map<number, string>();
  const synced: string[] = [];
  const ahead: string[] = [];
  let root = '';
  const name = (fd: number) => relative(root, pathOf.get(fd) ?? '?').replace(/\.w\d+\.tmp$|\.seal\.tmp$/, '.tmp') || '.';
  const fs: RunDirFs = {
    ...nodeFs,
    openSync: ((path: string, flags: string, mode?: number) => {
      const fd = nodeFs.openSync(path, flags, mode);
      pathOf.set(fd, path);
      return fd;
    }) as RunDirFs['openSync'],
    fsyncSync: (fd: number) => {
      if (failSyncOf !== undefined && name(fd) === failSyncOf) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      synced.push(name(fd));
      nodeFs.fsyncSync(fd);
    },
    fsync: ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      if (failAheadOf !== undefined && name(fd) === failAheadOf) return void setTimeout(() => callback(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })), 1);
      ahead.push(name(fd));
      nodeFs.fsync(fd, callback);
    }) as RunDirFs['fsync'],
  };
  return { fs, synced, ahead, setRoot: (dir: string) => void (root = dir) };
}

function open(durable: boolean | undefined, counting: ReturnType<typeof countingFs>): RunDir {
  const dir = join(tempDir(), 'run');
  counting.setRoot(dir);
  return must(openRunDir(dir, { clock: fixedClock(0), fs: counting.fs, ...(durable === undefined ? {} : { durable }) }));
}

/** A small run: two files in two folders, three events. */
function record(run: RunDir): void {
  const source = must(run.writeFile('snapshot/a.md', 'a'));
  must(run.append('run_start', sampleStart([{ role: 'snapshot_source', ...source }])));
  const payload = must(run.writeFile('requests/1.json', '{}'));
  must(run.append('request', sampleRequest(payload)));
  must(run.append('run_end', failedEnd()));
}

describe('default: no fsync while the run goes on, one sync of the whole dir before the seal', () => {
  test('nothing is synced by writes and appends; close syncs files, folders (deepest first), the ledger, then writes the seal durably', () => {
    const counting = countingFs();
    const run = open(undefined, counting);
    record(run);
    expect(counting.synced).toEqual([]);
    must(run.close());
    expect(counting.synced).toEqual(['snapshot/a.md', 'requests/1.json', 'requests', 'snapshot', '.', 'ledger.jsonl', '.ledger.head.tmp', '.']);
    expect(verify(run.dir).ok).toBe(true);
  });

  test('a sync that fails at close leaves the dir unsealed and says so; verify refuses it', () => {
    const counting = countingFs('requests/1.json');
    const run = open(false, counting);
    record(run);
    const closed = run.close();
    expect(!closed.ok && [closed.class, closed.kind]).toEqual(['business', 'write_failed']);
    expect(!closed.ok && closed.message).toContain('left unsealed');
    expect(existsSync(join(run.dir, 'ledger.head'))).toBe(false);
    expect(verify(run.dir)).toMatchObject({ ok: false, kind: 'unsealed' });
  });
});

describe('sync(): the same syncs ahead of close, all in flight at once', () => {
  test('sync() takes the files and folders so far; close then syncs only the ledger and the seal', async () => {
    const counting = countingFs();
    const run = open(undefined, counting);
    record(run);
    await run.sync();
    expect(counting.ahead.sort()).toEqual(['.', 'requests', 'requests/1.json', 'snapshot', 'snapshot/a.md']);
    expect(counting.synced).toEqual([]);
    must(run.close());
    expect(counting.synced).toEqual(['ledger.jsonl', '.ledger.head.tmp', '.']);
    expect(verify(run.dir).ok).toBe(true);
  });

  test('a file written after sync() is synced by close, with its folders; a sync() that failed leaves everything to close', async () => {
    const counting = countingFs(undefined, 'requests');
    const run = open(false, counting);
    record(run);
    await run.sync();
    must(run.writeFile('outputs/x.txt', 'x'));
    must(run.append('acceptance', { accepted: false, checks: [], files: [must(run.fileRef('outputs/x.txt', 'output'))] }));
    must(run.close());
    expect(counting.synced).toEqual(['snapshot/a.md', 'requests/1.json', 'outputs/x.txt', 'outputs', 'requests', 'snapshot', '.', 'ledger.jsonl', '.ledger.head.tmp', '.']);
  });

  test('durable: sync() has nothing to do', async () => {
    const counting = countingFs();
    const run = open(true, counting);
    record(run);
    await run.sync();
    expect(counting.ahead).toEqual([]);
    run.close();
  });
});

describe('durable: every event and file synced as it is written', () => {
  test('each append syncs the ledger once; each file syncs itself (as its temp) and its folder; close adds only the seal', () => {
    const counting = countingFs();
    const run = open(true, counting);
    expect(counting.synced).toEqual(['.']);
    must(run.writeFile('snapshot/a.md', 'a'));
    expect(counting.synced.slice(1)).toEqual(['snapshot/.a.md.tmp', 'snapshot']);
    counting.synced.length = 0;
    must(run.append('run_start', sampleStart()));
    must(run.append('run_end', failedEnd()));
    expect(counting.synced).toEqual(['ledger.jsonl', 'ledger.jsonl']);
    counting.synced.length = 0;
    must(run.close());
    expect(counting.synced).toEqual(['.ledger.head.tmp', '.']);
  });
});

describe('a crash mid-line, in either mode', () => {
  for (const durable of [false, true]) {
    test(`durable=${durable}: the cut line is never accepted — no seal, and the ledger reads only up to the last whole line`, () => {
      let cut = false;
      const counting = countingFs();
      const fs: RunDirFs = {
        ...counting.fs,
        writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
          if (!cut) return nodeFs.writeSync(fd, buffer, offset, length);
          // The process dies here: half the line reached the file.
          nodeFs.writeSync(fd, buffer, offset, Math.floor(length / 2));
          throw Object.assign(new Error('killed'), { code: 'EINTR' });
        }) as RunDirFs['writeSync'],
      };
      const dir = join(tempDir(), 'run');
      counting.setRoot(dir);
      const run = must(openRunDir(dir, { clock: fixedClock(0), fs, durable }));
      must(run.append('run_start', sampleStart()));
      cut = true;
      expect(run.append('run_end', failedEnd()).ok).toBe(false);
      // No close: a dead process writes no seal.
      expect(verify(dir)).toMatchObject({ ok: false, kind: 'unsealed' });
      const read = readLedger(new Uint8Array(readFileSync(join(dir, 'ledger.jsonl'))));
      expect(read).toMatchObject({ ok: false, kind: 'not_canonical', at: { line: 2 } });
      run.closeUnsealed('test over');
    });
  }
});
