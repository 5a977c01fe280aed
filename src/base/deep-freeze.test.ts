import { expect, test } from 'bun:test';
import { deepFreeze } from './deep-freeze.ts';

test('freezes every nested object and array in place and returns the same value', () => {
  const value = { a: { b: [1, { c: 'x' }] }, d: null };
  const frozen = deepFreeze(value);
  expect(frozen).toBe(value);
  expect([value, value.a, value.a.b, value.a.b[1]].map(Object.isFrozen)).toEqual([true, true, true, true]);
  expect(() => {
    (value.a.b[1] as { c: string }).c = 'y';
  }).toThrow();
});

test('primitives and null pass through unchanged', () => {
  expect([deepFreeze(1), deepFreeze('s'), deepFreeze(null), deepFreeze(undefined)]).toEqual([1, 's', null, undefined]);
});
