import type { Hook, HookEvent, HookInput, HookResult, SubagentHookInput, ToolHookInput } from '../hook.ts';
import { DEFAULT_IN_PROCESS_TIMEOUT_MS } from './run.ts';

/** The input a hook of event `E` receives. */
export type InputOf<E extends HookEvent> = E extends 'PreToolUse' | 'PostToolUse' ? ToolHookInput : E extends HookEvent ? SubagentHookInput : HookInput;

/** What an in-process hook function returns; `hook` is filled in with its name. */
export type InProcessAnswer = Omit<HookResult, 'hook'>;

/**
 * Creates an in-process hook: a plain function with the same powers as a
 * command hook (observe, decide, rewrite, block), minus the process. It
 * carries a `timeoutMs` the hook engine enforces (caplab's default 60 s,
 * `DEFAULT_IN_PROCESS_TIMEOUT_MS`; Claude Code's is 600 s).
 *
 * @example
 * inProcessHook('PreToolUse', 'create_card', 'no-cards-on-friday', () => ({ block: 'not today' }));
 */
export function inProcessHook<E extends HookEvent>(
  event: E,
  matcher: string,
  name: string,
  fn: (input: InputOf<E>, signal: AbortSignal) => InProcessAnswer | Promise<InProcessAnswer>,
  options: { readonly timeoutMs?: number } = {},
): Hook {
  return {
    name,
    event,
    matcher,
    timeoutMs: options.timeoutMs ?? DEFAULT_IN_PROCESS_TIMEOUT_MS,
    run: async function runInProcessHook(input, signal) {
      // The engine hands a hook only inputs of its own event.
      return { ...(await fn(input as InputOf<E>, signal)), hook: name };
    },
  };
}
