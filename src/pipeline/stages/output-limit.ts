import { truncateUtf8 } from '../output-limit.ts';
import { next, type Stage } from './stage.ts';

/**
 * output_limit: the model sees at most the tool's `maxResultBytes` of the
 * result text; past that, the full text is kept in the run dir and the
 * truncated text says where, with its sha256.
 */
export const outputLimit: Stage<'tool' | 'outcome'> = {
  name: 'output_limit',
  needs: ['tool', 'outcome'],
  run(state) {
    const { text } = state.outcome.value;
    const maxBytes = state.tool.attributes.maxResultBytes;
    const limited = truncateUtf8(text, maxBytes);
    if (!limited.truncated) return next({ modelText: limited.text }, 'within limit');
    const fullOutput = state.pipeline.keepOutput(state.actionId, text);
    const modelText = `${limited.text}\n[output truncated: ${limited.fullBytes} bytes; full output kept at ${fullOutput.path} sha256 ${fullOutput.sha256}]`;
    return next({ modelText, fullOutput }, `truncated to ${maxBytes} bytes`);
  },
};
