import { expect, test } from 'bun:test';
import { ok, sha256Hex } from '../../contract/index.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import { outputLimit } from './output-limit.ts';

const tool = echoTool(); // 32-byte limit
const limiting = (text: string) => {
  const kept: string[] = [];
  // The kit's own keepOutput, watched: what it reports is what the stage records.
  const { keepOutput } = echoPipeline(tool);
  const pipeline = echoPipeline(tool, { keepOutput: (actionId, full) => (kept.push(full), keepOutput(actionId, full)) });
  return settle(outputLimit.run(callState({ tool, outcome: ok({ data: {}, text, evidence: 'e' }) }, pipeline))).then((step) => ({ step, kept }));
};

test('output_limit: a text within the limit is what the model sees; nothing is kept', async () => {
  const { step, kept } = await limiting('hi');
  expect([step.adds, step.detail, kept]).toEqual([{ modelText: 'hi' }, 'within limit', []]);
});

test('output_limit: past the limit the model sees whole code points up to it and where the full text is kept, its size in UTF-8 bytes', async () => {
  const full = '界'.repeat(20);
  const { step, kept } = await limiting(full);
  expect(kept).toEqual([full]);
  expect(step.adds.modelText).toBe(`${'界'.repeat(10)}\n[output truncated: 60 bytes; full output kept at outputs/act-01.txt sha256 ${sha256Hex(full)}]`);
  expect([step.adds.fullOutput, step.detail]).toEqual([{ path: 'outputs/act-01.txt', sha256: sha256Hex(full), bytes: 60 }, 'truncated to 32 bytes']);
});
