import { fail, type Failure, type FailureKind, type Success } from '../contract/index.ts';
import type { RunEnd } from './lifecycle.ts';

/** Where verification failed: a file of the run dir and, when an event is involved, which one. */
export interface VerifyLocation {
  /** Path relative to the run dir (`ledger.jsonl`, `ledger.head`, or a recorded file). */
  readonly file: string;
  /** 1-based line of `ledger.jsonl` of the event involved. */
  readonly line?: number;
  readonly seq?: number;
  readonly type?: string;
}

/** A verification failure: class `evidence`, a kind, a message, and the first place that failed. */
export interface VerifyFailure extends Failure {
  readonly at: VerifyLocation;
}

/** What an intact run dir proved. */
export interface VerifyReport<R = unknown> {
  readonly dir: string;
  /** The record format the seal declares (one this verifier knows). */
  readonly format: string;
  /** Hash of the last ledger line (matches the seal). */
  readonly head: string;
  readonly events: number;
  /** Distinct files referenced by events (the ledger and its seal not counted). */
  readonly files: number;
  /** Events per type, keys sorted. */
  readonly types: Readonly<Record<string, number>>;
  /** How the run ended, from its final `run_end` (consistent with the rest of the ledger). */
  readonly end: RunEnd;
  /** Whether a recheck hook ran (and passed); without one the acceptance checks were not re-run. */
  readonly rechecked: boolean;
  /** What the recheck hook returned, when one ran. */
  readonly recheck?: R;
}

export type VerifyOutcome<R = unknown> = Success<VerifyReport<R>> | VerifyFailure;

/**
 * Kinds of verification failure, all class `evidence`:
 * `missing_ledger`, `not_canonical` (bytes, encoding or JSON form of a line, a
 * non-finite number), `too_deep` (nesting past the limit), `bad_event` (envelope
 * fields, or an event that is not its type's schema in the record's format,
 * or of no type the format has), `format_mismatch` (an event of another known
 * format's shape, a seal and run_end naming different formats, or a format
 * whose shapes the record does not use), `seq_broken`, `chain_broken` (a
 * `prev` that is not the hash of the line before), `bad_reference`, `missing_file`,
 * `hash_mismatch` (size or sha256 of a file), `not_a_file` (a folder, FIFO or link in
 * a file's place), `too_large`, `unreadable`, `unsealed`, `bad_seal`, `unknown_format`,
 * `seal_mismatch`, `head_mismatch` (not the head the caller expected),
 * `unexpected_entry` (symlink, device, …), `unreferenced_file`, `missing_event`,
 * `duplicate_event`, `misplaced_event`, `inconsistent_end` (run_end against the
 * acceptance event or the exit code), and whatever the recheck hook reports.
 */
export function failAt(kind: FailureKind, message: string, at: VerifyLocation): VerifyFailure {
  return { ...fail('evidence', kind, message), at };
}

/** Re-tags a failure (e.g. from the format parsers) with a location. */
export function locate(failure: Failure, at: VerifyLocation): VerifyFailure {
  return { ...failure, at };
}
