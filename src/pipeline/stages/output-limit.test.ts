import { expect, test } from 'bun:test';
import { ok } from '../../contract/index.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import { outputLimit } from './output-limit.ts';

const tool = echoTool(); // 32-byte limit
const limiting = (text: string) => {
  const kept: string[] = [];
  const pipeline = echoPipeline(tool, { keepOutput: (actionId, full) => (kept.push(full), { path: `outputs/${actionId}.txt`, sha256: 'abc', bytes: full.length }) });
  return settle(outputLimit.run(callState({ tool, outcome: ok({ data: {}, text, evidence: 'e' }) }, pipeline))).then((step) => ({ step, kept }));
};

test('output_limit: a text within the limit is what the model sees; nothing is kept', async () => {
  const { step, kept } = await limiting('hi');
  expect([step.adds, step.detail, kept]).toEqual([{ modelText: 'hi' }, 'within limit', []]);
});

test('output_limit: past the limit the model sees whole code points up to it and where the full text is kept', async () => {
  const { step, kept } = await limiting('界'.repeat(20));
  expect(kept).toEqual(['界'.repeat(20)]);
  expect(step.adds.modelText).toBe(`${'界'.repeat(10)}\n[output truncated: 60 bytes; full output kept at outputs/act-01.txt sha256 abc]`);
  expect([step.adds.fullOutput, step.detail]).toEqual([{ path: 'outputs/act-01.txt', sha256: 'abc', bytes: 20 }, 'truncated to 32 bytes']);
});
