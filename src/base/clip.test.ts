import { expect, test } from 'bun:test';
import { clip, clipChars } from './clip.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;

test('text within the bound is returned whole, at either end', () => {
  for (const text of ['', 'short', '語'.repeat(4), '🌍'.repeat(3)]) {
    expect([clip(text, 12, 'head'), clip(text, 12, 'tail')]).toEqual([text, text]);
  }
});

test('ASCII is cut to exactly the bound: the head keeps the start, the tail the end', () => {
  const text = `START ${'x'.repeat(100)} THE END`;
  expect([clip(text, 9, 'head'), clip(text, 7, 'tail')]).toEqual(['START xxx', 'THE END']);
});

test('a cut never keeps half a character: 2-, 3- and 4-byte characters at every bound', () => {
  for (const char of ['é', '語', '🌍']) {
    const text = char.repeat(20);
    const width = bytesOf(char);
    for (let maxBytes = 0; maxBytes <= 2 * width + 1; maxBytes++) {
      const whole = char.repeat(Math.floor(maxBytes / width));
      expect({ char, maxBytes, head: clip(text, maxBytes, 'head'), tail: clip(text, maxBytes, 'tail') }).toEqual({ char, maxBytes, head: whole, tail: whole });
    }
  }
});

test('mixed widths: the tail starts on the first whole character inside the bound', () => {
  // 'a語' is 4 bytes, then '🌍' 4 and 'b' 1: the last 6 bytes hold half of '語', which is dropped.
  expect(clip('a語🌍b', 6, 'tail')).toBe('🌍b');
  expect(clip('a語🌍b', 6, 'head')).toBe('a語');
});

test('clipChars counts code points: within the bound whole; past it the first max − 1 and `…`, never half a surrogate pair', () => {
  expect(clipChars('abc', 3)).toBe('abc');
  expect(clipChars('abcd', 3)).toBe('ab…');
  // Six code points in twelve UTF-16 units: within a bound of 6, past one of 5.
  expect(clipChars('🌍'.repeat(6), 6)).toBe('🌍'.repeat(6));
  expect(clipChars('🌍'.repeat(6), 5)).toBe(`${'🌍'.repeat(4)}…`);
  expect(clipChars(`a${'🌍'.repeat(3)}`, 3)).toBe('a🌍…');
});
