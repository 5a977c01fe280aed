import { describe, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { fixedClock } from './clock.ts';
import { GENESIS, LEDGER_FORMAT } from './format.ts';
import type { RunDirFs } from './fs.ts';
import { openRunDir, type RunDir } from './run-dir.ts';
import { must, tempDir, writeSampleRun } from './testing/sample-run.ts';

const clock = fixedClock(1_700_000_000_000);

function fresh(fs?: RunDirFs): RunDir {
  return must(openRunDir(join(tempDir(), 'run'), fs ? { clock, fs } : { clock }));
}

/** Every file under `dir` (recursive, sorted, `/`-relative). */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as nodeFs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('openRunDir', () => {
  test('creates a missing dir, and takes an existing empty one', () => {
    expect(fresh().head()).toBe(GENESIS);
    const empty = tempDir();
    const run = must(openRunDir(empty, { clock }));
    expect(filesUnder(empty)).toEqual(['ledger.jsonl']);
    run.close();
  });

  test('refuses a non-empty dir or a file, and never touches what is there', () => {
    const previous = writeSampleRun(join(tempDir(), 'run'));
    const before = readFileSync(join(previous.dir, 'ledger.jsonl'));
    const file = join(tempDir(), 'file');
    writeFileSync(file, 'x');
    for (const target of [previous.dir, file]) {
      const opened = openRunDir(target, { clock });
      expect(opened.ok).toBe(false);
      if (!opened.ok) expect([opened.class, opened.kind]).toEqual(['precondition', 'target_exists']);
    }
    expect(readFileSync(join(previous.dir, 'ledger.jsonl'))).toEqual(before);
  });

  test.each([['EROFS', 'mkdirSync'], ['EACCES', 'mkdirSync'], ['EACCES', 'openSync'], ['EPERM', 'openSync'], ['ENAMETOOLONG', 'lstatSync']] as const)(
    'a path that cannot hold a run dir (%s from %s) is invalid_arguments/bad_path naming the errno, not write_failed',
    (code, call) => {
      const failing: RunDirFs = { ...nodeFs, [call]: () => { throw Object.assign(new Error(`${code}: refused`), { code }); } };
      const opened = openRunDir(join(tempDir(), 'run'), { clock, fs: failing });
      expect(opened.ok ? 'ok' : `${opened.class}/${opened.kind}`).toBe('invalid_arguments/bad_path');
      expect(opened.ok ? '' : opened.message).toContain(`cannot be a run dir: ${code}`);
    },
  );

  test('a failure that is not the path (ENOSPC) stays business/write_failed', () => {
    const failing: RunDirFs = { ...nodeFs, openSync: () => { throw Object.assign(new Error('ENOSPC: full'), { code: 'ENOSPC' }); } };
    const opened = openRunDir(join(tempDir(), 'run'), { clock, fs: failing });
    expect(opened.ok ? 'ok' : `${opened.class}/${opened.kind}`).toBe('business/write_failed');
  });
});

describe('append', () => {
  test('writes canonical lines chained by the sha256 of the previous line', () => {
    const run = fresh();
    const first = must(run.append('run_start', { z: 1, a: { y: 'ü', b: [2, 1] } }));
    const second = must(run.append('run_end', {}));
    expect(run.head()).toBe(second);
    expect(run.count()).toBe(2);
    must(run.close());
    const text = readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8');
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]).toBe('{"a":{"b":[2,1],"y":"ü"},"at":"2023-11-14T22:13:20.000Z","prev":"' + GENESIS + '","seq":0,"type":"run_start","z":1}');
    expect(sha256Hex(lines[0]!)).toBe(first);
    expect(JSON.parse(lines[1]!)).toEqual({ seq: 1, type: 'run_end', at: '2023-11-14T22:13:20.000Z', prev: first });
    expect(readFileSync(join(run.dir, 'ledger.head'), 'utf8')).toBe(`${canonicalJson({ count: 2, format: LEDGER_FORMAT, head: second })}\n`);
  });

  test('each line is in the file as soon as append returns', () => {
    const run = fresh();
    must(run.append('run_start', {}));
    expect(readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8').split('\n')).toHaveLength(2);
    run.close();
  });

  test('refuses programmer errors loudly: envelope keys, bad types, malformed refs, after close', () => {
    const run = fresh();
    expect(() => run.append('request', { seq: 9 })).toThrow(/envelope key seq/);
    expect(() => run.append('Bad Type', {})).toThrow(/event type/);
    expect(() => run.append('request', { files: [{ path: 'a.txt', sha256: 'x' }] })).toThrow(/exactly the keys/);
    expect(() => run.append('request', { n: Number.NaN })).toThrow(/non-finite/);
    expect(run.count()).toBe(0);
    run.close();
    expect(() => run.append('run_end', {})).toThrow(/after close/);
    expect(() => run.writeFile('a.txt', 'x')).toThrow(/after close/);
  });

  test('refuses to vouch for a file that is missing or differs from the reference', () => {
    const run = fresh();
    const written = must(run.writeFile('a.txt', 'abc'));
    const wrong = run.append('x', { files: [{ role: 'doc', ...written, sha256: sha256Hex('abd') }] });
    expect(!wrong.ok && wrong.kind).toBe('hash_mismatch');
    const missing = run.append('x', { files: [{ role: 'doc', ...written, path: 'b.txt' }] });
    expect(!missing.ok && missing.kind).toBe('missing_file');
    writeFileSync(join(run.dir, 'c.txt'), 'outside the writer');
    const ref = must(run.fileRef('c.txt', 'card'));
    expect(ref).toEqual({ role: 'card', path: 'c.txt', sha256: sha256Hex('outside the writer'), bytes: 18 });
    expect(run.append('x', { files: [ref] }).ok).toBe(true);
    expect(run.count()).toBe(1);
    run.close();
  });
});

