import * as nodeFs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, type Failure } from '../contract/index.ts';
import { enclosingRunDir, isWithin, lstatOrUndefined, realPathOf, tempBeside, unwritablePlace, usageFailure } from './paths.ts';

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
 * @param out The folder the command's run dirs go to.
 */
export function checkReportFile(path: string, flag: string, out: string): Failure | undefined {
  const bad = (why: string) => usageFailure('bad_path', `${flag} ${path}: ${why}`);
  const folder = dirname(path);
  const stats = statOrUndefined(folder);
  if (!stats) return bad(`the folder ${folder} does not exist`);
  if (!stats.isDirectory()) return bad(`${folder} is not a folder`);
  const target = lstatOrUndefined(path);
  const why = target && unreplaceable(target);
  if (why) return bad(why);
  const real = join(realPathOf(folder), basename(path));
  const place = unwritablePlace(real);
  if (place) return bad(place);
  const runDir = enclosingRunDir(dirname(real));
  if (runDir !== undefined) return bad(`inside the run dir ${runDir}; a report never overwrites a run's record`);
  if (isWithin(real, realPathOf(out))) return bad(`inside ${out}, where this command's run dirs go`);
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
 * Writes a report file whole or not at all: a temp file beside it, then
 * rename(2). The temp never survives, whichever step fails. The target is
 * looked at again first: what was checked before the work may have changed
 * since, and only a regular, writable file (or nothing) is replaced.
 */
export function writeReport(target: string, text: string, fs: Pick<typeof nodeFs, 'writeFileSync' | 'renameSync' | 'unlinkSync'> = nodeFs): Failure | undefined {
  const now = lstatOrUndefined(target);
  const why = now && unreplaceable(now);
  if (why) return fail('business', 'write_failed', `${target} ${why}`);
  const temp = tempBeside(target, 'tmp');
  let created = false;
  try {
    fs.writeFileSync(temp, text, { flag: 'wx' });
    created = true;
    fs.renameSync(temp, target);
    return undefined;
  } catch (error) {
    // 'wx' may have created the file before a failed write; an EEXIST temp is someone else's.
    if (created || errorCode(error) !== 'EEXIST') {
      try {
        fs.unlinkSync(temp);
      } catch {
        // Never created, or already renamed.
      }
    }
    return fail('business', 'write_failed', String(error));
  }
}

function statOrUndefined(path: string): nodeFs.Stats | undefined {
  try {
    return nodeFs.statSync(path);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
