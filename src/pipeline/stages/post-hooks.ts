import { runHookEvent } from '../hooks/index.ts';
import { toolNames } from '../names.ts';
import { textBlock } from '../result-block.ts';
import { hookInput } from './hook-input.ts';
import { after, next, type CallStage } from './stage.ts';

/**
 * post_hooks: the PostToolUse hooks see the input and the result. The tool
 * already ran: a block cannot undo it, it tells the model why (as in Claude
 * Code), so this stage never stops a call.
 */
export const postHooks: CallStage<'tool' | 'input' | 'outcome' | 'hookContent'> = {
  name: 'post_hooks',
  needs: ['tool', 'input', 'outcome', 'hookContent'],
  run(state) {
    const input = hookInput(state, 'PostToolUse', state.input, state.outcome.value.data);
    return after(runHookEvent(state.pipeline.hooks, 'PostToolUse', toolNames(state.tool), input, state.context.signal), (post) => {
      const { block } = post.verdict;
      // The reason is the hook's text, not the tool's: its own block, so it can never pass as the tool's answer.
      const hookContent = block ? [...state.hookContent, textBlock(`[PostToolUse hook ${block.hook}: ${block.reason}]`)] : state.hookContent;
      return next({ hooks: [...state.hooks, ...post.results], hookContent }, `${post.results.length} hook(s)${block ? `; flagged by ${block.hook}` : ''}`);
    });
  },
};
