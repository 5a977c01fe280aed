import { expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { EXIT } from './exit.ts';
import { checkReportFile, reportTarget, writeReport, type ReportFs } from './report-file.ts';
import { testIo } from './test-io.ts';
import { unwritableDir } from '../../test/unwritable.ts';

/** A character device like /dev/full, made in the scratch folder (root may mknod); /dev/full itself otherwise. */
function device(dir: string): string {
  const path = join(dir, 'full');
  return Bun.spawnSync(['mknod', path, 'c', '1', '7']).exitCode === 0 ? path : '/dev/full';
}

/** Every entry under `dir`, with its kind and (for files) its bytes: what "nothing was touched" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    out[name] = stats.isFile() ? `file ${stats.ino} ${readFileSync(path, 'utf8')}` : stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'special';
  }
  return out;
}

const refusals: readonly [string, (dir: string) => string, string][] = [
  ['a device (/dev/full, as root)', device, 'is a device, not a regular file'],
  ['a FIFO', (dir) => (Bun.spawnSync(['mkfifo', join(dir, 'fifo')]), join(dir, 'fifo')), 'is a FIFO'],
  ['a folder', (dir) => (mkdirSync(join(dir, 'folder')), join(dir, 'folder')), 'is a folder'],
  ['a symlink to a regular file', (dir) => (writeFileSync(join(dir, 'mine.txt'), 'keep'), symlinkSync(join(dir, 'mine.txt'), join(dir, 'link.xml')), join(dir, 'link.xml')), 'is a symlink'],
  ['a read-only file', (dir) => (writeFileSync(join(dir, 'ro.xml'), 'keep'), chmodSync(join(dir, 'ro.xml'), 0o444), join(dir, 'ro.xml')), 'is read-only'],
  ["another run's ledger.jsonl", (dir) => (mkdirSync(join(dir, 'run')), writeFileSync(join(dir, 'run/ledger.jsonl'), 'keep\n'), join(dir, 'run/ledger.jsonl')), 'inside the run dir'],
  ['a file deeper in a run dir', (dir) => (mkdirSync(join(dir, 'run/requests'), { recursive: true }), writeFileSync(join(dir, 'run/ledger.head'), 'keep'), join(dir, 'run/requests/r.xml')), 'inside the run dir'],
  ['a file under /proc', () => '/proc/self/report.xml', 'is under /proc, a kernel filesystem'],
  ['a file under /sys', () => '/sys/kernel/report.xml', 'is under /sys, a kernel filesystem'],
];

test.each(refusals)('check --junit naming %s: invalid_arguments/bad_path, exit 2, before any scenario; nothing touched', async (_, make, says) => {
  const cwd = scratchDir('caplab-junit-');
  const junit = make(cwd);
  const before = snapshot(cwd);
  const io = testIo(cwd);
  expect(await cli(['check', '--junit', junit, '--run-id', 'j'], io)).toBe(EXIT.usage);
  expect(io.err()).toContain(`--junit ${junit}: ${says}`);
  expect(io.out()).toBe('');
  // No check dir, no probe or temp file, the target as it was.
  expect(snapshot(cwd)).toEqual(before);
  const failure = checkReportFile(junit, '--junit', join(cwd, 'out'));
  expect(failure && [failure.class, failure.kind]).toEqual(['invalid_arguments', 'bad_path']);
});

test('check --junit naming a socket is refused too', async () => {
  const dir = scratchDir('caplab-junit-');
  const path = join(dir, 'sock');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  try {
    expect(lstatSync(path).isSocket()).toBe(true);
    const io = testIo(dir);
    expect(await cli(['check', '--junit', path, '--run-id', 'j'], io)).toBe(EXIT.usage);
    expect(io.err()).toContain(`--junit ${path}: is a socket`);
    expect(readdirSync(dir)).toEqual(['sock']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('check --junit inside --out, or equal to it, is refused before the check dir is made', async () => {
  for (const [out, junit, made] of [['o', 'o/report.xml', true], ['o', 'o', false], ['o/', './o/report.xml', true]] as const) {
    const cwd = scratchDir('caplab-junit-');
    if (made) mkdirSync(join(cwd, 'o'));
    const io = testIo(cwd);
    expect(await cli(['check', '--out', out, '--junit', junit], io)).toBe(EXIT.usage);
    expect(io.err()).toContain("where this command's run dirs go");
    expect(snapshot(cwd)).toEqual(made ? { o: 'dir' } : {});
  }
});

test('a folder path through a file is refused; proving a writable folder leaves nothing behind', () => {
  const dir = scratchDir('caplab-junit-');
  // As root, a mode never stops a write; a file where the folder should be does, for everyone.
  writeFileSync(join(dir, 'file'), 'x');
  expect(checkReportFile(join(dir, 'file/report.xml'), '--junit', join(dir, 'out'))?.kind).toBe('bad_path');
  // A writable folder passes and keeps nothing of the proof.
  expect(checkReportFile(join(dir, 'report.xml'), '--junit', join(dir, 'out'))).toBeUndefined();
  expect(readdirSync(dir)).toEqual(['file']);
});

test('an absent report file is created, and nothing else is left beside it', () => {
  const dir = scratchDir('caplab-junit-');
  const target = join(dir, 'new.xml');
  expect(checkReportFile(target, '--junit', join(dir, 'out'))).toBeUndefined();
  expect(writeReport(target, '<x/>')).toBeUndefined();
  expect([readdirSync(dir), readFileSync(target, 'utf8')]).toEqual([['new.xml'], '<x/>']);
});

// One whole check (27 scenarios) runs here: the time bound is for a loaded machine, not a threshold.
test('check --junit naming a regular writable file replaces it whole (a new inode: rename, not rewrite), keeping its mode; a symlinked folder above it is the user\'s own', async () => {
  const cwd = scratchDir('caplab-junit-');
  mkdirSync(join(cwd, 'reports'));
  symlinkSync(join(cwd, 'reports'), join(cwd, 'link'));
  const old = join(cwd, 'reports/old.xml');
  writeFileSync(old, 'previous report');
  chmodSync(old, 0o600);
  const inode = statSync(old).ino;
  // The link is resolved when the path is checked; the write then follows no symlink.
  expect(await cli(['check', '--junit', 'link/old.xml', '--out', 'runs'], testIo(cwd))).toBe(EXIT.ok);
  expect(readFileSync(old, 'utf8')).toStartWith('<?xml');
  expect(statSync(old).ino).not.toBe(inode);
  // The replaced file's mode is kept: a private file stays private.
  expect(statSync(old).mode & 0o7777).toBe(0o600);
  expect([readdirSync(cwd).sort(), readdirSync(join(cwd, 'reports'))]).toEqual([['link', 'reports', 'runs'], ['old.xml']]);
}, 60_000);

test('check --junit in a folder the system refuses to write: found before any scenario by trying, exit 2', async () => {
  const cwd = scratchDir('caplab-junit-');
  const locked = unwritableDir(cwd);
  if (!locked) throw new Error('this machine offers no unwritable folder (neither chattr +i as root nor a mode)');
  try {
    const io = testIo(cwd);
    expect(await cli(['check', '--junit', 'locked/report.xml', '--out', 'out'], io)).toBe(EXIT.usage);
    expect(io.err()).toMatch(/--junit .*locked\/report.xml: its folder cannot be written: (EPERM|EACCES)/);
    expect(io.out()).toBe('');
    expect(readdirSync(cwd)).toEqual(['locked']);
  } finally {
    locked.restore();
  }
});

test('writeReport looks again: a target turned symlink or FIFO since the check is not replaced (write_failed)', () => {
  const dir = scratchDir('caplab-junit-');
  writeFileSync(join(dir, 'mine.txt'), 'keep');
  symlinkSync(join(dir, 'mine.txt'), join(dir, 'link.xml'));
  Bun.spawnSync(['mkfifo', join(dir, 'fifo.xml')]);
  for (const name of ['link.xml', 'fifo.xml']) expect(writeReport(join(dir, name), '<x/>')?.kind).toBe('write_failed');
  expect(snapshot(dir)).toMatchObject({ 'mine.txt': expect.stringMatching(/ keep$/), 'link.xml': 'link', 'fifo.xml': 'special' });
  expect(readdirSync(dir).sort()).toEqual(['fifo.xml', 'link.xml', 'mine.txt']);
});

test.each([0o600, 0o640, 0o755])('a replaced report keeps the mode of the file it replaces (%o), not the umask default', (mode) => {
  const dir = scratchDir('caplab-junit-');
  const target = join(dir, 'secret.txt');
  writeFileSync(target, 'old');
  chmodSync(target, mode);
  expect(writeReport(reportTarget(target), '<x/>')).toBeUndefined();
  expect([readFileSync(target, 'utf8'), statSync(target).mode & 0o7777, readdirSync(dir)]).toEqual(['<x/>', mode, ['secret.txt']]);
});

test.if(process.getuid?.() === 0)('as root, a replaced report keeps the owner and group of the file it replaces', () => {
  const dir = scratchDir('caplab-junit-');
  const target = join(dir, 'theirs.xml');
  writeFileSync(target, 'old');
  chownSync(target, 4321, 4322);
  chmodSync(target, 0o600);
  expect(writeReport(reportTarget(target), '<x/>')).toBeUndefined();
  const after = statSync(target);
  expect([after.uid, after.gid, after.mode & 0o7777]).toEqual([4321, 4322, 0o600]);
});

/** node:fs, with every path `writeReport` writes or renames to noted. */
function watchedFs(): { readonly fs: ReportFs; readonly wrote: string[] } {
  const wrote: string[] = [];
  const fs: ReportFs = {
    ...nodeFs,
    writeFileSync: (path, data, options) => (wrote.push(String(path)), nodeFs.writeFileSync(path, data, options)),
    renameSync: (from, to) => (wrote.push(String(to)), nodeFs.renameSync(from, to)),
  };
  return { fs, wrote };
}

/** A report folder `dir/reports` holding an old report, and a folder `dir/elsewhere` holding another. */
function reportsAndElsewhere(): { readonly dir: string; readonly target: string } {
  const dir = scratchDir('caplab-junit-');
  for (const name of ['reports', 'elsewhere']) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.xml'), `${name} keep`);
  }
  return { dir, target: reportTarget(join(dir, 'reports/report.xml')) };
}

