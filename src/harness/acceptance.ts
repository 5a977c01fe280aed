/**
 * Acceptance as the host states it (SPEC F-TASK): a list of checks, each with
 * what was checked, against what, on which evidence, and its verdict. A task
 * decides its checks; what a verdict means and when a run is accepted is the
 * same for every task.
 */

export type Verdict = 'pass' | 'fail' | 'not_verifiable';

/** One acceptance check: what was checked, against what, on which evidence, and the verdict. */
export interface AcceptanceCheck {
  readonly id: string;
  readonly object: string;
  readonly condition: string;
  readonly evidence: string;
  readonly verdict: Verdict;
}

/** Accepted iff every automatically verifiable check passed. */
export function isAccepted(checks: readonly AcceptanceCheck[]): boolean {
  return checks.every((check) => check.verdict !== 'fail');
}
