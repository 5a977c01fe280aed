import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import type { AnySchema } from './contract.ts';
import { fail, ok, type FailureKind, type Outcome } from './failure.ts';
import { isSchemaValidator, type ContractSchema, type SchemaValidator, type ValidationIssue } from './validator.ts';

/** A custom message of the form `snake_kind: text` names its own failure kind. */
const KIND_PREFIX = /^([a-z][a-z0-9_]*): /;

/**
 * A schema's custom message that names its failure kind: `kind: text`. Writing
 * it through here keeps the kind one of a table's (`tsc` checks it where the
 * contract is written; validation reads it back from the text).
 */
export function kindMessage(kind: FailureKind, text: string): string {
  return `${kind}: ${text}`;
}

/**
 * The kind of one valibot issue: missing_field, extra_field, not_object,
 * wrong_type, or the kind a custom message names.
 */
function issueKind(issue: v.BaseIssue<unknown>): FailureKind {
  const objectType = issue.type === 'strict_object' || issue.type === 'object' || issue.type === 'loose_object';
  if (objectType && issue.path && issue.path.length > 0) {
    return issue.expected === 'never' ? 'extra_field' : 'missing_field';
  }
  if (objectType && !issue.path) return 'not_object';
  const named = KIND_PREFIX.exec(issue.message);
  // A named kind applies only once the value has the right base type: `null`
  // where a source id belongs is a wrong type, not an unknown source.
  // The prefix was written by `kindMessage` (or by hand, in a contract of the library's user: then unchecked).
  if (named && (issue.kind !== 'schema' || typeof issue.input === 'string')) return named[1] as FailureKind;
  if (issue.kind === 'validation') return /length|size|items/.test(issue.type) ? 'length' : 'invalid_value';
  return 'wrong_type';
}

function describe(issue: v.BaseIssue<unknown>): string {
  const path = issuePath(issue) ?? '';
  const message = issue.message.replace(KIND_PREFIX, '');
  return path ? `${path}: ${message}` : message;
}

/**
 * The JSON Schema keywords that name a failure kind of their own (contract's
 * table) when a `SchemaValidator`'s first issue is theirs: a bad listed
 * argument is `invalid_arguments/<keyword>`. Any other keyword (one a future
 * draft adds, `$ref`'s target's own, Ajv's `false schema`) is invalid_value.
 */
const KEYWORD_KINDS: ReadonlySet<string> = new Set([
  'required', 'type', 'additionalProperties', 'enum', 'const',
  'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'pattern', 'format',
  'minItems', 'maxItems', 'uniqueItems', 'items', 'additionalItems', 'prefixItems', 'contains',
  'minProperties', 'maxProperties', 'dependentRequired', 'dependencies', 'propertyNames',
  'anyOf', 'oneOf', 'allOf', 'not', 'if', 'unevaluatedProperties', 'unevaluatedItems',
] satisfies FailureKind[]);

/** The kind of a JSON Schema keyword's issue: the keyword itself, if the table has it. */
export function keywordKind(keyword: string): FailureKind {
  return KEYWORD_KINDS.has(keyword) ? (keyword as FailureKind) : 'invalid_value';
}

function describeIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

/** Validates against JSON Schema with its own validator: nothing is filled or coerced, so the value passes as given. */
function validateJsonSchema(schema: SchemaValidator, args: unknown): Outcome<unknown> {
  const issues = schema.validate(args);
  const [first] = issues;
  if (first === undefined) return ok(args);
  const kind = keywordKind(first.keyword);
  const hint =
    kind === 'type' && first.path === '' && typeof args === 'string' ? ' (arguments must be a JSON object, not a JSON-encoded string)' : '';
  return fail('invalid_arguments', kind, `${describeIssue(first)}${hint}`, issues.map(describeIssue));
}

/**
 * Validates arguments against a contract schema: valibot's (its output, so a
 * transform applies) or a `SchemaValidator`'s (the value as given). The first
 * issue decides the kind; every issue is kept in `issues`, each with its
 * path. Class is always invalid_arguments.
 */
export function validateArguments<T>(schema: v.GenericSchema<unknown, T> | ContractSchema, args: unknown): Outcome<T> {
  if (isSchemaValidator(schema)) return validateJsonSchema(schema, args) as Outcome<T>;
  const result = v.safeParse(schema as AnySchema, args);
  if (result.success) return ok(result.output as T);
  const [first] = result.issues;
  const kind = issueKind(first);
  const hint =
    kind === 'not_object' && typeof args === 'string' ? ' (arguments must be a JSON object, not a JSON-encoded string)' : '';
  return fail('invalid_arguments', kind, `${describe(first)}${hint}`, result.issues.map(describe));
}
