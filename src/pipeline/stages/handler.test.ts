import { expect, test } from 'bun:test';
import { fail, ok } from '../../contract/index.ts';
import { callState, echoTool, settle } from '../testing/call-state.ts';
import type { RuntimeTool } from '../tool.ts';
import { handler } from './handler.ts';

const handling = (tool: RuntimeTool) => settle(handler.run(callState({ tool, input: { word: 'hi' } })));

test('handler: the tool runs on the input with the call context; its success is added and the call counts as entered', async () => {
  const seen: unknown[] = [];
  const tool = echoTool({ handler: async (input, context) => (seen.push(input, context.actionId), ok({ data: { echoed: 'hi' }, text: 'hi', evidence: 'e' })) });
  const step = await handling(tool);
  expect([step.adds, step.failure, seen]).toEqual([{ handlerEntered: true, outcome: ok({ data: { echoed: 'hi' }, text: 'hi', evidence: 'e' }) }, undefined, [{ word: 'hi' }, 'act-01']]);
});

test('handler: a failure, a throw or a timeout stops the call, which still counts as entered', async () => {
  const failing = echoTool({ handler: async () => fail('business', 'nope', 'x') });
  const throwing = echoTool({ handler: async () => { throw new Error('bug'); } });
  const hanging = echoTool({ attributes: { ...echoTool().attributes, timeoutMs: 5 }, handler: () => new Promise(() => {}) });
  const outcomes = [];
  for (const tool of [failing, throwing, hanging]) {
    const step = await handling(tool);
    outcomes.push([step.failure?.kind, step.adds.handlerEntered]);
  }
  expect(outcomes).toEqual([['nope', true], ['handler_threw', true], ['handler_timeout', true]]);
});
