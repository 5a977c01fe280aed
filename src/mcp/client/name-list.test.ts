import { expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { LISTED_NAMES, nameList } from './name-list.ts';

test('a message lists at most 20 names, each cut at evidenceChars, then counts the rest', () => {
  const names = Array.from({ length: 10_001 }, (_, i) => `tool_${i}`);
  const listed = nameList(names);
  expect(listed).toBe(`${names.slice(0, LISTED_NAMES).join(', ')} (+9981 more)`);
  expect(nameList(['a', 'b'])).toBe('a, b');
  expect(nameList([])).toBe('');
  const long = nameList(['n'.repeat(1_000_000)]);
  expect([...long].length).toBe(LIMITS.evidenceChars);
});
