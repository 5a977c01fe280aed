import { expect, test } from 'bun:test';
import { canonicalHash, ok } from '../../contract/index.ts';
import { callState, echoTool, settle } from '../testing/call-state.ts';
import { resultValidate } from './result-validate.ts';

const validating = (data: unknown, fromMcp = false) => {
  const tool = echoTool({ attributes: { ...echoTool().attributes, fromMcp } });
  return settle(resultValidate.run(callState({ tool, outcome: ok({ data, text: 'looks fine', evidence: 'e' }) })));
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