describe('writeFile', () => {
  test('writes once and returns path, sha256 and size', () => {
    const run = fresh();
    const bytes = new TextEncoder().encode('漢字\n');
    expect(must(run.writeFile('requests/1.json', bytes))).toEqual({ path: 'requests/1.json', sha256: sha256Hex(bytes), bytes: 7 });
    expect(new Uint8Array(readFileSync(join(run.dir, 'requests', '1.json')))).toEqual(bytes);
    const again = run.writeFile('requests/1.json', 'other');
    expect(!again.ok && [again.class, again.kind]).toEqual(['precondition', 'target_exists']);
    expect(readFileSync(join(run.dir, 'requests', '1.json'), 'utf8')).toBe('漢字\n');
    run.close();
  });

  test('refuses paths that escape the dir, hide, or take the ledger names', () => {
    const run = fresh();
    const outside = join(run.dir, '..');
    const before = readdirSync(outside).sort();
    for (const path of ['../x', '/etc/x', 'a/../../x', 'a//b', './a', '.tmp', 'a\\b', '', 'a/', 'ledger.jsonl', 'ledger.head', 'é.txt']) {
      const written = run.writeFile(path, 'x');
      expect(written.ok).toBe(false);
      if (!written.ok) expect(['bad_path', 'reserved_path']).toContain(written.kind);
    }
    expect(readdirSync(outside).sort()).toEqual(before);
    expect(filesUnder(run.dir)).toEqual(['ledger.jsonl']);
    run.close();
  });

  test('a write that fails halfway leaves neither the file nor a temp', () => {
    let armed = false;
    const faulty: RunDirFs = {
      ...nodeFs,
      writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
        if (!armed) return nodeFs.writeSync(fd, buffer, offset, length);
        armed = false;
        nodeFs.writeSync(fd, buffer, offset, Math.floor(length / 2));
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }) as RunDirFs['writeSync'],
    };
    const run = fresh(faulty);
    armed = true;
    const written = run.writeFile('requests/1.json', 'a payload that will not fit');
    expect(!written.ok && [written.class, written.kind]).toEqual(['business', 'write_failed']);
    expect(filesUnder(run.dir)).toEqual(['ledger.jsonl']);
    // The writer is still usable: the failed file simply does not exist.
    expect(must(run.writeFile('requests/1.json', 'fits')).bytes).toBe(4);
    run.close();
  });

  test('a failed link leaves no temp behind', () => {
    const faulty: RunDirFs = {
      ...nodeFs,
      linkSync: () => {
        throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      },
    };
    const run = fresh(faulty);
    const written = run.writeFile('a.txt', 'x');
    expect(!written.ok && written.kind).toBe('write_failed');
    expect(filesUnder(run.dir)).toEqual(['ledger.jsonl']);
    run.close();
  });
});

