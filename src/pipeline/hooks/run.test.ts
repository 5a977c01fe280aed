import { describe, expect, test } from 'bun:test';
import type { HookInput } from '../hook.ts';
import { inProcessHook } from './in-process.ts';
import { combineHookResults, runHooks, selectHooks } from './run.ts';

const input: HookInput = {
  session_id: 's',
  transcript_path: 't',
  cwd: '/',
  hook_event_name: 'PreToolUse',
  tool_name: 'create_card',
  tool_input: { x: 1 },
  tool_use_id: 'u',
};

describe('selectHooks', () => {
  test('filters by event and matcher, keeping configured order', () => {
    const hooks = [
      inProcessHook('PreToolUse', 'create_card', 'a', () => ({})),
      inProcessHook('PostToolUse', '*', 'b', () => ({})),
      inProcessHook('PreToolUse', 'read_source', 'c', () => ({})),
      inProcessHook('PreToolUse', '', 'd', () => ({})),
    ];
    expect(selectHooks(hooks, 'PreToolUse', 'create_card').map((h) => h.name)).toEqual(['a', 'd']);
    expect(selectHooks(hooks, 'PostToolUse', 'create_card').map((h) => h.name)).toEqual(['b']);
  });
});

describe('runHooks', () => {
  test('runs in order, names each result, records a throw as non-blocking', async () => {
    const seen: string[] = [];
    const hooks = [
      inProcessHook('PreToolUse', '*', 'first', (given) => (seen.push(`first:${given.tool_name}`), { permissionDecision: 'allow' })),
      inProcessHook('PreToolUse', '*', 'boom', () => {
        throw new Error('bug in hook');
      }),
      inProcessHook('PreToolUse', '*', 'last', async () => (seen.push('last'), { updatedInput: { x: 2 } })),
    ];
    const results = await runHooks(hooks, input, new AbortController().signal);
    expect(seen).toEqual(['first:create_card', 'last']);
    expect(results).toEqual([
      { hook: 'first', permissionDecision: 'allow' },
      { hook: 'boom', note: 'hook threw: bug in hook; non-blocking' },
      { hook: 'last', updatedInput: { x: 2 } },
    ]);
  });
});

describe('combineHookResults', () => {
  test('no results: no verdict', () => {
    expect(combineHookResults([])).toEqual({});
  });

  test('most restrictive decision wins: deny > ask > allow', () => {
    const verdict = combineHookResults([
      { hook: 'a', permissionDecision: 'allow' },
      { hook: 'b', permissionDecision: 'deny', reason: 'r' },
      { hook: 'c', permissionDecision: 'ask' },
    ]);
    expect(verdict.decision).toEqual({ decision: 'deny', hook: 'b', reason: 'r' });
  });

  test('first block is kept', () => {
    const verdict = combineHookResults([{ hook: 'a' }, { hook: 'b', block: 'one' }, { hook: 'c', block: 'two' }]);
    expect(verdict.block).toEqual({ hook: 'b', reason: 'one' });
  });

  test('equal rewrites agree; different rewrites block', () => {
    const same = combineHookResults([
      { hook: 'a', updatedInput: { q: 1, r: 2 } },
      { hook: 'b', updatedInput: { r: 2, q: 1 } },
    ]);
    expect(same).toEqual({ updatedInput: { hook: 'a', input: { q: 1, r: 2 } } });
    const conflict = combineHookResults([
      { hook: 'a', updatedInput: { q: 1 } },
      { hook: 'b', updatedInput: { q: 2 } },
    ]);
    expect(conflict.block?.reason).toBe('hooks a and b rewrote the input differently');
  });
});
