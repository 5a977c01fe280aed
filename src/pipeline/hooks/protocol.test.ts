import { describe, expect, test } from 'bun:test';
import { interpretHook, type Finished } from './protocol.ts';

function done(over: Partial<Finished>): Finished {
  return { hook: 'h', event: 'PreToolUse', exitCode: 0, stdout: '', stderr: '', ...over };
}

describe('interpretHook', () => {
  test('exit 0, no output: nothing said', () => {
    expect(interpretHook(done({}))).toEqual({ hook: 'h', exitCode: 0 });
  });

  test('exit 0 with hookSpecificOutput: decision, reason and updatedInput', () => {
    const stdout = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'why', updatedInput: { a: 1 } },
      extra: 'ignored',
    });
    const result = interpretHook(done({ stdout }));
    expect(result.permissionDecision).toBe('ask');
    expect(result.reason).toBe('why');
    expect(result.updatedInput).toEqual({ a: 1 });
    expect(result.stdout).toBe(stdout);
  });

  test('legacy top-level decision: block blocks with its reason; approve allows', () => {
    expect(interpretHook(done({ stdout: '{"decision":"block","reason":"no"}' })).block).toBe('no');
    expect(interpretHook(done({ stdout: '{"decision":"approve"}' })).permissionDecision).toBe('allow');
  });

  test('an unknown permissionDecision is recorded and ignored', () => {
    const result = interpretHook(done({ stdout: '{"hookSpecificOutput":{"permissionDecision":"maybe"}}' }));
    expect(result.permissionDecision).toBeUndefined();
    expect(result.note).toContain('not valid hook JSON');
  });

  test('output addressed to another event is ignored', () => {
    const result = interpretHook(done({ stdout: '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}' }));
    expect(result.permissionDecision).toBeUndefined();
    expect(result.note).toContain('not PreToolUse');
  });

  test('PostToolUse cannot decide or rewrite; both are noted', () => {
    const stdout = '{"hookSpecificOutput":{"permissionDecision":"deny","updatedInput":{}}}';
    const result = interpretHook(done({ event: 'PostToolUse', stdout }));
    expect(result.permissionDecision).toBeUndefined();
    expect(result.updatedInput).toBeUndefined();
    expect(result.note).toBe('permissionDecision ignored for PostToolUse; updatedInput ignored for PostToolUse');
  });

  test('exit 0 with broken JSON or plain text is recorded only', () => {
    expect(interpretHook(done({ stdout: '{not json' })).note).toContain('not valid hook JSON');
    expect(interpretHook(done({ stdout: 'hello\n' })).note).toBe('non-JSON stdout recorded');
  });

  test('exit 2 blocks with stderr; stdout JSON is ignored', () => {
    const result = interpretHook(done({ exitCode: 2, stderr: ' nope \n', stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}' }));
    expect(result.block).toBe('nope');
    expect(result.permissionDecision).toBeUndefined();
  });

  test('exit 2 with empty stderr still blocks, with a stated reason', () => {
    expect(interpretHook(done({ exitCode: 2 })).block).toContain('no reason on stderr');
  });

  test('other exits and no exit (timeout) never block', () => {
    expect(interpretHook(done({ exitCode: 1, stdout: '{"decision":"block"}' })).block).toBeUndefined();
    const timedOut = interpretHook(done({ exitCode: undefined, timedOut: true, note: 'timed out' }));
    expect(timedOut).toEqual({ hook: 'h', timedOut: true, note: 'timed out' });
  });
});
