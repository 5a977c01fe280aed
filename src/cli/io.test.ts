import { expect, test } from 'bun:test';
import { paint } from './io.ts';
import { testIo } from './test-io.ts';

test('colour only on a TTY, and never with NO_COLOR set', () => {
  const tty = { ...testIo('/'), isTTY: true };
  expect(paint(tty).ok('x')).toBe('\x1b[32mx\x1b[0m');
  expect(paint({ ...tty, env: { NO_COLOR: '1' } }).ok('x')).toBe('x');
  expect(paint(testIo('/')).bad('x')).toBe('x');
});
