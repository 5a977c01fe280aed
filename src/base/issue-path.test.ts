import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { issuePath } from './issue-path.ts';

const issuesOf = (schema: v.GenericSchema, value: unknown) => {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? [] : parsed.issues;
};

test('a nested issue is named by its dot path, array indexes included', () => {
  const schema = v.object({ hooks: v.object({ PreToolUse: v.array(v.object({ matcher: v.string() })) }) });
  const [issue] = issuesOf(schema, { hooks: { PreToolUse: [{ matcher: 1 }] } });
  expect(issuePath(issue!)).toBe('hooks.PreToolUse.0.matcher');
});

test('an issue about the whole value has no path', () => {
  const [issue] = issuesOf(v.object({ a: v.string() }), 'not an object');
  expect(issuePath(issue!)).toBeUndefined();
});

test("it spells a path as valibot's getDotPath does for string and number keys", () => {
  const schema = v.strictObject({ a: v.array(v.strictObject({ b: v.number() })) });
  for (const issue of issuesOf(schema, { a: [{ b: 'x', c: 1 }], d: 2 })) expect(issuePath(issue)).toBe(v.getDotPath(issue)!);
});
