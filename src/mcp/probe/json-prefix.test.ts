import { expect, test } from 'bun:test';
import { jsonPrefix } from './json-prefix.ts';

/** A small random JSON-ish value: every kind JSON.parse gives, plus what only a caller can (undefined, Infinity, -0). */
function randomValue(seed: { n: number }, depth = 0): unknown {
  const next = () => (seed.n = (seed.n * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
  const scalars = [null, true, 'é\n"\u2028\ud83d\ude00', -0, 1e21, Number.POSITIVE_INFINITY, 'x'.repeat(Math.floor(next() * 40))];
  if (pick < scalars.length - 1 || depth > 3) return scalars[pick % scalars.length];
  const size = Math.floor(next() * 4);
  if (pick === 7) return Array.from({ length: size }, () => (next() < 0.1 ? undefined : randomValue(seed, depth + 1)));
  return Object.fromEntries(Array.from({ length: size }, (_, i) => [next() < 0.5 ? String(i) : `k${i}"`, next() < 0.1 ? undefined : randomValue(seed, depth + 1)]));
}

test('jsonPrefix is JSON.stringify cut after max characters: the same text up to max, longer exactly when the whole is', () => {
  const seed = { n: 7 };
  for (let i = 0; i < 500; i++) {
    const value = randomValue(seed);
    const whole = JSON.stringify(value);
    for (const max of [0, 1, 5, 17, 60, 1_000]) {
      const prefix = jsonPrefix(value, max)!;
      expect({ value, max, cut: prefix.slice(0, max), longer: prefix.length > max }).toEqual({ value, max, cut: whole.slice(0, max), longer: whole.length > max });
    }
  }
  expect(jsonPrefix(undefined, 10)).toBeUndefined();
});

test('a value deeper than the stack, or a megabyte long, is cut without recursion and without writing it whole', () => {
  const deep = JSON.parse(`${'{"a":'.repeat(50_000)}0${'}'.repeat(50_000)}`);
  expect(() => JSON.stringify(deep)).toThrow(RangeError);
  expect(jsonPrefix(deep, 10)).toBe('{"a":{"a":{');
  const long = 'k'.repeat(1 << 20);
  for (const value of [{ [long]: long }, [long], { a: long }]) {
    const prefix = jsonPrefix(value, 10)!;
    expect([prefix.slice(0, 10), prefix.length > 10, prefix.length < 20]).toEqual([JSON.stringify(value).slice(0, 10), true, true]);
  }
});
