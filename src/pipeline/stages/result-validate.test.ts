import { expect, test } from 'bun:test';
import { canonicalHash, ok } from '../../contract/index.ts';
import { textBlock } from '../result-block.ts';
import { callState, echoTool, settle } from '../testing/call-state.ts';
import { resultValidate } from './result-validate.ts';

const validating = (data: unknown, fromMcp = false) => {
  const tool = echoTool({ attributes: { ...echoTool().attributes, fromMcp } });
  return settle(resultValidate.run(callState({ tool, outcome: ok({ data, content: [textBlock('looks fine')], evidence: 'e' }) })));
};

test('result_validate: a result that fits the pinned result schema goes on, adding nothing', async () => {
  expect(await validating({ echoed: 'hi' })).toEqual({ adds: {}, detail: undefined, failure: undefined, at: undefined });
});

test("result_validate: a local handler's mismatch is business/result_invalid, an MCP tool's protocol/output_invalid; the raw data's hash is added", async () => {
  const raw = { totally: 'wrong' };
  const local = await validating(raw);
  const mcp = await validating(raw, true);
  expect([local.failure?.class, local.failure?.kind, local.adds]).toEqual(['business', 'result_invalid', { rawResultSha256: canonicalHash(raw) }]);
  expect([mcp.failure?.class, mcp.failure?.kind]).toEqual(['protocol', 'output_invalid']);
});

test('result_validate: data JSON cannot carry is refused without a hash', async () => {
  const step = await validating({ echoed: 1n });
  expect([step.failure?.kind, step.adds]).toEqual(['result_invalid', { rawResultSha256: undefined }]);
});

const checkingContent = (content: unknown, fromMcp = false) => {
  const tool = echoTool({ attributes: { ...echoTool().attributes, fromMcp } });
  return settle(resultValidate.run(callState({ tool, outcome: ok({ data: { echoed: 'hi' }, content: content as [], evidence: 'e' }) })));
};

test('result_validate: content that is not result blocks is refused like bad data, with the hash of that content', async () => {
  for (const content of [[], 'hi', [{ type: 'text', text: 'hi', extra: 1 }], [{ type: 'audio', data: '', mimeType: 'audio/wav' }], [{ type: 'image', source: { type: 'url', url: 'https://x' } }], [{ type: 'text' }]]) {
    const local = await checkingContent(content);
    expect([local.failure?.class, local.failure?.kind, local.failure?.message.startsWith('echo: result content is not result blocks'), local.adds]).toEqual(['business', 'result_invalid', true, { rawResultSha256: canonicalHash(content) }]);
  }
  const mcp = await checkingContent([{ type: 'text', text: 'hi', annotations: {} }], true);
  expect([mcp.failure?.class, mcp.failure?.kind]).toEqual(['protocol', 'output_invalid']);
});

test('result_validate: text and image blocks, each with exactly its fields, go on', async () => {
  const content = [textBlock('hi'), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }];
  expect((await checkingContent(content)).failure).toBeUndefined();
});
