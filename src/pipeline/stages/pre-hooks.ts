import { fail } from '../../contract/index.ts';
import { runHookEvent } from '../hooks/index.ts';
import { toolNames } from '../names.ts';
import { deniedByHookBlock } from '../permissions/index.ts';
import { hookInput } from './hook-input.ts';
import { interrupted } from './interrupted.ts';
import { after, next, stop, type CallStage } from './stage.ts';
import { validateInput } from './validate.ts';

/**
 * pre_hooks: the PreToolUse hooks see the validated input. A block, two
 * rewrites that disagree, or an interruption stops the call; a rewrite is
 * recorded and validated again; a decision goes on to the permission stage.
 */
export const preHooks: CallStage<'tool' | 'input'> = {
  name: 'pre_hooks',
  needs: ['tool', 'input'],
  run(state) {
    const { signal } = state.context;
    if (signal.aborted) return stop(interrupted(signal));
    return after(runHookEvent(state.pipeline.hooks, 'PreToolUse', toolNames(state.tool), hookInput(state, 'PreToolUse', state.input), signal), (pre) => {
      const { block, conflict, decision, updatedInput } = pre.verdict;
      const ran = { hooks: [...state.hooks, ...pre.results], hookDecision: decision };
      if (signal.aborted) return stop(interrupted(signal), ran);
      if (block) return stop(deniedByHookBlock(`hook ${block.hook}`, block.reason), ran);
      if (conflict) {
        const [a, b] = conflict.hooks;
        return stop(fail('permission_denied', 'hook_conflict', `hooks ${a} and ${b} rewrote the input differently; neither rewrite is applied`), ran);
      }
      const detail = `${pre.results.length} hook(s)`;
      // A hook's deny wins at the permission stage; a rewrite it makes moot is not applied.
      if (!updatedInput || decision?.decision === 'deny') return next(ran, detail);
      const rewritten = { ...ran, arguments: { ...state.arguments, rewritten: updatedInput.input } };
      const input = validateInput(state.tool, updatedInput.input, state.context);
      if (!input.ok) return stop({ ...input, message: `input rewritten by hook ${updatedInput.hook} is invalid: ${input.message}` }, rewritten);
      return next({ ...rewritten, input: input.value }, detail);
    });
  },
};
