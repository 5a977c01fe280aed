import { expect, test } from 'bun:test';
import { NO_REDACTION, redactCut, redactorFor } from './redact.ts';

test('every occurrence of a placed value becomes [redacted:NAME]; the longer of two overlapping values wins', () => {
  const r = redactorFor({ TOKEN: 'tok-123456', PREFIX: 'tok-12', PROJECT: '/work/p' });
  expect(r.redact('a tok-123456 b tok-12 c tok-123456')).toBe('a [redacted:TOKEN] b [redacted:PREFIX] c [redacted:TOKEN]');
  expect(r.redact('cd /work/p/x')).toBe('cd [redacted:PROJECT]/x');
  expect(r.values).toEqual(['tok-123456', '/work/p', 'tok-12']);
});

test('values shorter than 4 characters are left alone: a value 1 must not blank every digit', () => {
  const r = redactorFor({ ONE: '1', TZ: 'UTC', LANG: 'C' });
  expect(r).toBe(NO_REDACTION);
  expect(r.redact('exit 1 at 10:01 UTC, LANG C')).toBe('exit 1 at 10:01 UTC, LANG C');
});

test('regex characters in a value are matched literally; one value under two names is named once', () => {
  const r = redactorFor({ B: 'a.b*c(d)', A: 'a.b*c(d)' });
  expect(r.redact('x a.b*c(d) axbbc(d)')).toBe('x [redacted:A] axbbc(d)');
});

test('a text cut from a longer one loses exactly the edge that may hold part of a value, and says so', () => {
  const r = redactorFor({ SECRET: 'abcdefgh' });
  // A tail that begins with the end of the value ("efgh"): only that part goes.
  expect(redactCut(r, 'efgh tail text', 'start')).toBe('… tail text');
  // A head that ends with the start of the value ("abcd"), or with a character the cut split.
  expect(redactCut(r, 'head text abcd', 'end')).toBe('head text …');
  expect(redactCut(r, 'head text abc\uFFFD', 'end')).toBe('head text …');
  // An edge that could not be part of a value is kept whole.
  expect(redactCut(r, 'head text xyz', 'end')).toBe('head text xyz');
  expect(redactCut(r, 'xyz tail', 'start')).toBe('xyz tail');
  expect(redactCut(r, 'whole abcdefgh here', 'none')).toBe('whole [redacted:SECRET] here');
  expect(redactCut(NO_REDACTION, 'efgh tail', 'start')).toBe('efgh tail');
});
