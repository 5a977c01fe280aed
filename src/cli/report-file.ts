import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, type Failure } from '../contract/index.ts';
import { enclosingRunDir, isWithin, lstatOrUndefined, realPathOf, statOrUndefined, tempBeside, unwritablePlace, usageFailure } from './paths.ts';

/** What a report file may replace: a regular file its owner may write, and nothing else. */
function unreplaceable(stats: nodeFs.Stats): string | undefined {
  if (stats.isSymbolicLink()) return 'is a symlink; a report replaces only a regular file, never what a link points to';
  if (stats.isDirectory()) return 'is a folder';
  if (!stats.isFile()) return `is ${stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : 'a device'}, not a regular file`;
  if ((stats.mode & 0o200) === 0) return 'is read-only (its owner may not write it)';
  return undefined;
}

/**
 * Checks a report file a command writes at the end (`--junit FILE`), before
 * any work: its folder exists; the file is absent or a regular file its owner
 * may write (never a device, FIFO, socket, folder or symlink); it lies in no
 * run dir and not in `out`, where the command's run dirs go. Write access is
 * proven by creating and removing a file beside it.
 * @param out The folder the command's run dirs go to (`probe` makes none: undefined).
 */
export function checkReportFile(path: string, flag: string, out?: string): Failure | undefined {
  const bad = (why: string) => usageFailure('bad_path', `${flag} ${path}: ${why}`);
  const folder = dirname(path);
  const stats = statOrUndefined(folder);
  if (!stats) return bad(`the folder ${folder} does not exist`);
  if (!stats.isDirectory()) return bad(`${folder} is not a folder`);
  const target = lstatOrUndefined(path);
  const why = target && unreplaceable(target);
  if (why) return bad(why);
  const real = reportTarget(path);
  const place = unwritablePlace(real);
  if (place) return bad(place);
  const runDir = enclosingRunDir(dirname(real));
  if (runDir !== undefined) return bad(`inside the run dir ${runDir}; a report never overwrites a run's record`);
  if (out !== undefined && isWithin(real, realPathOf(out))) return bad(`inside ${out}, where this command's run dirs go`);
  return proveWritable(path, bad);
}

/** Creates and removes a file beside `path`: what replacing it at the end will need. */
function proveWritable(path: string, bad: (why: string) => Failure): Failure | undefined {
  const probe = tempBeside(path, 'probe');
  try {
    nodeFs.closeSync(nodeFs.openSync(probe, 'wx', 0o600));
  } catch (error) {
    return bad(`its folder cannot be written: ${errorCode(error) ?? String(error)}`);
  }
  nodeFs.unlinkSync(probe);
  return undefined;
}

/**
 * Where a checked report goes: its folder resolved through symlinks once, when
 * it is checked (they are the user's own layout), and the file name as given.
 * `writeReport` takes this path and follows no symlink on it.
 */
export function reportTarget(path: string): string {
  return join(realPathOf(dirname(path)), basename(path));
}

/** The calls `writeReport` makes; injectable so a test can fail or race any of them. */
export type ReportFs = Pick<typeof nodeFs, 'writeFileSync' | 'renameSync' | 'unlinkSync' | 'lstatSync' | 'chmodSync' | 'chownSync'>;

/** A folder on the way to the report, as lstat(2) saw it. */
interface Seen {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** Every folder from `/` down to `folder`, each by lstat(2): a real folder, never a symlink; or why not. */
function realFolders(fs: ReportFs, folder: string): readonly Seen[] | string {
  const seen: Seen[] = [];
  for (let at = folder; ; at = dirname(at)) {
    let stats: nodeFs.Stats;
    try {
      stats = fs.lstatSync(at);
    } catch (error) {
      return `${at} cannot be examined: ${errorCode(error) ?? String(error)}`;
    }
    if (!stats.isDirectory()) return `${at} is ${stats.isSymbolicLink() ? 'a symlink' : 'not a folder'}`;
    seen.push({ path: at, dev: stats.dev, ino: stats.ino });
    if (dirname(at) === at) return seen;
  }
}

/** The first folder that is no longer the one `realFolders` saw (moved, or swapped for a symlink). */
function changedFolder(fs: ReportFs, seen: readonly Seen[]): string | undefined {
  for (const folder of seen) {
    const now = lstatWith(fs, folder.path);
    if (!now?.isDirectory() || now.dev !== folder.dev || now.ino !== folder.ino) return folder.path;
  }
  return undefined;
}

/** Gives the temp file the replaced file's mode and, as root (who alone may), its owner and group. */
function keepModeAndOwner(fs: ReportFs, temp: string, replaced: nodeFs.Stats): void {
  // chown(2) may clear set-user-ID and set-group-ID bits, so the mode comes last.
  if (process.getuid?.() === 0) fs.chownSync(temp, replaced.uid, replaced.gid);
  fs.chmodSync(temp, replaced.mode & 0o7777);
}

/**
 * Writes a report file whole or not at all: a temp file beside it, then
 * rename(2). The target is looked at again first: what was checked before
 * the work may have changed since, and only a regular, writable file (or
 * nothing) is replaced, the new file keeping its mode (and, as root, its
 * owner). No symlink is followed: every folder of `target` (a `reportTarget`,
 * so none was a symlink at the check) is checked with lstat(2) before the
 * temp is written and again, same device and inode, just before the rename;
 * a folder swapped in between is refused (`write_failed`). Node has no
 * openat(2): a swap after that last look, or away and back between the two,
 * is not seen.
 *
 * The temp never survives a failure, unless its folder was moved away after
 * the temp was written: it is removed by its path, which then leads elsewhere.
 */
export function writeReport(target: string, text: string, fs: ReportFs = nodeFs): Failure | undefined {
  const failed = (why: string) => fail('business', 'write_failed', `${target} ${why}`);
  const folders = realFolders(fs, dirname(target));
  if (typeof folders === 'string') return failed(`was not written: ${folders}; a report is never written through a symlink`);
  const now = lstatWith(fs, target);
  const why = now && unreplaceable(now);
  if (why) return failed(why);
  const temp = tempBeside(target, 'tmp');
  let created = false;
  try {
    // Replacing, the temp starts private: never, even briefly, readable by more than the file it replaces.
    fs.writeFileSync(temp, text, { flag: 'wx', ...(now ? { mode: 0o600 } : {}) });
    created = true;
    if (now) keepModeAndOwner(fs, temp, now);
    const changed = changedFolder(fs, folders);
    if (changed !== undefined) {
      attempt(() => fs.unlinkSync(temp));
      return failed(`was not written: ${changed} changed while the report was written (moved, or swapped for a symlink)`);
    }
    fs.renameSync(temp, target);
    return undefined;
  } catch (error) {
    // 'wx' may have created the file before a failed write; an EEXIST temp is someone else's.
    if (created || errorCode(error) !== 'EEXIST') attempt(() => fs.unlinkSync(temp));
    return fail('business', 'write_failed', String(error));
  }
}

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // Never created, or already renamed: the caller reports the first error.
  }
}

function lstatWith(fs: ReportFs, path: string): nodeFs.Stats | undefined {
  try {
    return fs.lstatSync(path);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
