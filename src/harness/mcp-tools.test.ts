import { expect, test } from 'bun:test';
import { LIMITS } from '../contract/index.ts';
import { tailUtf8 } from './mcp-tools.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;

test('recorded server stderr is the tail of at most LIMITS.serverStderrBytes bytes, cut on a code point', () => {
  const ascii = `${'head '.repeat(2000)}THE END`;
  const tail = tailUtf8(ascii, LIMITS.serverStderrBytes);
  expect(bytesOf(tail)).toBe(LIMITS.serverStderrBytes);
  expect(tail.endsWith('THE END')).toBe(true);
  // Three bytes a character: a byte count cannot land on a boundary every time, and no half character is kept.
  const wide = '語'.repeat(LIMITS.serverStderrBytes);
  const cut = tailUtf8(wide, LIMITS.serverStderrBytes);
  expect(bytesOf(cut)).toBeLessThanOrEqual(LIMITS.serverStderrBytes);
  expect(cut).toBe('語'.repeat(Math.floor(LIMITS.serverStderrBytes / 3)));
  expect(tailUtf8('short', LIMITS.serverStderrBytes)).toBe('short');
});
