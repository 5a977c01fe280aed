import { expect, test } from 'bun:test';
import { atLastResort, runLastResort } from './last-resort.ts';

test('the last resort runs each registered cleanup once, newest first; one that throws does not stop the rest; a released one never runs', () => {
  const ran: string[] = [];
  atLastResort(() => ran.push('first'));
  const release = atLastResort(() => ran.push('released'));
  atLastResort(() => {
    ran.push('throws');
    throw new Error('cleanup failed');
  });
  atLastResort(() => ran.push('last'));
  release();
  runLastResort();
  runLastResort();
  expect(ran).toEqual(['last', 'throws', 'first']);
});
