import { expect, test } from 'bun:test';
import { ok, sha256Hex } from '../../contract/index.ts';
import { blockBytes } from '../output-limit.ts';
import { textBlock, type ImageResultBlock, type ResultBlock } from '../result-block.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import { outputLimit } from './output-limit.ts';

const tool = echoTool(); // 32-byte limit
const limiting = (content: readonly ResultBlock[]) => {
  const kept: string[] = [];
  // The kit's own keepOutput, watched: what it reports is what the stage records.
  const { keepOutput } = echoPipeline(tool);
  const pipeline = echoPipeline(tool, { keepOutput: (actionId, full) => (kept.push(full), keepOutput(actionId, full)) });
  return settle(outputLimit.run(callState({ tool, outcome: ok({ data: {}, content, evidence: 'e' }) }, pipeline))).then((step) => ({ step, kept }));
};
const image = (data: string): ImageResultBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } });

test('output_limit: a result within the limit is what the model sees; nothing is kept', async () => {
  const { step, kept } = await limiting([textBlock('hi')]);
  expect([step.adds, step.detail, kept]).toEqual([{ modelContent: [textBlock('hi')] }, 'within limit', []]);
});

test('output_limit: past the limit the model sees whole code points up to it and where the full text is kept, its size in UTF-8 bytes', async () => {
  const full = '界'.repeat(20);
  const { step, kept } = await limiting([textBlock(full)]);
  expect(kept).toEqual([full]);
  expect(step.adds.modelContent).toEqual([textBlock(`${'界'.repeat(10)}\n[output truncated: 60 bytes; full output kept at outputs/act-01.txt sha256 ${sha256Hex(full)}]`)]);
  expect([step.adds.fullOutput, step.detail]).toEqual([{ path: 'outputs/act-01.txt', sha256: sha256Hex(full), bytes: 60 }, 'truncated to 32 bytes; block 1 (text, 60 bytes) cut to 30']);
  expect(step.adds.outputCut).toEqual({ fullBytes: 60, cut: { index: 0, bytes: 60, keptBytes: 30 }, dropped: [] });
});

test('output_limit: a block left out whole is named to the model in a block of its own, and in the record; the full output is the JSON of every block', async () => {
  const picture = image('A'.repeat(100));
  const content = [textBlock('caption'), picture, textBlock('tail')];
  const { step, kept } = await limiting(content);
  const json = JSON.stringify(content);
  const size = blockBytes(picture);
  expect(kept).toEqual([json]);
  expect(step.adds.modelContent).toEqual([
    textBlock('caption'),
    textBlock('tail'),
    textBlock(`[output truncated: ${size + 11} bytes; left out block 2 (image, ${size} bytes); full output kept at outputs/act-01.txt sha256 ${sha256Hex(json)}]`),
  ]);
  expect(step.detail).toBe(`truncated to 32 bytes; block 2 (image, ${size} bytes) left out`);
  expect(step.adds.outputCut).toEqual({ fullBytes: size + 11, dropped: [{ index: 1, type: 'image', bytes: size }] });
});

test('output_limit: a text cut and a block after it left out: the note follows the cut text and names both', async () => {
  const picture = image('AAAA');
  const content = [textBlock('x'.repeat(40)), picture];
  const { step } = await limiting(content);
  const size = blockBytes(picture);
  const json = JSON.stringify(content);
  expect(step.adds.modelContent).toEqual([textBlock(`${'x'.repeat(32)}\n[output truncated: ${40 + size} bytes; left out block 2 (image, ${size} bytes); full output kept at outputs/act-01.txt sha256 ${sha256Hex(json)}]`)]);
  expect(step.detail).toBe(`truncated to 32 bytes; block 1 (text, 40 bytes) cut to 32; block 2 (image, ${size} bytes) left out`);
});
