import type { KindTable } from './failure.ts';

/**
 * The failures contract raises: argument validation (the kind of a schema's
 * first issue), JSON bounds and bounded file reads.
 */
export const CONTRACT_KINDS = {
  // validation: the first issue's kind (a contract's own message may name another, `kindMessage`)
  missing_field: { class: 'invalid_arguments', basis: null },
  extra_field: { class: 'invalid_arguments', basis: null },
  not_object: { class: 'invalid_arguments', basis: null },
  wrong_type: { class: 'invalid_arguments', basis: null },
  length: { class: 'invalid_arguments', basis: null },
  invalid_value: { class: 'invalid_arguments', basis: null },
  // JSON within bounds (canonical JSON over its bound is a bad argument; a file over its limit, a precondition)
  too_large: { class: ['invalid_arguments', 'precondition'], basis: null },
  too_deep: { class: 'invalid_arguments', basis: null },
  non_finite_number: { class: 'invalid_arguments', basis: null },
  not_json: { class: 'invalid_arguments', basis: null },
  // bounded reads
  not_found: { class: 'precondition', basis: null },
  unreadable: { class: 'precondition', basis: null },
  not_regular_file: { class: 'precondition', basis: null },
  not_utf8: { class: 'invalid_arguments', basis: null },
} as const satisfies KindTable;

declare module './failure.ts' {
  interface FailureTables {
    readonly contract: typeof CONTRACT_KINDS;
  }
}
