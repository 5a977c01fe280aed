import { describe, expect, test } from 'bun:test';
import { compileMatcher, matches } from './matcher.ts';

describe('matches', () => {
  // [matcher, tool name, expected, why]
  const table: readonly (readonly [string | undefined, string, boolean, string])[] = [
    [undefined, 'create_card', true, 'no matcher = all'],
    ['', 'create_card', true, 'empty = all'],
    ['*', 'mcp__fixture__read_source', true, 'star = all'],
    ['create_card', 'create_card', true, 'plain name, exact'],
    ['create_card', 'create_card_v2', false, 'plain name is not a prefix'],
    ['create', 'create_card', false, 'plain name is not a substring'],
    ['Create_card', 'create_card', false, 'case-sensitive'],
    ['read_source|create_card', 'create_card', true, 'pipe list, exact'],
    ['read_source|create_card', 'read_source', true, 'pipe list, first name'],
    ['read_source|create_card', 'read_sources', false, 'pipe list is still exact'],
    ['mcp__fixture', 'mcp__fixture__read_source', false, 'server prefix is an exact name here (unlike permission rules)'],
    ['mcp__fixture__.*', 'mcp__fixture__read_source', true, 'regex for a whole server'],
    ['mcp__fixture__.*', 'mcp__other__read_source', false, 'regex, other server'],
    ['^create', 'create_card', true, 'regex, unanchored end'],
    ['card$', 'create_card', true, 'regex, unanchored start'],
    ['^create$', 'create_card', false, 'regex, anchored both ends'],
    ['read.source', 'read_source', true, 'a dot makes it a regex'],
    ['(read|create)_.*', 'create_card', true, 'groups are regex'],
    ['[', 'create_card', false, 'invalid regex matches nothing'],
  ];
  for (const [matcher, name, expected, why] of table) {
    test(`${JSON.stringify(matcher)} vs ${name} → ${expected} (${why})`, () => {
      expect(matches(matcher, name)).toBe(expected);
    });
  }
});

describe('compileMatcher', () => {
  test('an invalid regex is a failure value naming the matcher', () => {
    const compiled = compileMatcher('(unclosed');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) {
      expect(compiled.class).toBe('invalid_arguments');
      expect(compiled.kind).toBe('bad_matcher');
      expect(compiled.message).toContain('"(unclosed"');
    }
  });
});
