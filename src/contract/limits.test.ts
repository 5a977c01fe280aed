import { expect, test } from 'bun:test';
import { canonicalJson } from './canonical.ts';
import { ARGUMENT_BOUNDS, checkJson, FILE_JSON_BOUNDS, jsonTooDeep, LIMITS, parseJsonBounded, recordable } from './limits.ts';

const nested = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};

test('depth: a scalar is 0, each array or object one level; the limit itself passes', () => {
  expect(checkJson(1, { maxDepth: 0 }).ok).toBe(true);
  expect(checkJson(nested(LIMITS.argumentsDepth), ARGUMENT_BOUNDS).ok).toBe(true);
  const deep = checkJson(nested(LIMITS.argumentsDepth + 1), ARGUMENT_BOUNDS);
  expect(deep.ok ? 'ok' : `${deep.class}/${deep.kind}`).toBe('invalid_arguments/too_deep');
  // A long path keeps its first and last ten steps.
  expect(deep.ok ? '' : deep.message).toContain(`$${'.a'.repeat(10)}…(${LIMITS.argumentsDepth - 20} more)…${'.a'.repeat(10)} `);
});

test('a parsed 1e400 is refused as non_finite_number, naming where', () => {
  const value = JSON.parse('{"list":[1,{"n":1e400}]}') as unknown;
  const checked = checkJson(value, ARGUMENT_BOUNDS);
  expect(checked.ok ? 'ok' : `${checked.class}/${checked.kind}`).toBe('invalid_arguments/non_finite_number');
  expect(checked.ok ? '' : checked.message).toContain('$.list[1].n');
  expect(checkJson([Number.NaN], ARGUMENT_BOUNDS).ok).toBe(false);
});

test('size is the canonical JSON in UTF-8 bytes, exactly: the byte count passes, one less fails', () => {
  const samples: unknown[] = [
    { b: [1, -2.5e-7, 'é"\\\n', null, true, false], a: { '': [], 'ké': {} }, skip: undefined },
    [],
    '日本',
    [[[{ x: 1 }]], 0, 1e21],
  ];
  for (const value of samples) {
    const bytes = new TextEncoder().encode(canonicalJson(value)).byteLength;
    expect(checkJson(value, { maxDepth: 64, maxBytes: bytes }).ok).toBe(true);
    const over = checkJson(value, { maxDepth: 64, maxBytes: bytes - 1 });
    expect(over.ok ? 'ok' : `${over.class}/${over.kind}`).toBe('invalid_arguments/too_large');
  }
});

test('a value far past every limit is refused without a RangeError', () => {
  const text = '['.repeat(100_000) + ']'.repeat(100_000);
  const checked = checkJson(JSON.parse(text), ARGUMENT_BOUNDS);
  expect(checked.ok ? 'ok' : checked.kind).toBe('too_deep');
});

test('recordable: JSON values pass through; others become a stand-in that names why', () => {
  const fine = { a: [1, 'x'] };
  expect(recordable(fine)).toBe(fine);
  const standIn = recordable({ n: Number.POSITIVE_INFINITY });
  expect(canonicalJson(standIn)).toContain('invalid_arguments/non_finite_number');
  expect(canonicalJson(standIn)).toContain('$.n');
});

test('parseJsonBounded: depth is refused from the text, before parsing; strings do not count', () => {
  // Never closed: a parser would call it a syntax error; the depth scan refuses it first.
  const deep = parseJsonBounded('['.repeat(1_000_000), FILE_JSON_BOUNDS);
  expect(deep.ok ? 'ok' : `${deep.class}/${deep.kind}`).toBe('invalid_arguments/too_deep');
  const quoted = parseJsonBounded(`{"a":"${'['.repeat(500)}\\"{{{"}`, FILE_JSON_BOUNDS);
  expect(quoted.ok).toBe(true);
  const edge = parseJsonBounded('['.repeat(LIMITS.fileJsonDepth) + ']'.repeat(LIMITS.fileJsonDepth), FILE_JSON_BOUNDS);
  expect(edge.ok).toBe(true);
  const over = parseJsonBounded('['.repeat(LIMITS.fileJsonDepth + 1) + ']'.repeat(LIMITS.fileJsonDepth + 1), FILE_JSON_BOUNDS);
  expect(over.ok ? 'ok' : over.kind).toBe('too_deep');
  const infinite = parseJsonBounded('{"n":-1e400}', FILE_JSON_BOUNDS);
  expect(infinite.ok ? 'ok' : infinite.kind).toBe('non_finite_number');
  const broken = parseJsonBounded('{"n":', FILE_JSON_BOUNDS);
  expect(broken.ok ? 'ok' : `${broken.class}/${broken.kind}`).toBe('invalid_arguments/not_json');
});

test('jsonTooDeep counts nesting outside strings only', () => {
  expect(jsonTooDeep('[[[]]]', 3)).toBe(false);
  expect(jsonTooDeep('[[[[]]]]', 3)).toBe(true);
  expect(jsonTooDeep('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
  expect(jsonTooDeep('['.repeat(100_000), 256)).toBe(true);
});
