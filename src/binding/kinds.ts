import type { KindTable } from '../contract/index.ts';

/** The failures binding raises: binding a contract, converting arguments through its target, resolving a call. */
export const BINDING_KINDS = {
  silent_default: { class: 'precondition', basis: null },
  invalid_fills: { class: 'precondition', basis: null },
  unrepresentable: { class: 'precondition', basis: null },
  conversion_unavailable: { class: 'precondition', basis: null },
  binding_changed: { class: 'precondition', basis: null },
  unknown_tool: { class: 'invalid_arguments', basis: null },
  not_object: { class: 'invalid_arguments', basis: null },
  round_trip: { class: 'invalid_arguments', basis: null },
  // the strict target's envelopes and fields
  invalid_operation: { class: 'invalid_arguments', basis: null },
  extra_field: { class: 'invalid_arguments', basis: null },
  missing_field: { class: 'invalid_arguments', basis: null },
  wrong_type: { class: 'invalid_arguments', basis: null },
} as const satisfies KindTable;

declare module '../contract/index.ts' {
  interface FailureTables {
    readonly binding: typeof BINDING_KINDS;
  }
}
