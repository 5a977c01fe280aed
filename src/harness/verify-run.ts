import { failAt, verify, type VerifyOutcome } from '../ledger/index.ts';
import { recheckByTask, type RecheckReport } from './recheck.ts';
import type { Task } from './task.ts';

/** What `verifyRun` checks against beyond the record itself. */
export interface VerifyRunOptions {
  /** The task of a record whose run_start names none (records from before tasks had ids); default: the first of `tasks`. */
  readonly unnamed?: string;
  /** A ledger head known from elsewhere (printed by the run, kept by CI): it anchors the whole record. */
  readonly expectedHead?: string;
}

/**
 * Verifies a run dir offline, as `caplab verify` does: the ledger's chain,
 * seal, files and story, then acceptance re-computed by the task its
 * run_start names, found among `tasks` by id (one not there is
 * `evidence/unknown_task`). Total: a verifier bug is reported as a failure
 * (`verifier_error`), never thrown.
 *
 * @example
 * const report = verifyRun(outcome.value.runDir, [task]);
 * console.log(report.ok ? report.value.recheck : `${report.kind}: ${report.message}`);
 */
export function verifyRun(runDir: string, tasks: readonly Task[], options: VerifyRunOptions = {}): VerifyOutcome<RecheckReport> {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  try {
    return verify(runDir, {
      recheck: recheckByTask((id) => byId.get(id), options.unnamed ?? tasks[0]?.id ?? ''),
      ...(options.expectedHead !== undefined ? { expectedHead: options.expectedHead } : {}),
    });
  } catch (error) {
    return failAt('verifier_error', `the verifier failed on this input (a caplab bug; please report it): ${String(error)}`, { file: '.' });
  }
}
