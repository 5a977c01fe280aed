import { expect, test } from 'bun:test';
import { inert } from './inert.ts';

test('inert writes every C0 and C1 control, DEL, separator and bidi control as an escape, and nothing else', () => {
  expect(inert('\x1b[2J\x1b]0;t\x07')).toBe('\\x1b[2J\\x1b]0;t\\x07');
  expect(inert('a\r\nb\tc\x00')).toBe('a\\x0d\\x0ab\\x09c\\x00');
  expect(inert('\x7f\x80\x9b\x9f')).toBe('\\x7f\\x80\\x9b\\x9f');
  expect(inert('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029')).toBe(
    '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029',
  );
  // Printable text of any script, emoji and a backslash stay as they are.
  const plain = 'read_source — Grüße, 語, 🌍, C:\\path \u00a0 ';
  expect(inert(plain)).toBe(plain);
});
