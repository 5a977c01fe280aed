import { expect, test } from 'bun:test';
import { bind } from '../../binding/index.ts';
import { ok, type Outcome } from '../../contract/index.ts';
import type { Hook } from '../hook.ts';
import { textBlock, toolReference } from '../result-block.ts';
import { executeCall } from '../run.ts';
import { echoContract, echoPipeline, echoTool, offering } from '../testing/call-state.ts';
import { attributesOf, type ProducingRequest, type RuntimeTool, type ToolOutput } from '../tool.ts';

/**
 * resolve's host rule for deferred tools: a call to a deferred tool its
 * producing request did not disclose is precondition/tool_not_disclosed, and
 * nothing after resolve runs — no conversion, no validation, no hook, no
 * permission, no handler. Every one of them is counted here.
 */

interface Counts {
  convert: number;
  check: number;
  pre: number;
  permission: number;
  handler: number;
}

function counted(deferred: boolean, handler?: RuntimeTool['handler']) {
  const counts: Counts = { convert: 0, check: 0, pre: 0, permission: 0, handler: 0 };
  const base = echoTool();
  const tool = echoTool({
    attributes: attributesOf(echoContract, { deferred }),
    check: () => void counts.check++,
    handler: async (input, context) => (counts.handler++, (handler ?? base.handler)(input, context)),
  });
  const pre: Hook = { name: 'count-pre', event: 'PreToolUse', matcher: '*', run: async () => (counts.pre++, { hook: 'count-pre' }) };
  const pipeline = echoPipeline(tool, {
    hooks: [pre],
    convert: (_binding, args) => (counts.convert++, ok({ converted: args, filled: [] })),
    permission: () => (counts.permission++, { decision: 'allow', by: 'default', reason: 'test' }),
  });
  return { tool, pipeline, counts };
}

const request = (tool: RuntimeTool, disclosedTools?: readonly string[]): ProducingRequest => ({ ...offering(tool), ...(disclosedTools ? { disclosedTools } : {}) });
const call = { id: 't1', name: 'echo', arguments: { word: 'hi' } };
const classKind = (outcome: Outcome<unknown>) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);

test('a deferred tool its request did not disclose: precondition/tool_not_disclosed at resolve; no convert, validation, hook, permission or handler', async () => {
  for (const disclosed of [undefined, [], ['other'], ['Echo']]) {
    const { tool, pipeline, counts } = counted(true);
    const record = await executeCall(call, request(tool, disclosed), 'a1', pipeline);
    expect([classKind(record.outcome), record.stages.at(-1)?.stage, record.handlerEntered]).toEqual(['precondition/tool_not_disclosed', 'resolve', false]);
    expect(counts).toEqual({ convert: 0, check: 0, pre: 0, permission: 0, handler: 0 });
    expect(record.outcome.ok ? '' : record.outcome.message).toContain('request req-01 did not disclose it');
    expect(record.outcome.ok ? '' : record.outcome.message).toContain('next request');
    // a host rule, not a server's fault: recorded without a basis row
    expect(record.outcome.ok ? 'ok' : record.outcome.basis).toBeUndefined();
  }
});

test('the same deferred tool disclosed by its request runs every stage, handler included, under the binding pinned there', async () => {
  const { tool, pipeline, counts } = counted(true);
  const record = await executeCall(call, request(tool, ['echo']), 'a1', pipeline);
  expect(classKind(record.outcome)).toBe('ok');
  expect(counts).toEqual({ convert: 1, check: 1, pre: 1, permission: 1, handler: 1 });
  expect(record.stages.find((s) => s.stage === 'resolve')?.detail).toBe(tool.binding.id);
});

test('a tool not deferred runs without any disclosure, as before', async () => {
  const { tool, pipeline, counts } = counted(false);
  expect(classKind((await executeCall(call, request(tool), 'a1', pipeline)).outcome)).toBe('ok');
  expect(counts.handler).toBe(1);
});

test('disclosed but rebound since: binding_changed comes first, the handler still not entered', async () => {
  const { tool, pipeline, counts } = counted(true);
  const shown = { ...request(tool, ['echo']), bindings: { echo: bind(echoContract, { implementation: { kind: 'local', version: 'echo/0' } }) } };
  const record = await executeCall(call, shown, 'a1', pipeline);
  expect([classKind(record.outcome), counts.handler]).toEqual(['precondition/binding_changed', 0]);
});

/** result_validate: only a host tool whose attributes say `references` may return a tool_reference block. */
function referencing(kind: 'local' | 'host' | 'mcp', references: boolean) {
  const content: ToolOutput['content'] = [toolReference('read_source'), textBlock('found')];
  const binding = bind(echoContract, { implementation: { kind, version: 'echo/1' } });
  const { tool, pipeline, counts } = counted(false, async () => ok({ data: { echoed: 'x' }, content, evidence: 'e' }));
  const changed: RuntimeTool = { ...tool, binding, attributes: { ...tool.attributes, references, fromMcp: kind === 'mcp', maxResultBytes: 4096 } };
  return { tool: changed, pipeline: { ...pipeline, tools: { echo: changed } }, counts };
}

test('result_validate: a tool_reference from a local tool, an MCP tool, or a host tool without `references` is refused', async () => {
  for (const [kind, references, expected] of [
    ['local', false, 'business/result_invalid'],
    ['local', true, 'business/result_invalid'],
    ['host', false, 'business/result_invalid'],
    ['mcp', true, 'protocol/output_invalid'],
  ] as const) {
    const { tool, pipeline, counts } = referencing(kind, references);
    const record = await executeCall(call, offering(tool), 'a1', pipeline);
    expect({ kind, references, outcome: classKind(record.outcome), stage: record.stages.at(-1)?.stage, entered: counts.handler }).toEqual({ kind, references, outcome: expected, stage: 'result_validate', entered: 1 });
    expect(record.modelContent.some((block) => block.type === 'tool_reference')).toBe(false);
  }
});

test('result_validate: a host tool with `references` may return tool_reference blocks; they reach the model as returned', async () => {
  const { tool, pipeline } = referencing('host', true);
  const record = await executeCall(call, offering(tool), 'a1', pipeline);
  expect(classKind(record.outcome)).toBe('ok');
  expect(record.modelContent).toEqual([toolReference('read_source'), textBlock('found')]);
});
