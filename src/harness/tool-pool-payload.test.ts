/**
 * What deferring does to a request payload, in committed bytes: the fixed
 * pool of 50 code-forge tools (testing/tool-pool.ts) built into requests by
 * the loop's own `buildRequest`, read back by `toolDisclosure`. Every
 * payload holds all 50 definitions; only which carry `defer_loading` and
 * what a provider would load (`visible_tool_bytes`) change.
 */
import { expect, test } from 'bun:test';
import type { Binding } from '../binding/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { toolDisclosure } from './disclosure.ts';
import type { LoopState } from './loop-state.ts';
import { buildRequest } from './request-step.ts';
import { stepContext } from './testing/loop-kit.ts';
import { toolPool } from './testing/tool-pool.ts';
import { searchContent, searchPayload, toolSearchContract } from './tool-search/tool-search.ts';

/** A pool entry as a runtime tool: what buildRequest reads of one (its name, pinned description and model schema, whether deferred). */
function poolTool(entry: { name: string; description: string; input_schema: Readonly<Record<string, unknown>> }, deferred: boolean): RuntimeTool {
  const binding = { tool: entry.name, id: entry.name, contract: { description: entry.description }, model: { schema: entry.input_schema } } as unknown as Binding;
  return { binding, attributes: { deferred } } as unknown as RuntimeTool;
}

/** ToolSearch as buildRequest sees it: its own pinned spec, never deferred. */
function searchTool(): RuntimeTool {
  const schema = { type: 'object', properties: { query: { type: 'string', minLength: 1, maxLength: 500 }, max_results: { type: 'integer', minimum: 1, maximum: 20 } }, required: ['query', 'max_results'], additionalProperties: false };
  return poolTool({ name: toolSearchContract.name, description: toolSearchContract.description, input_schema: schema }, false);
}

function request(tools: readonly RuntimeTool[], state: LoopState): Uint8Array {
  const table = Object.fromEntries(tools.map((t) => [t.binding.tool, t]));
  const built = buildRequest(stepContext({ tools: () => table }), state);
  if (!built.ok) throw new Error(built.message);
  return built.value.bytes;
}

const START: LoopState = { messages: [{ role: 'user', content: 'Merge the open pull request once its review is approved.' }], requests: [], calls: [] };
const toolsBytes = (payload: Uint8Array): number => new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(payload)).tools)).byteLength;
const deferFlags = (payload: Uint8Array): (true | undefined)[] => JSON.parse(new TextDecoder().decode(payload)).tools.map((t: { defer_loading?: true }) => t.defer_loading);

test('50 tools: nothing deferred, 49 deferred, and after a search disclosing 3 — committed bytes, every definition in each payload', () => {
  const pool = toolPool();
  expect(pool).toHaveLength(50);

  const plain = request(pool.map((entry) => poolTool(entry, false)), START);
  const plainShown = toolDisclosure(plain);
  expect(deferFlags(plain)).toEqual(Array(50).fill(undefined));
  expect({ tools: toolsBytes(plain), visible: plainShown.visibleToolBytes, deferred: plainShown.deferred.length }).toEqual({ tools: 29_626, visible: 29_575, deferred: 0 });

  // The first tool stays loaded; the other 49 are deferred behind ToolSearch.
  const tools = [...pool.map((entry, i) => poolTool(entry, i > 0)), searchTool()];
  const first = request(tools, START);
  const firstShown = toolDisclosure(first);
  expect(deferFlags(first)).toEqual([undefined, ...Array(49).fill(true), undefined]);
  expect({ tools: toolsBytes(first), visible: firstShown.visibleToolBytes, deferred: firstShown.deferred.length, disclosed: firstShown.disclosed }).toEqual({
    tools: 31_587,
    visible: 1_689,
    deferred: 49,
    disclosed: [],
  });

  const input = { query: 'merge pull request review', max_results: 3 };
  const found = searchPayload(first, input);
  expect(found.references).toEqual(['merge_pull_request', 'request_reviewers', 'create_review']);
  const answered: LoopState = {
    ...START,
    messages: [
      ...START.messages,
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'ToolSearch', input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', is_error: false, content: searchContent({ references: [...found.references], unknown: [], denied: [] }, input.query) }] },
    ],
  };
  const second = request(tools, answered);
  const secondShown = toolDisclosure(second);
  expect(deferFlags(second)).toEqual(deferFlags(first));
  expect({ tools: toolsBytes(second), visible: secondShown.visibleToolBytes, disclosed: secondShown.disclosed }).toEqual({
    tools: 31_587,
    visible: 4_403,
    disclosed: ['merge_pull_request', 'request_reviewers', 'create_review'],
  });
});
