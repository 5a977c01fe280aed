import { clip } from '../base/index.ts';
import { canonicalJson } from '../contract/index.ts';
import { textBlock, type ResultBlock } from './result-block.ts';

/** What the output limit left out of a result, sizes in UTF-8 bytes, blocks by index (from 0). */
export interface OutputCut {
  /** The whole result's size: each text's bytes, each other block's canonical JSON bytes. */
  readonly fullBytes: number;
  /** The text block cut short, if one was: its size and the bytes of it kept. */
  readonly cut?: { readonly index: number; readonly bytes: number; readonly keptBytes: number };
  /** The blocks left out whole, in order. */
  readonly dropped: readonly { readonly index: number; readonly type: ResultBlock['type']; readonly bytes: number }[];
}

/** A result's blocks as the model sees them under a limit, and what was left out (absent when all of it fit). */
export interface LimitedContent {
  readonly blocks: readonly ResultBlock[];
  readonly cut?: OutputCut;
}

const utf8 = new TextEncoder();

/** A block's size under the limit: a text's UTF-8 bytes; any other block's canonical JSON bytes. */
export function blockBytes(block: ResultBlock): number {
  return utf8.encode(block.type === 'text' ? block.text : canonicalJson(block)).byteLength;
}

/**
 * Budgets `maxBytes` over the blocks in order. A block that fits is kept
 * whole. The first text that does not fit is cut to what is left, on a code
 * point (`clip`: never half a character, never half a surrogate pair), and
 * ends the budget: every block after it is left out. A text of which not one
 * character fits is left out the same way. Any other block that does not fit
 * is left out whole and the budget goes on to the next block.
 */
export function limitContent(blocks: readonly ResultBlock[], maxBytes: number): LimitedContent {
  // Most results are texts far under the limit; no UTF-16 unit takes more than 3 bytes, so those are not encoded.
  const units = blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : Infinity), 0);
  if (units * 3 <= maxBytes) return { blocks };
  const sizes = blocks.map(blockBytes);
  const fullBytes = sizes.reduce((sum, bytes) => sum + bytes, 0);
  if (fullBytes <= maxBytes) return { blocks };
  const kept: ResultBlock[] = [];
  const dropped: { index: number; type: ResultBlock['type']; bytes: number }[] = [];
  let cut: OutputCut['cut'];
  let left = maxBytes;
  for (const [index, block] of blocks.entries()) {
    const bytes = sizes[index]!;
    if (left >= 0 && bytes <= left) {
      kept.push(block);
      left -= bytes;
      continue;
    }
    if (block.type === 'text' && left >= 0) {
      const text = clip(block.text, left, 'head');
      left = -1; // the first text that does not fit ends the budget
      if (text !== '') {
        kept.push(textBlock(text));
        cut = { index, bytes, keptBytes: utf8.encode(text).byteLength };
        continue;
      }
    }
    dropped.push({ index, type: block.type, bytes });
  }
  return { blocks: kept, cut: { fullBytes, ...(cut ? { cut } : {}), dropped } };
}
