import { expect, test } from 'bun:test';
import { rng } from './rng.ts';

test('the same seed gives the same sequence; another seed another', () => {
  const draw = (seed: number) => Array.from({ length: 8 }, ((r) => () => r.int(1000))(rng(seed)));
  expect(draw(1)).toEqual(draw(1));
  expect(draw(1)).not.toEqual(draw(2));
  // A seed is read as 32 bits.
  expect(draw(1)).toEqual(draw(1 + 2 ** 32));
  const r = rng(7);
  for (let i = 0; i < 1000; i++) {
    const n = r.int(5);
    expect(n >= 0 && n < 5 && Number.isInteger(n)).toBe(true);
  }
});
