import type { KindTable } from '../contract/index.ts';

/**
 * The excerpt task's failures (a task adds its table): its tools' arguments
 * and preconditions, what a server's read must match, and its recheck.
 */
export const EXCERPT_KINDS = {
  // named by its contracts' messages (`kindMessage`)
  unknown_source: { class: 'invalid_arguments', basis: null },
  quote_length: { class: 'invalid_arguments', basis: null },
  excerpt_count: { class: 'invalid_arguments', basis: null },
  source_order: { class: 'invalid_arguments', basis: null },
  quote_wrong_source: { class: 'invalid_arguments', basis: null },
  quote_not_verbatim: { class: 'invalid_arguments', basis: null },
  sources_not_disclosed: { class: 'precondition', basis: null },
  target_exists: { class: 'precondition', basis: null },
  // a served read against the host's snapshot
  source_mismatch: { class: 'evidence', basis: null },
  hash_mismatch: { class: 'evidence', basis: null },
  // its recheck: its own fields of the record (run_start's snapshot, each request's disclosure), then acceptance
  snapshot_mismatch: { class: 'evidence', basis: null },
  disclosure_mismatch: { class: 'evidence', basis: null },
  producing_mismatch: { class: 'evidence', basis: null },
  read_mismatch: { class: 'evidence', basis: null },
  receipt_mismatch: { class: 'evidence', basis: null },
  card_mismatch: { class: 'evidence', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly excerpt: typeof EXCERPT_KINDS;
  }
}
