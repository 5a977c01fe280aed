import { canonicalJson } from '../../contract/index.ts';
import { withDeadline } from '../deadline.ts';
import type { Hook, HookEvent, HookInput, HookResult } from '../hook.ts';
import { matches } from './matcher.ts';

/**
 * The hooks for one event whose matcher selects any of the tool's names
 * (see `toolNames`), in configured order.
 */
export function selectHooks(hooks: readonly Hook[], event: HookEvent, names: readonly string[]): readonly Hook[] {
  return hooks.filter((hook) => hook.event === event && names.some((name) => matches(hook.matcher, name)));
}

/** What a set of hook results means for the call, folded. */
export interface HookVerdict {
  /** First block in configured order (exit 2, `decision: "block"`). */
  readonly block?: { readonly hook: string; readonly reason: string };
  /** Two hooks rewrote the input differently; the call must not pick one. */
  readonly conflict?: { readonly hooks: readonly [string, string] };
  /** The most restrictive decision: deny > ask > allow. Feed it to the permission policy. */
  readonly decision?: { readonly decision: 'allow' | 'deny' | 'ask'; readonly hook: string; readonly reason?: string };
  /** The rewritten input, when every rewriting hook gave the same one. */
  readonly updatedInput?: { readonly hook: string; readonly input: unknown };
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    // A value JSON cannot carry is never "the same" as another: treat it as a conflict.
    return false;
  }
}

/**
 * Folds hook results, in configured order. Two hooks that rewrite the input
 * differently are a conflict: picking one would make the outcome depend on
 * which hook is listed (or finishes) first.
 */
export function combineHookResults(results: readonly HookResult[]): HookVerdict {
  let verdict: HookVerdict = {};
  for (const result of results) {
    if (result.block !== undefined && verdict.block === undefined) {
      verdict = { ...verdict, block: { hook: result.hook, reason: result.block } };
    }
    const decision = result.permissionDecision;
    if (decision !== undefined && (verdict.decision === undefined || RANK[decision] > RANK[verdict.decision.decision])) {
      verdict = { ...verdict, decision: { decision, hook: result.hook, ...(result.reason !== undefined ? { reason: result.reason } : {}) } };
    }
    if (result.updatedInput === undefined) continue;
    const earlier = verdict.updatedInput;
    if (earlier === undefined) verdict = { ...verdict, updatedInput: { hook: result.hook, input: result.updatedInput } };
    else if (verdict.conflict === undefined && !sameJson(earlier.input, result.updatedInput)) {
      verdict = { ...verdict, conflict: { hooks: [earlier.hook, result.hook] } };
    }
  }
  return verdict;
}

/**
 * caplab's deadline for a hook that sets no `timeoutMs`: 60 s (Claude Code's
 * default is 600 s). A command hook sets its own (`commandHook`).
 */
export const DEFAULT_IN_PROCESS_TIMEOUT_MS = 60_000;

/**
 * Runs one hook to a value: a hook that throws or outlives its timeout
 * (`DEFAULT_IN_PROCESS_TIMEOUT_MS` when it sets none) is recorded as a
 * non-blocking error (as a command hook's crash is), never thrown. Its
 * signal aborts on the run's interruption or at the timeout; a run already
 * interrupted starts no hook.
 */
async function settle(hook: Hook, input: HookInput, signal: AbortSignal): Promise<HookResult> {
  if (signal.aborted) return { hook: hook.name, note: 'aborted before start' };
  const timeoutMs = hook.timeoutMs ?? DEFAULT_IN_PROCESS_TIMEOUT_MS;
  const timedOut = (): HookResult => ({ hook: hook.name, timedOut: true, note: `timed out after ${timeoutMs} ms; non-blocking` });
  try {
    return await withDeadline(signal, timeoutMs, timedOut, (hookSignal) => hook.run(input, hookSignal));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { hook: hook.name, note: `hook threw: ${detail}; non-blocking` };
  }
}

/** PostToolUse cannot rewrite or decide (the tool already ran); what a hook says anyway is noted. */
function forEvent(event: HookEvent, result: HookResult): HookResult {
  if (event === 'PreToolUse' || (result.updatedInput === undefined && result.permissionDecision === undefined)) return result;
  const { updatedInput, permissionDecision, ...rest } = result;
  const ignored = [permissionDecision !== undefined ? 'permissionDecision' : '', updatedInput !== undefined ? 'updatedInput' : ''].filter(Boolean);
  const note = `${ignored.join(' and ')} ignored for ${event}`;
  return { ...rest, note: rest.note !== undefined ? `${rest.note}; ${note}` : note };
}

/**
 * The hook engine (Claude Code's semantics): the hooks of `event` that match
 * any of the tool's names run in parallel, each with the same input (no hook
 * sees another's rewrite); results come back in configured order whatever
 * order they finish in, so a run's record does not depend on timing.
 *
 * @returns Every result, and the fold of them (`combineHookResults`).
 */
export async function runHookEvent(
  hooks: readonly Hook[],
  event: HookEvent,
  names: readonly string[],
  input: HookInput,
  signal: AbortSignal,
): Promise<{ readonly results: readonly HookResult[]; readonly verdict: HookVerdict }> {
  const selected = selectHooks(hooks, event, names);
  const results = (await Promise.all(selected.map((hook) => settle(hook, input, signal)))).map((result) => forEvent(event, result));
  return { results, verdict: combineHookResults(results) };
}
