import { describe, expect, jest, test } from 'bun:test';
import type { Hook, HookInput, HookResult } from '../hook.ts';
import { inProcessHook } from './in-process.ts';
import { combineHookResults, DEFAULT_IN_PROCESS_TIMEOUT_MS, runHookEvent, selectHooks } from './run.ts';

const input: HookInput = {
  session_id: 's',
  transcript_path: 't',
  cwd: '/',
  hook_event_name: 'PreToolUse',
  tool_name: 'create_card',
  tool_input: { x: 1 },
  tool_use_id: 'u',
};
const signal = new AbortController().signal;

/** A promise and its resolver, to let a test decide who finishes first. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

describe('selectHooks', () => {
  test('filters by event and by any of the tool names, keeping configured order', () => {
    const hooks = [
      inProcessHook('PreToolUse', 'create_card', 'a', () => ({})),
      inProcessHook('PostToolUse', '*', 'b', () => ({})),
      inProcessHook('PreToolUse', 'read_source', 'c', () => ({})),
      inProcessHook('PreToolUse', '', 'd', () => ({})),
      inProcessHook('PreToolUse', 'mcp__fixture__.*', 'e', () => ({})),
    ];
    expect(selectHooks(hooks, 'PreToolUse', ['create_card']).map((h) => h.name)).toEqual(['a', 'd']);
    expect(selectHooks(hooks, 'PostToolUse', ['create_card']).map((h) => h.name)).toEqual(['b']);
    expect(selectHooks(hooks, 'PreToolUse', ['read_source', 'mcp__fixture__read_source']).map((h) => h.name)).toEqual(['c', 'd', 'e']);
  });
});

describe('runHookEvent', () => {
  test('hooks run in parallel: the first waits for the second to have started', async () => {
    const second = gate();
    const hooks = [
      // If the engine ran hooks one after another, this one would wait until its timeout.
      inProcessHook('PreToolUse', '*', 'first', async () => (await second.promise, { permissionDecision: 'allow' }), { timeoutMs: 2_000 }),
      inProcessHook('PreToolUse', '*', 'second', () => (second.open(), {})),
    ];
    const { results } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input, signal);
    expect(results).toEqual([{ hook: 'first', permissionDecision: 'allow' }, { hook: 'second' }]);
  });

  test('results come back in configured order whatever order the hooks finish in; every hook sees the same input', async () => {
    const late = gate();
    const seen: unknown[] = [];
    const hooks = [
      inProcessHook('PreToolUse', '*', 'slow', async (given) => (seen.push(given), await late.promise, { updatedInput: { x: 2 } })),
      inProcessHook('PreToolUse', '*', 'fast', (given) => (seen.push(given), late.open(), { updatedInput: { x: 2 } })),
    ];
    const { results, verdict } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input, signal);
    expect(results.map((r) => r.hook)).toEqual(['slow', 'fast']);
    expect(seen).toEqual([input, input]);
    expect(verdict).toEqual({ updatedInput: { hook: 'slow', input: { x: 2 } } });
  });

  test('a hook that throws or times out is recorded and does not block', async () => {
    const hooks = [
      inProcessHook('PreToolUse', '*', 'boom', () => {
        throw new Error('bug in hook');
      }),
      inProcessHook('PreToolUse', '*', 'stuck', (_given, hookSignal) => new Promise((resolve) => hookSignal.addEventListener('abort', () => resolve({ block: 'too late' }))), { timeoutMs: 1 }),
      inProcessHook('PreToolUse', '*', 'ok', () => ({ permissionDecision: 'ask' })),
    ];
    const { results, verdict } = await runHookEvent(hooks, 'PreToolUse', ['create_card'], input, signal);
    expect(results).toEqual([
      { hook: 'boom', note: 'hook threw: bug in hook; non-blocking' },
      { hook: 'stuck', timedOut: true, note: 'timed out after 1 ms; non-blocking' },
      { hook: 'ok', permissionDecision: 'ask' },
    ]);
    expect(verdict).toEqual({ decision: { decision: 'ask', hook: 'ok' } });
  });

  /** A library hook with no `async` wrapper that answers in its abort listener: the ordering bug stays observable. */
  const answersOnAbort = (name: string, options: { readonly timeoutMs?: number } = {}): Hook => ({
    name,
    event: 'PreToolUse',
    matcher: '*',
    ...options,
    run: (_given, hookSignal) => new Promise<HookResult>((resolve) => hookSignal.addEventListener('abort', () => resolve({ hook: name, block: 'too late' }), { once: true })),
  });

  test('a hook answering in its abort listener at its timeout is recorded as timed out; its late block is not taken', async () => {
    const { results, verdict } = await runHookEvent([answersOnAbort('late', { timeoutMs: 1 })], 'PreToolUse', ['create_card'], input, signal);
    expect([results, verdict]).toEqual([[{ hook: 'late', timedOut: true, note: 'timed out after 1 ms; non-blocking' }], {}]);
  });

  test('a hook that sets no timeout gets DEFAULT_IN_PROCESS_TIMEOUT_MS: it cannot hang the call', async () => {
    jest.useFakeTimers();
    try {
      const running = runHookEvent([answersOnAbort('hangs')], 'PreToolUse', ['create_card'], input, signal);
      jest.advanceTimersByTime(DEFAULT_IN_PROCESS_TIMEOUT_MS);
      const { results } = await running;
      expect(results).toEqual([{ hook: 'hangs', timedOut: true, note: `timed out after ${DEFAULT_IN_PROCESS_TIMEOUT_MS} ms; non-blocking` }]);
    } finally {
      jest.useRealTimers();
    }
  });

  test("the run's interruption aborts a running hook's signal; a run already interrupted starts no hook", async () => {
    const run = new AbortController();
    const interrupting: Hook = { ...answersOnAbort('stopped', { timeoutMs: 600_000 }), run: (given, hookSignal) => {
      const answered = answersOnAbort('stopped').run(given, hookSignal);
      run.abort('SIGINT');
      return answered;
    } };
    const during = await runHookEvent([interrupting], 'PreToolUse', ['create_card'], input, run.signal);
    expect(during.results).toEqual([{ hook: 'stopped', block: 'too late' }]);
    let started = 0;
    const counted = inProcessHook('PreToolUse', '*', 'counted', () => (started++, {}));
    const after = await runHookEvent([counted], 'PreToolUse', ['create_card'], input, run.signal);
    expect([after.results, started]).toEqual([[{ hook: 'counted', note: 'aborted before start' }], 0]);
  });

  test('PostToolUse: a rewrite or a decision is noted and ignored; a block is kept', async () => {
    const hooks = [inProcessHook('PostToolUse', '*', 'p', () => ({ updatedInput: { x: 3 }, permissionDecision: 'deny', block: 'flag it' }))];
    const { results, verdict } = await runHookEvent(hooks, 'PostToolUse', ['create_card'], { ...input, hook_event_name: 'PostToolUse' }, signal);
    expect(results).toEqual([{ hook: 'p', block: 'flag it', note: 'permissionDecision and updatedInput ignored for PostToolUse' }]);
    expect(verdict).toEqual({ block: { hook: 'p', reason: 'flag it' } });
  });

  test('no matching hook: nothing runs, no verdict', async () => {
    const hooks = [inProcessHook('PreToolUse', 'read_source', 'r', () => ({ block: 'no' }))];
    expect(await runHookEvent(hooks, 'PreToolUse', ['create_card'], input, signal)).toEqual({ results: [], verdict: {} });
  });
});

