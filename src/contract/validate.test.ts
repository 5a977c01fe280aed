/**
 * validateArguments over the contract schema seam: a valibot schema as before
 * (its output, its issue kinds), a SchemaValidator by the keyword of its
 * first issue, every issue kept, and the value passed on exactly as given.
 */
import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { CONTRACT_KINDS } from './kinds.ts';
import { keywordKind, validateArguments } from './validate.ts';
import { isSchemaValidator, type SchemaValidator, type ValidationIssue } from './validator.ts';

/** A validator that reports what it is told to: the seam, without Ajv (contract loads none). */
function reporting(issues: readonly ValidationIssue[]): SchemaValidator & { seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    kind: 'json-schema',
    jsonSchema: Object.freeze({ type: 'object' }),
    seen,
    validate(value) {
      seen.push(value);
      return issues;
    },
  };
}

test('a valibot schema validates as before: its output (a transform applies), the kind of its first issue', () => {
  const schema = v.strictObject({ word: v.pipe(v.string(), v.trim()), times: v.optional(v.number()) });
  expect(validateArguments(schema, { word: ' a ' })).toEqual({ ok: true, value: { word: 'a' } });
  expect(validateArguments(schema, {})).toMatchObject({ ok: false, class: 'invalid_arguments', kind: 'missing_field' });
  expect(validateArguments(schema, { word: 'a', x: 1 })).toMatchObject({ ok: false, kind: 'extra_field' });
  expect(validateArguments(schema, '{"word":"a"}')).toMatchObject({ ok: false, kind: 'not_object', message: expect.stringContaining('not a JSON-encoded string') });
});

test('a SchemaValidator that finds nothing passes the value on as given: the same object, nothing filled', () => {
  const validator = reporting([]);
  const args = {};
  const checked = validateArguments(validator, args);
  expect(checked.ok && checked.value).toBe(args);
  expect(args).toEqual({});
  expect(validator.seen).toEqual([args]);
  expect(isSchemaValidator(validator)).toBe(true);
  expect(isSchemaValidator(v.object({}))).toBe(false);
});

test("a SchemaValidator's issues: the first one's keyword is the kind, every issue is listed with its path", () => {
  const issues: ValidationIssue[] = [
    { keyword: 'required', path: '/word', message: "must have required property 'word'" },
    { keyword: 'type', path: '/times', message: 'must be integer' },
    { keyword: 'minimum', path: '/items/2/n', message: 'must be >= 1' },
  ];
  const checked = validateArguments(reporting(issues), { times: 'x' });
  expect(checked).toEqual({
    ok: false,
    class: 'invalid_arguments',
    kind: 'required',
    message: "/word: must have required property 'word'",
    issues: ["/word: must have required property 'word'", '/times: must be integer', '/items/2/n: must be >= 1'],
  });
  const root = validateArguments(reporting([{ keyword: 'type', path: '', message: 'must be object' }]), '{}');
  expect(root).toMatchObject({ kind: 'type', message: 'must be object (arguments must be a JSON object, not a JSON-encoded string)', issues: ['must be object'] });
});

test('each keyword the table names is its own kind; any other keyword is invalid_value', () => {
  const keywords = ['required', 'type', 'additionalProperties', 'enum', 'const', 'minLength', 'pattern', 'format', 'anyOf', 'not', 'if', 'unevaluatedProperties', 'dependentRequired'];
  for (const keyword of keywords) {
    expect(keywordKind(keyword)).toBe(keyword as never);
    expect(CONTRACT_KINDS[keyword as keyof typeof CONTRACT_KINDS]).toEqual({ class: 'invalid_arguments', basis: null });
  }
  for (const keyword of ['x-vendor', 'false schema', 'validator', 'constructor', '__proto__', 'toString']) expect(keywordKind(keyword)).toBe('invalid_value');
  expect(validateArguments(reporting([{ keyword: 'x-vendor', path: '/a', message: 'no' }]), {})).toMatchObject({ ok: false, kind: 'invalid_value', issues: ['/a: no'] });
});
