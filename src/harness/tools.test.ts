import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { bind } from '../binding/index.ts';
import { ok } from '../contract/index.ts';
import { attributesOf, textBlock, type RuntimeTool } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import { duplicateName, localProvider, runtimeTable } from './tools.ts';

const echo = echoContractWith(v.strictObject({ word: v.string() }));
const tool = (name: string, server?: string): RuntimeTool => ({
  contract: { ...echo, name },
  binding: {
    ...bind({ ...echo, name }, { implementation: { kind: server ? 'mcp' : 'local', version: 't/1' } }),
    ...(server ? { server: { key: server, name: server, version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: [], cwd: '/', envNames: [] }, instanceId: 'i' } as const } : {}),
  },
  attributes: attributesOf(echo),
  handler: async () => ok({ data: { echoed: '' }, content: [textBlock('')], evidence: 'bytes observed now' }),
});

test('runtimeTable refuses two tools under one model-visible name; it used to keep the last', () => {
  const table = runtimeTable([tool('a'), tool('b')]);
  expect(table.ok && Object.keys(table.value)).toEqual(['a', 'b']);
  const clash = runtimeTable([tool('a'), tool('b'), tool('a')]);
  expect(clash.ok ? 'kept' : [clash.class, clash.kind, clash.message]).toEqual(['invalid_arguments', 'duplicate_tool', 'two tools of this run answer to "a" (a and a); every name must select one tool']);
});

test('a name hooks and rules select by counts too: a local tool named as a server’s tool is that tool’s clash', () => {
  expect(duplicateName([tool('read_source', 'fix'), tool('other')]).ok).toBe(true);
  const clash = duplicateName([tool('read_source', 'fix'), tool('mcp__fix__read_source')]);
  expect(clash.ok ? 'none' : clash.message).toContain('"mcp__fix__read_source" (read_source of server fix and mcp__fix__read_source)');
});

test('a local provider offers what it opens, and makes its tools only when it opens', async () => {
  let made = 0;
  const provider = localProvider([{ entry: { contract: echo, implementation: { kind: 'local', version: 't/1' } }, make: () => (made++, tool('echo')) }]);
  expect([provider.offers.map((o) => [o.binding.tool, o.implementation]), made]).toEqual([[['echo', { kind: 'local', version: 't/1' }]], 0]);
  const opened = await provider.open({ runId: 'r' });
  expect([opened.ok && opened.value.transport, opened.ok && opened.value.tools.map((t) => t.binding.tool), made]).toEqual(['local', ['echo'], 1]);
});
