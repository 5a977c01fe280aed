import { expect, test } from 'bun:test';
import { canonicalJson } from './canonical.ts';

test('keys sorted by code unit, no whitespace, arrays in order, undefined members dropped', () => {
  expect(canonicalJson({ b: 1, a: [3, 'x', null, true, false], c: undefined, é: { z: 0, y: -1.5 } })).toBe(
    '{"a":[3,"x",null,true,false],"b":1,"é":{"y":-1.5,"z":0}}',
  );
  expect(canonicalJson([])).toBe('[]');
  expect(canonicalJson({})).toBe('{}');
  expect(canonicalJson('a"\n')).toBe('"a\\"\\n"');
});

test('equals JSON.stringify with sorted keys on nested values', () => {
  const value = { z: [{ b: [1, [2, [3]]], a: {} }], a: 'q', m: [[], [{}], { k: [null] }] };
  const sorted = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])])) : v;
  expect(canonicalJson(value)).toBe(JSON.stringify(sorted(value)));
});

test('deep nesting costs heap, not stack: 120,000 levels (past JSON.stringify’s own limit) encode without a RangeError', () => {
  const depth = 120_000;
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  const text = canonicalJson(value);
  expect(text.length).toBe(2 * depth);
  expect(text.startsWith('[[[')).toBe(true);
});

test('values JSON cannot carry are a TypeError, never dropped', () => {
  expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(TypeError);
  expect(() => canonicalJson([Number.NaN])).toThrow(TypeError);
  expect(() => canonicalJson([undefined])).toThrow(TypeError);
  expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
  expect(() => canonicalJson(1n)).toThrow(TypeError);
});
