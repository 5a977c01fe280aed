import { expect, test } from 'bun:test';
import { firstBadUtf8, readLedger } from './read-ledger.ts';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

test('a line that is not UTF-8 or not JSON is named with its byte offset, never a JavaScript error', () => {
  const bad = readLedger(bytes([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d], '\n'));
  expect(!bad.ok && bad.message).toBe('line 1 (from byte 0) is not UTF-8: the first bad byte is at offset 3');
  const notJson = readLedger(bytes('{"seq":'));
  expect(!notJson.ok && notJson.message).toContain('no terminating newline');
  const truncated = readLedger(bytes('{"seq":\n'));
  expect(!truncated.ok && truncated.message).toBe('line 1 (from byte 0, 7 bytes) is not JSON');
  for (const failure of [bad, truncated]) expect(!failure.ok && failure.message).not.toMatch(/TypeError|SyntaxError/);
});

test('firstBadUtf8 finds overlongs, surrogates, stray continuations and truncated sequences', () => {
  expect(firstBadUtf8(bytes('héllo ✓ 😀'))).toBe(bytes('héllo ✓ 😀').length);
  expect(firstBadUtf8(bytes('a', [0xc0, 0xaf]))).toBe(1); // overlong '/'
  expect(firstBadUtf8(bytes([0xed, 0xa0, 0x80]))).toBe(1); // a UTF-16 surrogate
  expect(firstBadUtf8(bytes('ab', [0x80]))).toBe(2); // a continuation with no lead
  expect(firstBadUtf8(bytes([0xe2, 0x9c]))).toBe(2); // cut short
});
