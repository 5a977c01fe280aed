import { expect, test } from 'bun:test';
import { checkNames } from './known.ts';
import { parseRule } from './rule.ts';

const known = [
  { binding: { tool: 'read_source', server: { key: 'caplab-fixture' } }, contract: { name: 'read_source' } },
  { binding: { tool: 'create_card' }, contract: { name: 'create_card' } },
];
function rule(text: string) {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return { where: text, rule: parsed.value };
}
const matcher = (text: string) => ({ where: text, matcher: text });

test('rules naming a known tool, qualified name or server pass without notices', () => {
  const rules = ['read_source', 'create_card', 'mcp__caplab-fixture', 'mcp__caplab-fixture__*', 'mcp__caplab-fixture__read_source'].map(rule);
  expect(checkNames(known, { rules, matchers: ['*', '', 'mcp__caplab-fixture__.*', 'read_source|Bash'].map(matcher) })).toEqual({ ok: true, value: [] });
});

test.each(['mcp__fixture__read_source', 'mcp__fixture', 'mcp__caplab-fixture__create_card', 'Bash'])('rule %s names nothing known: unknown_name, listing what exists', (text) => {
  const checked = checkNames(known, { rules: [rule(text)], matchers: [] });
  expect(checked.ok).toBe(false);
  if (checked.ok) return;
  expect([checked.class, checked.kind, checked.issues]).toEqual(['invalid_arguments', 'unknown_name', [text]]);
  expect(checked.message).toContain('known tools: read_source, mcp__caplab-fixture__read_source, create_card; known servers: mcp__caplab-fixture');
});

test('an mcp__ matcher that matches nothing is an error; any other is a notice', () => {
  const bad = checkNames(known, { rules: [], matchers: [matcher('mcp__fixture__.*')] });
  expect(!bad.ok && bad.kind).toBe('unknown_name');
  const notice = checkNames(known, { rules: [], matchers: [matcher('Bash'), matcher('^Edit')] });
  expect(notice.ok && notice.value.map((n) => n.split(' ')[0])).toEqual(['Bash', '^Edit']);
});

test('a whole-server rule or matcher may name a configured key that lists nothing (it failed to start); a tool of it may not', () => {
  const uses = { rules: ['mcp__down', 'mcp__down__*'].map(rule), matchers: ['mcp__down', 'mcp__down__.*'].map(matcher) };
  expect(checkNames(known, uses, ['down'])).toEqual({ ok: true, value: [] });
  const unknownKey = checkNames(known, uses, ['up']);
  expect(!unknownKey.ok && [unknownKey.kind, unknownKey.issues?.length]).toEqual(['unknown_name', 4]);
  expect(!unknownKey.ok && unknownKey.message).toContain('known servers: mcp__caplab-fixture, mcp__up');
  const tool = checkNames(known, { rules: [rule('mcp__down__echo')], matchers: [matcher('mcp__down__echo')] }, ['down']);
  expect(!tool.ok && tool.issues).toEqual(['mcp__down__echo', 'mcp__down__echo']);
});
