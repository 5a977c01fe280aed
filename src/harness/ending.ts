import { isUnknownOutcome, type Failure } from '../contract/index.ts';

/**
 * A run's exit code from its call outcomes (SPEC F-CLI): 4 when any outcome
 * is unknown, 3 for a protocol or transport failure, 1 when a bound stopped
 * the run (`failed`), 0 when accepted, 1 otherwise. The live run and
 * `verify`'s recheck both take it from here, so the record's `exit_code` is
 * re-derived, never trusted.
 */
export function exitOf(failures: readonly { readonly class: string }[], accepted: boolean, failed = false): 0 | 1 | 3 | 4 {
  // A recorded class is a string; one outside the union is simply not unknown.
  if (failures.some((f) => isUnknownOutcome(f as Pick<Failure, 'class'>))) return 4;
  if (failures.some((f) => f.class === 'protocol' || f.class === 'spawn')) return 3;
  if (failed) return 1;
  return accepted ? 0 : 1;
}
