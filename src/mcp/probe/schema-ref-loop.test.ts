import { expect, test } from 'bun:test';
import { refLoop } from './schema-ref-loop.ts';

test('a cycle of references that never descends into the instance is found, with the pointers along it', () => {
  expect(refLoop({ type: 'object', $ref: '#' })).toEqual(['#', '#']);
  expect(refLoop({ $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } } })).toEqual(['#/$defs/a', '#/$defs/b', '#/$defs/b/allOf/0', '#/$defs/a']);
  // Through an anchor, a draft-07 `$id: "#name"`, an `$id` resource, not/if/then/else and dependentSchemas.
  expect(refLoop({ $defs: { a: { $anchor: 'x', not: { $ref: '#x' } } } })).toBeDefined();
  expect(refLoop({ definitions: { a: { $id: '#x', if: { $ref: '#x' } } } })).toBeDefined();
  expect(refLoop({ $id: 'https://example.invalid/root.json', $defs: { a: { $id: 'a.json', then: { $ref: 'a.json' } } } })).toBeDefined();
  expect(refLoop({ type: 'object', dependentSchemas: { k: { $ref: '#' } } })).toBeDefined();
  // A pointer into a keyword probe does not know is still followed.
  expect(refLoop({ $ref: '#/x-extra/a', 'x-extra': { a: { anyOf: [{ $ref: '#/x-extra/a' }] } } })).toBeDefined();
});

test('recursion that descends (properties, items, additionalProperties …), remote and missing references are no loop', () => {
  expect(refLoop({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } })).toBeUndefined();
  expect(refLoop({ type: 'object', additionalProperties: { $ref: '#' }, propertyNames: { $ref: '#/$defs/name' }, $defs: { name: { type: 'string' } } })).toBeUndefined();
  expect(refLoop({ $defs: { a: { prefixItems: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' })).toBeUndefined();
  // The same schema reached twice in place is a diamond, not a cycle.
  expect(refLoop({ allOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/a' }], $defs: { a: { type: 'object' } } })).toBeUndefined();
  expect(refLoop({ $ref: 'https://example.invalid/a.json' })).toBeUndefined();
  expect(refLoop({ $ref: '#/$defs/missing', not: { $ref: 'urn:x' } })).toBeUndefined();
  // Values are data, not schemas: a `$ref` inside `const` or `enum` is no reference.
  expect(refLoop({ const: { $ref: '#' }, enum: [{ $ref: '#' }] })).toBeUndefined();
});
