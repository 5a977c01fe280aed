import { describe, expect, test } from 'bun:test';
import { LIMITS, redactorFor, sha256Hex } from '../../contract/index.ts';
import { boundText, boundValue, deeperThan, isClipped, jsonPieces } from './report-value.ts';

const redactor = redactorFor({ TOKEN: 'sekret-token' });

describe('boundText', () => {
  test('whole up to reportValueBytes of UTF-8; one byte more is clipped, with the size and hash of the whole', () => {
    const fits = 'é'.repeat(LIMITS.reportValueBytes / 2);
    expect(boundText(fits)).toBe(fits);
    const over = `${fits}x`;
    expect(boundText(over)).toEqual({ clipped: 'bytes', bytes: LIMITS.reportValueBytes + 1, sha256: sha256Hex(over), head: fits });
  });

  test('placed values are redacted before the text is measured, hashed or cut', () => {
    const text = `${'x'.repeat(LIMITS.reportValueBytes)} sekret-token`;
    const redacted = `${'x'.repeat(LIMITS.reportValueBytes)} [redacted:TOKEN]`;
    expect(boundText(text, redactor)).toMatchObject({ bytes: redacted.length, sha256: sha256Hex(redacted) });
    expect(boundText('use sekret-token', redactor)).toBe('use [redacted:TOKEN]');
  });
});

describe('boundValue', () => {
  test(`kept whole, as a redacted copy, up to reportValueDepth (${LIMITS.reportValueDepth}) and reportValueBytes`, () => {
    let deepest: unknown = { key: 'sekret-token' };
    for (let i = 1; i < LIMITS.reportValueDepth; i++) deepest = [deepest];
    expect(JSON.stringify(boundValue(deepest, redactor))).toBe(JSON.stringify(deepest).replace('sekret-token', '[redacted:TOKEN]'));
    expect(boundValue({ readOnlyHint: true })).toEqual({ readOnlyHint: true });
    expect(boundValue(null)).toBeNull();
  });

  test('one level deeper is clipped as `depth`, with the bytes and sha256 of its JSON', () => {
    let deeper: unknown = 1;
    for (let i = 0; i <= LIMITS.reportValueDepth; i++) deeper = [deeper];
    const text = JSON.stringify(deeper);
    expect(boundValue(deeper)).toEqual({ clipped: 'depth', bytes: text.length, sha256: sha256Hex(text), head: text });
  });

  test('a shallow value whose JSON is reportValueBytes is kept; one byte more is clipped as `bytes`', () => {
    const fits = { a: 'x'.repeat(LIMITS.reportValueBytes - 8) };
    expect(boundValue(fits)).toEqual(fits);
    const value = { a: 'x'.repeat(LIMITS.reportValueBytes - 7) };
    const text = JSON.stringify(value);
    expect(text.length).toBe(LIMITS.reportValueBytes + 1);
    expect(boundValue(value)).toEqual({ clipped: 'bytes', bytes: text.length, sha256: sha256Hex(text), head: text.slice(0, LIMITS.reportValueBytes) });
  });

  test('150,000 levels (past what JSON.stringify itself can write) cost no recursion', () => {
    let value: unknown = 1;
    for (let i = 0; i < 150_000; i++) value = { a: value };
    const clipped = boundValue(value, redactor);
    const whole = `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}`;
    expect(clipped).toEqual({ clipped: 'depth', bytes: whole.length, sha256: sha256Hex(whole), head: whole.slice(0, LIMITS.reportValueBytes) });
    expect(isClipped(clipped)).toBe(true);
  });
});

test('jsonPieces writes what JSON.stringify writes: key order, escapes, non-finite numbers as null', () => {
  const value = { z: 1, a: [true, false, null, 'q"\\\n\u2028', -0, 1e21, Number.POSITIVE_INFINITY, { '': [] }], 'k"': { n: 'ü🌍' } };
  expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value));
  expect([...jsonPieces('top')].join('')).toBe('"top"');
});

test('deeperThan counts arrays and objects: a scalar is 0, the bound itself is not deeper', () => {
  expect(deeperThan(1, 0)).toBe(false);
  expect(deeperThan({}, 0)).toBe(true);
  expect(deeperThan([[{}]], 3)).toBe(false);
  expect(deeperThan([[{ a: [] }]], 3)).toBe(true);
});