describe('combineHookResults', () => {
  test('most restrictive decision wins: deny > ask > allow', () => {
    const verdict = combineHookResults([
      { hook: 'a', permissionDecision: 'allow' },
      { hook: 'b', permissionDecision: 'deny', reason: 'r' },
      { hook: 'c', permissionDecision: 'ask' },
    ]);
    expect(verdict.decision).toEqual({ decision: 'deny', hook: 'b', reason: 'r' });
  });

  test('first block in configured order is kept', () => {
    const verdict = combineHookResults([{ hook: 'a' }, { hook: 'b', block: 'one' }, { hook: 'c', block: 'two' }]);
    expect(verdict.block).toEqual({ hook: 'b', reason: 'one' });
  });

  test('equal rewrites agree (key order aside); different rewrites are a conflict naming both hooks', () => {
    const same = combineHookResults([
      { hook: 'a', updatedInput: { q: 1, r: 2 } },
      { hook: 'b', updatedInput: { r: 2, q: 1 } },
    ]);
    expect(same).toEqual({ updatedInput: { hook: 'a', input: { q: 1, r: 2 } } });
    const conflict = combineHookResults([
      { hook: 'a', updatedInput: { q: 1 } },
      { hook: 'b', updatedInput: { q: 1 } },
      { hook: 'c', updatedInput: { q: 2 } },
    ]);
    expect(conflict.conflict).toEqual({ hooks: ['a', 'c'] });
    expect(conflict.block).toBeUndefined();
  });
});
