import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { fail, type Failure } from '../contract/index.ts';

import { RUN_ID, RUN_ID_RULE } from './run-id.ts';
export { RUN_ID, RUN_ID_RULE } from './run-id.ts';

/** A usage problem with a path or id, found before any work (the CLI exits 2 for each). */
export function usageFailure(kind: 'bad_run_id' | 'bad_path', message: string): Failure {
  return fail('invalid_arguments', kind, message);
}

export function checkRunId(id: string, flag = '--run-id'): Failure | undefined {
  return RUN_ID.test(id) ? undefined : usageFailure('bad_run_id', `${flag} ${JSON.stringify(id)}: a run id is ${RUN_ID_RULE}`);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
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

/**
 * Checks a folder a command will create or fill (`--out DIR`, an absolute
 * path): it must be absent under an existing folder, or an empty folder.
 * Checked before any work so a typo costs nothing; the write itself still
 * refuses a folder that fills up in between.
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
    return undefined;
  }
  const parent = nearestExisting(path);
  if (!parent || !parent.stats.isDirectory()) return usageFailure('bad_path', `${flag} ${path}: ${parent?.path ?? 'its parent'} is not a folder`);
  return undefined;
}

/** Checks a report file a command will write at the end (`--junit FILE`): its folder exists, and it is not a folder itself. */
export function checkReportFile(path: string, flag: string): Failure | undefined {
  const parent = dirname(path);
  let folder: Stats;
  try {
    folder = statSync(parent);
  } catch {
    return usageFailure('bad_path', `${flag} ${path}: the folder ${parent} does not exist`);
  }
  if (!folder.isDirectory()) return usageFailure('bad_path', `${flag} ${path}: ${parent} is not a folder`);
  let target: Stats | undefined;
  try {
    target = statSync(path);
  } catch {
    target = undefined;
  }
  if (target?.isDirectory()) return usageFailure('bad_path', `${flag} ${path}: is a folder`);
  return undefined;
}
