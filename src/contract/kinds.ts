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
  // validation against a listed JSON Schema: the first issue's keyword (validate.ts KEYWORD_KINDS; any other is invalid_value)
  required: { class: 'invalid_arguments', basis: null },
  type: { class: 'invalid_arguments', basis: null },
  additionalProperties: { class: 'invalid_arguments', basis: null },
  enum: { class: 'invalid_arguments', basis: null },
  const: { class: 'invalid_arguments', basis: null },
  minLength: { class: 'invalid_arguments', basis: null },
  maxLength: { class: 'invalid_arguments', basis: null },
  minimum: { class: 'invalid_arguments', basis: null },
  maximum: { class: 'invalid_arguments', basis: null },
  exclusiveMinimum: { class: 'invalid_arguments', basis: null },
  exclusiveMaximum: { class: 'invalid_arguments', basis: null },
  multipleOf: { class: 'invalid_arguments', basis: null },
  pattern: { class: 'invalid_arguments', basis: null },
  format: { class: 'invalid_arguments', basis: null },
  minItems: { class: 'invalid_arguments', basis: null },
  maxItems: { class: 'invalid_arguments', basis: null },
  uniqueItems: { class: 'invalid_arguments', basis: null },
  items: { class: 'invalid_arguments', basis: null },
  additionalItems: { class: 'invalid_arguments', basis: null },
  prefixItems: { class: 'invalid_arguments', basis: null },
  contains: { class: 'invalid_arguments', basis: null },
  minProperties: { class: 'invalid_arguments', basis: null },
  maxProperties: { class: 'invalid_arguments', basis: null },
  dependentRequired: { class: 'invalid_arguments', basis: null },
  dependencies: { class: 'invalid_arguments', basis: null },
  propertyNames: { class: 'invalid_arguments', basis: null },
  anyOf: { class: 'invalid_arguments', basis: null },
  oneOf: { class: 'invalid_arguments', basis: null },
  allOf: { class: 'invalid_arguments', basis: null },
  not: { class: 'invalid_arguments', basis: null },
  if: { class: 'invalid_arguments', basis: null },
  unevaluatedProperties: { class: 'invalid_arguments', basis: null },
  unevaluatedItems: { class: 'invalid_arguments', basis: null },
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
