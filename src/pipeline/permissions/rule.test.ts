import { describe, expect, test } from 'bun:test';
import { parseRule, parseRules, ruleMatches } from './rule.ts';

describe('parseRule', () => {
  test('forms', () => {
    expect(parseRule('create_card')).toEqual({ ok: true, value: { kind: 'tool', text: 'create_card', name: 'create_card' } });
    expect(parseRule('mcp__fixture')).toEqual({ ok: true, value: { kind: 'server', text: 'mcp__fixture', server: 'fixture' } });
    expect(parseRule('mcp__fixture__*')).toEqual({ ok: true, value: { kind: 'server', text: 'mcp__fixture__*', server: 'fixture' } });
    expect(parseRule('mcp__fixture__read_source')).toEqual({
      ok: true,
      value: { kind: 'tool', text: 'mcp__fixture__read_source', name: 'mcp__fixture__read_source' },
    });
  });

  for (const [text, why] of [
    ['Bash(npm test)', 'content specifiers'],
    ['create_*', 'tool name'],
    ['mcp__*', 'mcp__<server>'],
    ['mcp__fixture__read*', 'plain tool name'],
    ['', 'tool name'],
  ] as const) {
    test(`refuses ${JSON.stringify(text)}`, () => {
      const parsed = parseRule(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.class).toBe('invalid_arguments');
        expect(parsed.kind).toBe('bad_rule');
        expect(parsed.message).toContain(why);
      }
    });
  }

  test('parseRules names the position of the bad rule', () => {
    const parsed = parseRules(['read_source', 'Bash(rm)'], '--deny-tool');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message.startsWith('--deny-tool[1]: ')).toBe(true);
  });
});

describe('ruleMatches', () => {
  const names = ['read_source', 'mcp__fixture__read_source'];
  test('server rule needs a tool after the prefix', () => {
    const server = parseRule('mcp__fixture');
    if (!server.ok) throw new Error('bad');
    expect(ruleMatches(server.value, names)).toBe(true);
    expect(ruleMatches(server.value, ['mcp__fixture__'])).toBe(false);
  });
});
