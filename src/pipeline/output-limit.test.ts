import { expect, test } from 'bun:test';
import { canonicalJson } from '../contract/index.ts';
import { blockBytes, limitContent } from './output-limit.ts';
import { textBlock, type ImageResultBlock } from './result-block.ts';

const image = (data: string): ImageResultBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });
const bytesOf = (text: string) => new TextEncoder().encode(text).byteLength;

test('a block is measured as its text in UTF-8, any other block as its canonical JSON', () => {
  const picture = image('iVBORw0KGgo=');
  expect([blockBytes(textBlock('界')), blockBytes(textBlock('😀')), blockBytes(picture)]).toEqual([3, 4, bytesOf(canonicalJson(picture))]);
});

test('blocks within the limit are given as they are, nothing named as cut', () => {
  const blocks = [textBlock('ab'), textBlock('cd')];
  expect(limitContent(blocks, 4)).toEqual({ blocks });
});

test('a text past the limit is cut on a code point: whole characters up to it, its size and what is kept named', () => {
  expect(limitContent([textBlock('界'.repeat(20))], 32)).toEqual({
    blocks: [textBlock('界'.repeat(10))],
    cut: { fullBytes: 60, cut: { index: 0, bytes: 60, keptBytes: 30 }, dropped: [] },
  });
});

test('the cut never splits a surrogate pair: an astral character is kept whole or not at all', () => {
  const limited = limitContent([textBlock('😀'.repeat(10))], 7);
  expect(limited).toEqual({ blocks: [textBlock('😀')], cut: { fullBytes: 40, cut: { index: 0, bytes: 40, keptBytes: 4 }, dropped: [] } });
  const [kept] = limited.blocks;
  expect(kept?.type === 'text' && kept.text.isWellFormed()).toBe(true);
});

test('an image that fits is kept whole; one that does not is left out whole and the next block still gets what is left', () => {
  const small = image('AAAA');
  const large = image('A'.repeat(500));
  const max = blockBytes(small) + 5;
  expect(limitContent([small, large, textBlock('hello'), textBlock('more')], max)).toEqual({
    blocks: [small, textBlock('hello')],
    cut: {
      fullBytes: blockBytes(small) + blockBytes(large) + 9,
      dropped: [
        { index: 1, type: 'image', bytes: blockBytes(large) },
        { index: 3, type: 'text', bytes: 4 },
      ],
    },
  });
});

test('the first text that does not fit ends the budget: every block after it is left out, however small', () => {
  const picture = image('AAAA');
  expect(limitContent([textBlock('abcdef'), picture, textBlock('x')], 4)).toEqual({
    blocks: [textBlock('abcd')],
    cut: {
      fullBytes: 6 + blockBytes(picture) + 1,
      cut: { index: 0, bytes: 6, keptBytes: 4 },
      dropped: [
        { index: 1, type: 'image', bytes: blockBytes(picture) },
        { index: 2, type: 'text', bytes: 1 },
      ],
    },
  });
});

test('a text of which not one character fits is left out, and ends the budget all the same', () => {
  expect(limitContent([textBlock('ab'), textBlock('界界'), textBlock('c')], 4)).toEqual({
    blocks: [textBlock('ab')],
    cut: {
      fullBytes: 9,
      dropped: [
        { index: 1, type: 'text', bytes: 6 },
        { index: 2, type: 'text', bytes: 1 },
      ],
    },
  });
});
