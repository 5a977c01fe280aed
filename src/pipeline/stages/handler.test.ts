import { expect, test } from 'bun:test';
import { fail, ok, type Outcome } from '../../contract/index.ts';
import { textBlock } from '../result-block.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import type { RuntimeTool, ToolOutput } from '../tool.ts';
import { handler as handlerStage } from './handler.ts';

const handling = (tool: RuntimeTool) => settle(handlerStage.run(callState({ tool, input: { word: 'hi' } })));

test('handler: the tool runs on the input with the call context; its success is added and the call counts as entered', async () => {
  const seen: unknown[] = [];
  const tool = echoTool({ handler: async (input, context) => (seen.push(input, context.actionId), ok({ data: { echoed: 'hi' }, content: [textBlock('hi')], evidence: 'e' })) });
  const step = await handling(tool);
  expect([step.adds, step.failure, seen]).toEqual([{ handlerEntered: true, outcome: ok({ data: { echoed: 'hi' }, content: [textBlock('hi')], evidence: 'e' }) }, undefined, [{ word: 'hi' }, 'act-01']]);
});

test('handler: a failure, a throw or a timeout stops the call, which still counts as entered', async () => {
  const failing = echoTool({ handler: async () => fail('business', 'tool_error', 'x') });
  const throwing = echoTool({ handler: async () => { throw new Error('bug'); } });
  const hanging = echoTool({ attributes: { ...echoTool().attributes, timeoutMs: 5 }, handler: () => new Promise(() => {}) });
  const outcomes = [];
  for (const tool of [failing, throwing, hanging]) {
    const step = await handling(tool);
    outcomes.push([step.failure?.kind, step.adds.handlerEntered]);
  }
  expect(outcomes).toEqual([['tool_error', true], ['handler_threw', true], ['handler_timeout', true]]);
});

/** A handler with no `async` wrapper that answers `answer` in its abort listener: the ordering bug stays observable. */
const answersOnAbort = (answer: () => Outcome<ToolOutput>): RuntimeTool['handler'] => (_input, context) =>
  new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(answer()), { once: true }));

test('handler: one answering in its abort listener at the timeout is recorded as timed out (outcome unknown), not ok', async () => {
  const tool = echoTool({ attributes: { ...echoTool().attributes, timeoutMs: 5 }, handler: answersOnAbort(() => ok({ data: { echoed: 'late' }, content: [textBlock('late')], evidence: 'e' })) });
  const step = await handling(tool);
  expect([step.failure?.class, step.failure?.kind, step.adds]).toEqual(['timeout', 'handler_timeout', { handlerEntered: true }]);
});

test("handler: the run's interruption aborts the handler's signal at once, not at its timeout", async () => {
  const run = new AbortController();
  const answer = answersOnAbort(() => fail('timeout', 'aborted', 'caller stopped waiting'));
  // The handler interrupts the run itself once it listens, so nothing depends on when the test would.
  const handler: RuntimeTool['handler'] = (input, context) => {
    const answered = answer(input, context);
    run.abort('SIGINT');
    return answered;
  };
  const tool = echoTool({ attributes: { ...echoTool().attributes, timeoutMs: 600_000 }, handler });
  const step = await settle(handlerStage.run(callState({ tool, input: { word: 'hi' } }, echoPipeline(tool, { signal: run.signal }))));
  expect([step.failure?.kind, step.adds]).toEqual(['aborted', { handlerEntered: true }]);
});

test('handler: a run already interrupted enters no handler', async () => {
  const run = new AbortController();
  run.abort('SIGTERM');
  let entered = 0;
  const tool = echoTool({ handler: async () => (entered++, ok({ data: { echoed: 'hi' }, content: [textBlock('hi')], evidence: 'e' })) });
  const step = await settle(handlerStage.run(callState({ tool, input: { word: 'hi' } }, echoPipeline(tool, { signal: run.signal }))));
  expect([step.failure?.kind, step.adds, entered]).toEqual(['run_interrupted', {}, 0]);
});
