import { describe, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { fixedClock } from './clock.ts';
import { GENESIS, LEDGER_FORMAT, LEDGER_FORMAT_2, LEDGER_FORMAT_3, LEDGER_FORMAT_4, LEDGER_FORMAT_5, type FileRef } from './format.ts';
import type { RunDirFs } from './fs.ts';
import type { EventInput } from './events.ts';
import { openRunDir, type RunDir } from './run-dir.ts';
import { failedEnd, must, sampleStart, tempDir, writeSampleRun } from './testing/sample-run.ts';

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
    // A task's own acceptance fields are kept as given, in canonical form.
    const first = must(run.append('acceptance', { accepted: true, checks: [], z: 1, a: { y: 'ü', b: [2, 1] } }));
    const second = must(run.append('run_end', failedEnd()));
    expect(run.head()).toBe(second);
    expect(run.count()).toBe(2);
    must(run.close());
    const text = readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8');
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]).toBe('{"a":{"b":[2,1],"y":"ü"},"accepted":true,"at":"2023-11-14T22:13:20.000Z","checks":[],"prev":"' + GENESIS + '","seq":0,"type":"acceptance","z":1}');
    expect(sha256Hex(lines[0]!)).toBe(first);
    expect(JSON.parse(lines[1]!)).toEqual({ seq: 1, type: 'run_end', at: '2023-11-14T22:13:20.000Z', prev: first, ...failedEnd(), format: LEDGER_FORMAT });
    expect(readFileSync(join(run.dir, 'ledger.head'), 'utf8')).toBe(`${canonicalJson({ count: 2, format: LEDGER_FORMAT, head: second })}\n`);
  });

  test('each line is in the file as soon as append returns', () => {
    const run = fresh();
    must(run.append('run_start', sampleStart()));
    expect(readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8').split('\n')).toHaveLength(2);
    run.close();
  });

  test('refuses programmer errors loudly: envelope keys, bad types, malformed refs, after close', () => {
    const run = fresh();
    expect(() => run.append('acceptance', { accepted: true, checks: [], seq: 9 })).toThrow(/may not set seq/);
    // @ts-expect-error a type that is no event type does not compile either
    expect(() => run.append('Bad Type', {})).toThrow(/event type/);
    // @ts-expect-error nor does a malformed file reference
    expect(() => run.append('acceptance', { accepted: true, checks: [], files: [{ path: 'a.txt', sha256: 'x' }] })).toThrow(/exactly the keys/);
    expect(() => run.append('acceptance', { accepted: true, checks: [], n: Number.NaN })).toThrow(/non-finite/);
    expect(run.count()).toBe(0);
    run.close();
    expect(() => run.append('run_end', failedEnd())).toThrow(/after close/);
    expect(() => run.writeFile('a.txt', 'x')).toThrow(/after close/);
  });

  test('writes only events of their schema in the run\'s format: a wrong field is a tsc error and, past it, a throw', () => {
    const run = fresh();
    // @ts-expect-error an event type the ledger does not have
    expect(() => run.append('note', { files: [] })).toThrow(/"note" is no event type/);
    // @ts-expect-error a field of the wrong type
    expect(() => run.append('run_end', { ...failedEnd(), exit_code: 137 })).toThrow(/not a run_end event of caplab.ledger\/4: exit_code: /);
    // @ts-expect-error a field the event does not have
    expect(() => run.append('run_end', { ...failedEnd(), replay_lines: 1 })).toThrow(/replay_lines: Invalid key/);
    // @ts-expect-error the run dir names the format, not the writer
    expect(() => run.append('run_end', { ...failedEnd(), format: LEDGER_FORMAT_3 })).toThrow(/may not set format/);
    // Every run names format 4, which has format 3's shapes: a plain method record is one.
    const plain = { ...sampleStart(), method: { plain: true, name: 'p', body: { sha256: GENESIS, bytes: 0 } } };
    expect(run.count()).toBe(0);
    must(run.append('run_start', plain));
    must(run.append('run_end', failedEnd()));
    expect(JSON.parse(readFileSync(join(run.dir, 'ledger.jsonl'), 'utf8').split('\n')[1]!).format).toBe(LEDGER_FORMAT_4);
    expect(must(run.close()).format).toBe(LEDGER_FORMAT_4);
  });

  test('a record of an older format is written only in that format\'s shapes, and names it', () => {
    // The writer's types are the newest format's; the run dir checks each line against its own format.
    const asStart = (start: object) => start as unknown as EventInput<'run_start'>;
    const { task: _task, ...older } = sampleStart();
    const plain = { ...older, method: { plain: true, name: 'p', body: { sha256: GENESIS, bytes: 0 } } };
    const base = must(openRunDir(join(tempDir(), 'run'), { clock, format: LEDGER_FORMAT_2 }));
    // Format 2 has no plain method, and no task.
    expect(() => base.append('run_start', asStart(plain))).toThrow(/not a run_start event of caplab.ledger\/2: method.plain: /);
    expect(() => base.append('run_start', sampleStart())).toThrow(/not a run_start event of caplab.ledger\/2: task: /);
    must(base.append('run_start', asStart(older)));
    must(base.append('run_end', failedEnd()));
    // The base format is named by the seal alone; run_end names any other.
    expect(JSON.parse(readFileSync(join(base.dir, 'ledger.jsonl'), 'utf8').split('\n')[1]!).format).toBeUndefined();
    expect(must(base.close()).format).toBe(LEDGER_FORMAT_2);
    const third = must(openRunDir(join(tempDir(), 'run'), { clock, format: LEDGER_FORMAT_3 }));
    must(third.append('run_start', asStart(plain)));
    must(third.append('run_end', failedEnd()));
    expect(JSON.parse(readFileSync(join(third.dir, 'ledger.jsonl'), 'utf8').split('\n')[1]!).format).toBe(LEDGER_FORMAT_3);
    expect(must(third.close()).format).toBe(LEDGER_FORMAT_3);
  });

  test('refuses to vouch for a file that is missing or differs from the reference', () => {
    const run = fresh();
    const written = must(run.writeFile('a.txt', 'abc'));
    const vouching = (ref: FileRef) => ({ accepted: true, checks: [], files: [ref] });
    const wrong = run.append('acceptance', vouching({ role: 'doc', ...written, sha256: sha256Hex('abd') }));
    expect(!wrong.ok && wrong.kind).toBe('hash_mismatch');
    const missing = run.append('acceptance', vouching({ role: 'doc', ...written, path: 'b.txt' }));
    expect(!missing.ok && missing.kind).toBe('missing_file');
    writeFileSync(join(run.dir, 'c.txt'), 'outside the writer');
    const ref = must(run.fileRef('c.txt', 'card'));
    expect(ref).toEqual({ role: 'card', path: 'c.txt', sha256: sha256Hex('outside the writer'), bytes: 18 });
    expect(run.append('acceptance', vouching(ref)).ok).toBe(true);
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
    must(run.append('run_start', sampleStart()));
    armed = true;
    const failed = run.append('acceptance', { accepted: false, checks: [] });
    expect(!failed.ok && failed.kind).toBe('write_failed');
    armed = false;
    expect(run.append('run_end', failedEnd())).toEqual(failed);
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
      must(run.append('run_start', sampleStart()));
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
      must(run.append('run_start', sampleStart([{ role: 'snapshot_source', ...known }])));
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

test('a run names format 5 before its first event (files written before stay); after an event its format is fixed', () => {
  const run = must(openRunDir(join(tempDir(), 'run'), { clock: fixedClock(0) }));
  expect(run.format()).toBe(LEDGER_FORMAT);
  must(run.writeFile('snapshot/a.txt', 'a'));
  run.nameFormat(LEDGER_FORMAT_5);
  expect(run.format()).toBe(LEDGER_FORMAT_5);
  must(run.append('run_end', failedEnd()));
  expect(() => run.nameFormat(LEDGER_FORMAT_4)).toThrow(/after 1 events of caplab.ledger\/5/);
  expect(() => run.nameFormat('caplab.ledger/99' as typeof LEDGER_FORMAT)).toThrow(/unknown record format/);
  expect(must(run.close()).format).toBe(LEDGER_FORMAT_5);
});
