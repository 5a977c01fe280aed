import { expect, test } from 'bun:test';
import { LIMITS } from '../../../contract/index.ts';
import { versionProfile } from '../../client/index.ts';
import { classifySets } from './classify.ts';
import { fuzzSets, withinCaps } from './fuzz-sets.ts';

const SEARCH = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1, maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 100 }, sort: { type: 'string', enum: ['relevance', 'date'] } },
  required: ['query'],
};
const profile = versionProfile('2025-06-18')!;

test('the same seed gives identical sets, another seed others; none over the caps; at most fuzzSetsPerTool', () => {
  const one = fuzzSets(SEARCH, 300, 1);
  expect(JSON.stringify(fuzzSets(SEARCH, 300, 1))).toBe(JSON.stringify(one));
  expect(JSON.stringify(fuzzSets(SEARCH, 300, 2))).not.toBe(JSON.stringify(one));
  expect(one.filter((set) => !withinCaps(set))).toEqual([]);
  // The caps, measured here apart from withinCaps: JSON bytes, and nesting (an object at the top is 1).
  const depthOf = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
  expect(one.filter((set) => Buffer.byteLength(JSON.stringify(set)) > LIMITS.fuzzArgumentsBytes || depthOf(set) > LIMITS.argumentsDepth + 1)).toEqual([]);
  expect(Math.max(...one.map((set) => Buffer.byteLength(JSON.stringify(set))))).toBeGreaterThan(LIMITS.fuzzArgumentsBytes / 2);
  expect(fuzzSets({ type: 'object' }, LIMITS.fuzzSetsPerTool + 5, 1).length).toBe(LIMITS.fuzzSetsPerTool);
  // The shapes the issue names appear: a missing required field, a long string, deep nesting, a lone surrogate.
  const text = one.map((set) => JSON.stringify(set));
  expect(one.some((set) => typeof set === 'object' && set !== null && !Array.isArray(set) && !('query' in set))).toBe(true);
  expect(text.some((t) => t.length > 10_000)).toBe(true);
  expect(text.some((t) => t.includes('{"a":{"a":{"a":'))).toBe(true);
  expect(text.some((t) => /\\ud800|\\udfff/.test(t))).toBe(true);
});

test('Ajv classifies, not the generator: without additionalProperties an extra field is valid; with false it is not', () => {
  const open = classifySets('search', SEARCH, [{ query: 'q', extra: 1 }, { limit: 5 }, { query: '' }], profile);
  const closed = classifySets('search', { ...SEARCH, additionalProperties: false }, [{ query: 'q', extra: 1 }], profile);
  expect('sets' in open && open.sets.map((s) => s.valid)).toEqual([true, false, false]);
  expect('sets' in closed && closed.sets.map((s) => s.valid)).toEqual([false]);
  // Both kinds occur among generated sets.
  const drawn = classifySets('search', SEARCH, fuzzSets(SEARCH, 200, 1), profile);
  expect('sets' in drawn && [drawn.sets.some((s) => s.valid), drawn.sets.some((s) => !s.valid)]).toEqual([true, true]);
});

test('a schema probe does not compile (a remote $ref) gives no validator: not fuzzed, with its finding', () => {
  const refused = classifySets('r', { type: 'object', properties: { a: { $ref: 'https://example.invalid/a.json' } } }, [{}], profile);
  expect('notFuzzed' in refused && refused.notFuzzed.map((f) => f.kind)).toEqual(['remote_ref']);
});
