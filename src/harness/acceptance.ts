/**
 * Acceptance as the host states it (SPEC F-TASK): a list of checks, each with
 * what was checked, against what, on which evidence, and its verdict. A task
 * decides its checks; what a verdict means and when a run is accepted is the
 * same for every task.
 */

import type { EventInput } from '../ledger/index.ts';

/**
 * One acceptance check: what was checked (`id`, `object`), against what
 * (`condition`), on which evidence, and the verdict — as the acceptance
 * event records it (the ledger's events.ts).
 */
export type AcceptanceCheck = EventInput<'acceptance'>['checks'][number];

export type Verdict = AcceptanceCheck['verdict'];

/** Accepted iff every automatically verifiable check passed. */
export function isAccepted(checks: readonly AcceptanceCheck[]): boolean {
  return checks.every((check) => check.verdict !== 'fail');
}
