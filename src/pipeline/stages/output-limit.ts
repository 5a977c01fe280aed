import { LIMITS } from '../../contract/index.ts';
import type { KeptFile } from '../call-record.ts';
import { limitContent, type OutputCut } from '../output-limit.ts';
import { textBlock, type ResultBlock } from '../result-block.ts';
import { next, type CallStage } from './stage.ts';

/** The full output as kept in the run dir: a lone text block's text, else the JSON of the blocks. */
function fullText(content: readonly ResultBlock[]): string {
  const only = content.length === 1 ? content[0] : undefined;
  return only?.type === 'text' ? only.text : JSON.stringify(content);
}

/**
 * The blocks left out, as the note and the detail name them: the first
 * `LIMITS.cutBlocksNamed`, then how many more and their bytes — a result of
 * 10,000 small blocks must not make the note itself larger than the limit.
 */
function droppedNames(cut: OutputCut, suffix = ''): string[] {
  const named = cut.dropped.slice(0, LIMITS.cutBlocksNamed).map((d) => `block ${d.index + 1} (${d.type}, ${d.bytes} bytes)${suffix}`);
  const rest = cut.dropped.slice(LIMITS.cutBlocksNamed);
  if (rest.length === 0) return named;
  return [...named, `${rest.length} more blocks (${rest.reduce((sum, d) => sum + d.bytes, 0)} bytes)${suffix}`];
}

/** What the model is told was left out and where the whole is, in one line. */
function note(cut: OutputCut, kept: KeptFile): string {
  const dropped = droppedNames(cut);
  return `[output truncated: ${cut.fullBytes} bytes${dropped.length > 0 ? `; left out ${dropped.join(', ')}` : ''}; full output kept at ${kept.path} sha256 ${kept.sha256}]`;
}

/** The stage record's detail: the limit, then each block cut or left out. */
function detailOf(cut: OutputCut, maxBytes: number): string {
  const parts = [`truncated to ${maxBytes} bytes`];
  if (cut.cut) parts.push(`block ${cut.cut.index + 1} (text, ${cut.cut.bytes} bytes) cut to ${cut.cut.keptBytes}`);
  parts.push(...droppedNames(cut, ' left out'));
  return parts.join('; ');
}

/**
 * output_limit: the model sees at most the tool's `maxResultBytes` of the
 * result, budgeted over its blocks in order (`limitContent`). Past that, the
 * full output is kept in the run dir and the model is told what was left out
 * and where the whole is, with its sha256: on its own line after a cut text,
 * in a text block of its own when only whole blocks were left out. The record
 * names each block cut or left out (`outputCut`, the stage's detail).
 */
export const outputLimit: CallStage<'tool' | 'outcome'> = {
  name: 'output_limit',
  needs: ['tool', 'outcome'],
  run(state) {
    const { content } = state.outcome.value;
    const maxBytes = state.tool.attributes.maxResultBytes;
    const limited = limitContent(content, maxBytes);
    if (!limited.cut) return next({ modelContent: limited.blocks }, 'within limit');
    const fullOutput = state.pipeline.keepOutput(state.actionId, fullText(content));
    const told = note(limited.cut, fullOutput);
    const last = limited.blocks.at(-1);
    const modelContent = limited.cut.cut && last?.type === 'text' ? [...limited.blocks.slice(0, -1), textBlock(`${last.text}\n${told}`)] : [...limited.blocks, textBlock(told)];
    return next({ modelContent, fullOutput, outputCut: limited.cut }, detailOf(limited.cut, maxBytes));
  },
};
