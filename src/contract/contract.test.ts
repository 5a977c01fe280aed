/**
 * README's first claim, pinned: contracts are exported as JSON Schema 2020-12
 * and hashed as the sha256 of canonical JSON (sorted keys, no whitespace), so
 * a hash never depends on key order or formatting.
 */
import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { canonicalHash, canonicalJson, exportContract, exportSchema, JSON_SCHEMA_DIALECT, sha256Hex } from './index.ts';

test('canonical JSON sorts keys at every depth, drops undefined members and has no whitespace', () => {
  expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, true], e: undefined })).toBe('{"a":[{"c":null,"d":"x"},true],"b":1}');
  expect(canonicalJson({ z: { y: 1, x: 2 } })).toBe(canonicalJson({ z: { x: 2, y: 1 } }));
  expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
});

test('a hash is the sha256 of the canonical JSON, independent of key order', () => {
  expect(canonicalHash({ b: 2, a: 1 })).toBe(sha256Hex('{"a":1,"b":2}'));
  expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('exported schemas declare JSON Schema 2020-12 and are hashed over their canonical JSON', () => {
  const contractLike = { input: v.strictObject({ id: v.string() }), result: v.strictObject({ ok: v.boolean() }) };
  expect(JSON_SCHEMA_DIALECT).toBe('https://json-schema.org/draft/2020-12/schema');
  expect(exportSchema(contractLike.input)['$schema']).toBe(JSON_SCHEMA_DIALECT);
  const exported = exportContract(contractLike as unknown as Parameters<typeof exportContract>[0]);
  expect(exported.inputSchema['$schema']).toBe(JSON_SCHEMA_DIALECT);
  expect(exported.inputSchemaHash).toBe(sha256Hex(canonicalJson(exported.inputSchema)));
  expect(exported.resultSchemaHash).toBe(sha256Hex(canonicalJson(exported.resultSchema)));
});

test('a contract is exported once: every caller shares one deep-frozen export; another contract object gets its own', () => {
  const contractLike = { input: v.strictObject({ id: v.string() }), result: v.strictObject({ ok: v.boolean() }) } as unknown as Parameters<typeof exportContract>[0];
  const first = exportContract(contractLike);
  expect(exportContract(contractLike)).toBe(first);
  expect(Object.isFrozen(first.inputSchema) && Object.isFrozen(first.inputSchema['properties'])).toBe(true);
  const twin = exportContract({ ...contractLike });
  expect(twin).not.toBe(first);
  expect(twin).toEqual(first);
});

test("exporting a contract freezes its own copy, never the caller's arrays (a picklist's options)", () => {
  const options = ['alpha', 'beta'];
  const contractLike = { input: v.strictObject({ id: v.picklist(options) }), result: v.strictObject({ ok: v.boolean() }) } as unknown as Parameters<typeof exportContract>[0];
  const exported = exportContract(contractLike);
  expect((exported.inputSchema['properties'] as Record<string, { enum: string[] }>)['id']!.enum).toEqual(['alpha', 'beta']);
  expect(Object.isFrozen(options)).toBe(false);
  options.push('gamma');
  expect(options).toEqual(['alpha', 'beta', 'gamma']);
});

test("a SchemaValidator's schema is exported and hashed exactly as given: no export step, no dialect added", () => {
  // Written as a server lists it: draft-07, a default, keys in no particular order.
  const listed = { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#', properties: { n: { type: 'integer', default: 3 } } };
  const validator = { kind: 'json-schema', jsonSchema: listed, validate: () => [] } as const;
  const contractLike = { input: validator, result: v.strictObject({ ok: v.boolean() }) } as unknown as Parameters<typeof exportContract>[0];
  const exported = exportContract(contractLike);
  expect(exported.inputSchema).toEqual(listed);
  expect(exported.inputSchemaHash).toBe(canonicalHash(listed));
  expect(exported.inputSchemaHash).toBe(sha256Hex('{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"n":{"default":3,"type":"integer"}},"type":"object"}'));
  // The other schema, valibot's, is exported as before.
  expect(exported.resultSchema['$schema']).toBe(JSON_SCHEMA_DIALECT);
  expect(Object.isFrozen(exported.inputSchema)).toBe(true);
  expect(Object.isFrozen(listed)).toBe(false);
});
