import { ok, type Success } from '../contract/index.ts';
import { failAt, verify, type VerifyFailure, type VerifyReport } from '../ledger/index.ts';
import { recheckByTask, type RecheckReport } from './recheck.ts';
import type { TaskRecheck } from './task.ts';

/** What `verifyRun` checks against beyond the record itself. */
export interface VerifyRunOptions {
  /** The task of a record whose run_start names none (records from before tasks had ids); default: the first of `tasks`. */
  readonly unnamed?: string;
  /** A ledger head known from elsewhere (printed by the run, kept by CI): it anchors the whole record. */
  readonly expectedHead?: string;
}

/** A verified run dir, its task's recheck always there; or the first place that failed. */
export type RunVerification = Success<VerifyReport<RecheckReport> & { readonly recheck: RecheckReport }> | VerifyFailure;

/**
 * Verifies a run dir offline, as `caplab verify` does: the ledger's chain,
 * seal, files and story, then acceptance re-computed by the task its
 * run_start names, found among `tasks` by id (one not there is
 * `evidence/unknown_task`). Total: a verifier bug is reported as a failure
 * (`verifier_error`), never thrown.
 *
 * @example
 * const report = verifyRun(outcome.value.runDir, [task]);
 * console.log(report.ok ? report.value.recheck.accepted : `${report.kind}: ${report.message}`);
 */
export function verifyRun(runDir: string, tasks: readonly TaskRecheck[], options: VerifyRunOptions = {}): RunVerification {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  try {
    const report = verify(runDir, {
      recheck: recheckByTask((id) => byId.get(id), options.unnamed ?? tasks[0]?.id ?? ''),
      ...(options.expectedHead !== undefined ? { expectedHead: options.expectedHead } : {}),
    });
    if (!report.ok) return report;
    const { recheck } = report.value;
    // verify reports what a recheck returned whenever one ran and passed.
    return recheck ? ok({ ...report.value, recheck }) : failAt('verifier_error', 'the record verified but its task recheck reported nothing (a caplab bug; please report it)', { file: '.' });
  } catch (error) {
    return failAt('verifier_error', `the verifier failed on this input (a caplab bug; please report it): ${String(error)}`, { file: '.' });
  }
}