test('writeReport follows no symlink: a report folder swapped for one after the check is refused, nothing written through it', () => {
  const { dir, target } = reportsAndElsewhere();
  renameSync(join(dir, 'reports'), join(dir, 'moved'));
  symlinkSync(join(dir, 'elsewhere'), join(dir, 'reports'));
  const { fs, wrote } = watchedFs();
  const failure = writeReport(target, '<x/>', fs);
  expect([failure?.class, failure?.kind]).toEqual(['business', 'write_failed']);
  expect(failure?.message).toContain(`${join(dir, 'reports')} is a symlink`);
  expect(wrote).toEqual([]);
  expect(snapshot(dir)).toMatchObject({ 'elsewhere/report.xml': expect.stringMatching(/ elsewhere keep$/), 'moved/report.xml': expect.stringMatching(/ reports keep$/) });
  expect(readdirSync(join(dir, 'elsewhere'))).toEqual(['report.xml']);
});

test('writeReport looks at the folders again before the rename: one swapped for a symlink while the temp was written is refused', () => {
  const { dir, target } = reportsAndElsewhere();
  const { fs: watched } = watchedFs();
  // The swap lands between the temp write and the rename; the link leads back to the moved folder, so a followed rename would succeed.
  const racing: ReportFs = {
    ...watched,
    writeFileSync: (path, data, options) => {
      watched.writeFileSync(path, data, options);
      renameSync(join(dir, 'reports'), join(dir, 'moved'));
      symlinkSync(join(dir, 'moved'), join(dir, 'reports'));
    },
  };
  const failure = writeReport(target, '<x/>', racing);
  expect([failure?.kind, failure?.message]).toEqual(['write_failed', `${target} was not written: ${join(dir, 'reports')} changed while the report was written (moved, or swapped for a symlink)`]);
  expect(readFileSync(join(dir, 'moved/report.xml'), 'utf8')).toBe('reports keep');
  // The temp is removed by its path, which here still leads to it; nothing reached elsewhere.
  expect([readdirSync(join(dir, 'moved')), readdirSync(join(dir, 'elsewhere'))]).toEqual([['report.xml'], ['report.xml']]);
});
