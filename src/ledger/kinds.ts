import type { KindTable } from '../contract/index.ts';

/**
 * The failures the ledger raises: writing a run dir, and `verify` reading one
 * (every verification failure is `evidence`; a recheck hook adds its own).
 */
export const LEDGER_KINDS = {
  bad_source_date_epoch: { class: 'invalid_arguments', basis: null },
  bad_path: { class: 'invalid_arguments', basis: null },
  reserved_path: { class: 'invalid_arguments', basis: null },
  unsafe_path: { class: 'precondition', basis: null },
  target_exists: { class: 'precondition', basis: null },
  record_limit: { class: 'precondition', basis: null },
  write_failed: { class: 'business', basis: null },
  // closed without a seal (business); found so by verify (evidence)
  unsealed: { class: ['business', 'evidence'], basis: null },
  // verify
  missing_ledger: { class: 'evidence', basis: null },
  not_canonical: { class: 'evidence', basis: null },
  too_deep: { class: 'evidence', basis: null },
  too_large: { class: 'evidence', basis: null },
  unreadable: { class: 'evidence', basis: null },
  bad_event: { class: 'evidence', basis: null },
  seq_broken: { class: 'evidence', basis: null },
  chain_broken: { class: 'evidence', basis: null },
  bad_reference: { class: 'evidence', basis: null },
  missing_file: { class: 'evidence', basis: null },
  hash_mismatch: { class: 'evidence', basis: null },
  not_a_file: { class: 'evidence', basis: null },
  bad_seal: { class: 'evidence', basis: null },
  unknown_format: { class: 'evidence', basis: null },
  format_mismatch: { class: 'evidence', basis: null },
  seal_mismatch: { class: 'evidence', basis: null },
  head_mismatch: { class: 'evidence', basis: null },
  unexpected_entry: { class: 'evidence', basis: null },
  unreferenced_file: { class: 'evidence', basis: null },
  missing_event: { class: 'evidence', basis: null },
  duplicate_event: { class: 'evidence', basis: null },
  misplaced_event: { class: 'evidence', basis: null },
  inconsistent_end: { class: 'evidence', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly ledger: typeof LEDGER_KINDS;
  }
}
