import { describe, expect, test } from 'bun:test';
import { clockFromEnv, fixedClock, isoAt } from './clock.ts';

describe('clockFromEnv', () => {
  const fallback = fixedClock(42);

  test('uses the fallback when SOURCE_DATE_EPOCH is unset or empty', () => {
    for (const env of [{}, { SOURCE_DATE_EPOCH: '' }]) {
      const clock = clockFromEnv(env, fallback);
      expect(clock.ok && clock.value()).toBe(42);
    }
  });

  test('fixes the clock to SOURCE_DATE_EPOCH seconds', () => {
    const clock = clockFromEnv({ SOURCE_DATE_EPOCH: '1700000000' }, fallback);
    if (!clock.ok) throw new Error(clock.message);
    expect(clock.value()).toBe(1_700_000_000_000);
    expect(clock.value()).toBe(1_700_000_000_000);
    expect(isoAt(clock.value)).toBe('2023-11-14T22:13:20.000Z');
  });

  test('refuses a malformed value instead of silently using the wall clock', () => {
    for (const raw of ['17e8', '-1', ' 1', '1.5', 'now', '99999999999999999']) {
      const clock = clockFromEnv({ SOURCE_DATE_EPOCH: raw }, fallback);
      expect(clock.ok).toBe(false);
      if (!clock.ok) expect([clock.class, clock.kind]).toEqual(['invalid_arguments', 'bad_source_date_epoch']);
    }
  });
});
