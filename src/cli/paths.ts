import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fail, type Failure } from '../contract/index.ts';
import { LEDGER_FILE, SEAL_FILE } from '../ledger/index.ts';

import { RUN_ID, RUN_ID_RULE } from './run-id.ts';
export { RUN_ID, RUN_ID_RULE } from './run-id.ts';

/** A usage problem with a path or id, found before any work (the CLI exits 2 for each). */
export function usageFailure(kind: 'bad_run_id' | 'bad_path', message: string): Failure {
  return fail('invalid_arguments', kind, message);
}

export function checkRunId(id: string, flag = '--run-id'): Failure | undefined {
  return RUN_ID.test(id) ? undefined : usageFailure('bad_run_id', `${flag} ${JSON.stringify(id)}: a run id is ${RUN_ID_RULE}`);
}

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** What is at `path`, symlinks followed, or undefined when nothing can be stat'ed there. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The nearest existing ancestor of `path` (following symlinks: they are the user's own layout above the run dir). */
function nearestExisting(path: string): { readonly path: string; readonly stats: Stats } | undefined {
  for (let at = dirname(path); ; at = dirname(at)) {
    try {
      return { path: at, stats: statSync(at) };
    } catch {
      if (dirname(at) === at) return undefined;
    }
  }
}

/** `path` with its existing part resolved through symlinks (the rest does not exist yet, so it has none). */
export function realPathOf(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), relative(at, path));
    } catch {
      if (dirname(at) === at) return path;
    }
  }
}

/** Whether `path` is `folder` or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * The run dir a real (symlink-free) path lies in: the nearest folder at or
 * above it holding a ledger or a seal. Nothing caplab writes goes there but
 * that run's own record.
 */
export function enclosingRunDir(realPath: string): string | undefined {
  for (let at = realPath; ; at = dirname(at)) {
    if (lstatOrUndefined(join(at, LEDGER_FILE)) || lstatOrUndefined(join(at, SEAL_FILE))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** Kernel filesystems: their "files" are the kernel's controls, and some folders there accept mkdir (cgroups). */
const KERNEL_FOLDERS = ['/proc', '/sys'];

/** Why a real path can never hold what caplab writes, or undefined. */
export function unwritablePlace(realPath: string): string | undefined {
  const kernel = KERNEL_FOLDERS.find((folder) => isWithin(realPath, folder));
  if (kernel) return `is under ${kernel}, a kernel filesystem`;
  // The same names the kernel would refuse with ENAMETOOLONG, found before mkdir -p makes the folders above them.
  const long = realPath.split(sep).find((name) => Buffer.byteLength(name) > 255);
  if (long !== undefined) return `ENAMETOOLONG: the name ${JSON.stringify(`${long.slice(0, 16)}…`)} is longer than 255 bytes`;
  if (Buffer.byteLength(realPath) >= 4096) return 'ENAMETOOLONG: the path is 4096 bytes or longer';
  return undefined;
}

/**
 * Checks a folder a command will create or fill (`--out DIR`, an absolute
 * path): it must be absent under an existing folder, or an empty folder, and
 * lie neither inside a run dir nor on a kernel filesystem, with names the
 * kernel takes. Checked before any work so a typo costs nothing; the run dir
 * itself is then taken before any output (`RunDir.open`), which refuses what
 * only trying shows (EROFS, EACCES) and a folder that filled up in between.
 */
export function checkOutDir(path: string, flag: string): Failure | undefined {
  const here = lstatOrUndefined(path);
  if (here) {
    // The same class and kind as the run dir's own refusal, only earlier.
    if (!here.isDirectory()) return fail('precondition', 'target_exists', `${flag} ${path}: exists and is not a folder`);
    let entries: readonly string[];
    try {
      entries = readdirSync(path);
    } catch (error) {
      return usageFailure('bad_path', `${flag} ${path}: cannot be read: ${String(error)}`);
    }
    if (entries.length > 0) return fail('precondition', 'target_exists', `${flag} ${path}: not empty; a run never overwrites a previous run`);
  } else {
    const parent = nearestExisting(path);
    if (!parent || !parent.stats.isDirectory()) return usageFailure('bad_path', `${flag} ${path}: ${parent?.path ?? 'its parent'} is not a folder`);
  }
  const real = realPathOf(path);
  const place = unwritablePlace(real);
  if (place) return usageFailure('bad_path', `${flag} ${path}: ${place}; a run dir is never made there`);
  const runDir = enclosingRunDir(real);
  if (runDir !== undefined) return usageFailure('bad_path', `${flag} ${path}: inside the run dir ${runDir}; a run never writes into another run's record`);
  return undefined;
}

/** The file name beside `target` a report is written to before it is renamed into place. */
export function tempBeside(target: string, tag: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${tag}`);
}