describe('a failed ledger write', () => {
  test('stops the ledger: later appends and close report it, and no seal is written', () => {
    let armed = false;
    const faulty: RunDirFs = {
      ...nodeFs,
      writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
        if (!armed) return nodeFs.writeSync(fd, buffer, offset, length);
        nodeFs.writeSync(fd, buffer, offset, 5);
        throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      }) as RunDirFs['writeSync'],
    };
    const run = fresh(faulty);
    must(run.append('run_start', {}));
    armed = true;
    const failed = run.append('request', {});
    expect(!failed.ok && failed.kind).toBe('write_failed');
    armed = false;
    expect(run.append('run_end', {})).toEqual(failed);
    expect(run.close() as unknown).toEqual(failed);
    expect(existsSync(join(run.dir, 'ledger.head'))).toBe(false);
    expect(run.count()).toBe(1);
  });
});

describe('determinism', () => {
  test('two writers with the same clock and inputs give byte-identical run dirs', () => {
    const a = writeSampleRun(join(tempDir(), 'run'));
    const b = writeSampleRun(join(tempDir(), 'run'));
    expect(a.head).toBe(b.head);
    const files = filesUnder(a.dir);
    expect(files).toEqual(filesUnder(b.dir));
    expect(files.length).toBe(7);
    for (const file of files) {
      expect(Buffer.compare(readFileSync(join(a.dir, file)), readFileSync(join(b.dir, file)))).toBe(0);
    }
  });

  test('the clock is what makes them identical: another time gives another head', () => {
    const a = writeSampleRun(join(tempDir(), 'run'));
    const b = writeSampleRun(join(tempDir(), 'run'), fixedClock(1_700_000_000_001));
    expect(a.head).not.toBe(b.head);
  });
});

describe('ending a run that failed', () => {
  test('closeUnsealed leaves no seal and answers every later close with the same failure', () => {
    const parent = tempDir();
    try {
      const run = must(openRunDir(join(parent, 'run'), { clock: fixedClock(0) }));
      must(run.append('run_start', {}));
      const failed = run.closeUnsealed('disk full');
      expect([failed.kind, failed.message]).toEqual(['unsealed', 'the run dir was closed without a seal: disk full']);
      expect(run.close() as unknown).toEqual(failed);
      expect(existsSync(join(run.dir, 'ledger.head'))).toBe(false);
    } finally {
      nodeFs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('unreferencedFiles vouches for what a tool left behind, not for what an event already references', () => {
    const parent = tempDir();
    try {
      const run = must(openRunDir(join(parent, 'run'), { clock: fixedClock(0) }));
      const known = must(run.writeFile('snapshot/a.md', 'a'));
      must(run.append('run_start', { files: [{ role: 'snapshot_source', ...known }] }));
      nodeFs.mkdirSync(join(run.dir, 'card'));
      writeFileSync(join(run.dir, 'card', 'left.md'), 'left behind');
      expect(run.unreferencedFiles('left_by_failure')).toEqual([
        { role: 'left_by_failure', path: 'card/left.md', sha256: sha256Hex('left behind'), bytes: 11 },
      ]);
      run.close();
    } finally {
      nodeFs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
