import { canonicalJson } from '../../contract/index.ts';
import type { Hook, HookEvent, HookInput, HookResult } from '../hook.ts';
import { matches } from './matcher.ts';

/** The hooks for one event whose matcher selects `toolName`, in configured order. */
export function selectHooks(hooks: readonly Hook[], event: HookEvent, toolName: string): readonly Hook[] {
  return hooks.filter((hook) => hook.event === event && matches(hook.matcher, toolName));
}

/**
 * Runs the selected hooks one after another, in configured order, so the
 * record is deterministic. Every hook sees the same input (as in Claude
 * Code, a hook does not see another hook's rewrite). An in-process hook that
 * throws is recorded as a non-blocking error, like a command hook's crash.
 */
export async function runHooks(hooks: readonly Hook[], input: HookInput, signal: AbortSignal): Promise<readonly HookResult[]> {
  const results: HookResult[] = [];
  for (const hook of hooks) {
    try {
      results.push(await hook.run(input, signal));
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      results.push({ hook: hook.name, note: `hook threw: ${detail}; non-blocking` });
    }
  }
  return results;
}

/** What a set of hook results means for the call, folded. */
export interface HookVerdict {
  /** First block in order (exit 2, `decision: "block"`), or a rewrite conflict. */
  readonly block?: { readonly hook: string; readonly reason: string };
  /** The most restrictive decision: deny > ask > allow. Feed it to the permission policy. */
  readonly decision?: { readonly decision: 'allow' | 'deny' | 'ask'; readonly hook: string; readonly reason?: string };
  /** The rewritten input, when exactly one distinct rewrite was given. */
  readonly updatedInput?: { readonly hook: string; readonly input: unknown };
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/**
 * Folds hook results. Two hooks that rewrite the input differently block the
 * call: picking one silently would make the outcome depend on hook order.
 */
export function combineHookResults(results: readonly HookResult[]): HookVerdict {
  let verdict: HookVerdict = {};
  for (const result of results) {
    if (result.block !== undefined && verdict.block === undefined) {
      verdict = { ...verdict, block: { hook: result.hook, reason: result.block } };
    }
    const decision = result.permissionDecision;
    if (decision !== undefined && (verdict.decision === undefined || RANK[decision] > RANK[verdict.decision.decision])) {
      const reason = result.reason !== undefined ? { reason: result.reason } : {};
      verdict = { ...verdict, decision: { decision, hook: result.hook, ...reason } };
    }
    if (result.updatedInput === undefined) continue;
    const earlier = verdict.updatedInput;
    if (earlier === undefined) {
      verdict = { ...verdict, updatedInput: { hook: result.hook, input: result.updatedInput } };
    } else if (canonicalJson(earlier.input) !== canonicalJson(result.updatedInput) && verdict.block === undefined) {
      verdict = { ...verdict, block: { hook: result.hook, reason: `hooks ${earlier.hook} and ${result.hook} rewrote the input differently` } };
    }
  }
  return verdict;
}
