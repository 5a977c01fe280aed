import { expect, test } from 'bun:test';
import { memberKeys } from './raw-json.ts';

test('memberKeys: the keys of a top-level member object in the order written, where JSON.parse moves index-like keys first', () => {
  const text = '{"a": {"x": 1}, "servers": {"b": {"1": 2, "c": 3}, "10": [], "a\\"q": "}", "2": {"d": {}}}, "z": {"y": 0}}';
  expect(Object.keys(JSON.parse(text).servers)).toEqual(['2', '10', 'b', 'a"q']);
  expect(memberKeys(text, 'servers')).toEqual(['b', '10', 'a"q', '2']);
  // Escapes decoded; nested keys, other members' keys and keys inside strings are not the member's.
  expect(memberKeys('{"servers": {"\\u0061": 1, "k": "{\\"no\\": 1}"}}', 'servers')).toEqual(['a', 'k']);
  // A key written twice counts where it is first written (as JSON.parse keeps it), a member written twice as its last.
  expect(memberKeys('{"servers": {"p": 1, "q": 2, "p": 3}}', 'servers')).toEqual(['p', 'q']);
  expect(memberKeys('{"servers": {"old": 1}, "servers": {"new": 1}}', 'servers')).toEqual(['new']);
  // Not an object, or absent: no keys.
  for (const other of ['{"servers": [{"a": 1}]}', '{"servers": 3, "b": {"c": 1}}', '{"other": {"a": 1}}', '[{"servers": {"a": 1}}]']) expect(memberKeys(other, 'servers')).toEqual([]);
});
