import { expect, test } from 'bun:test';
import { ok } from '../../contract/index.ts';
import type { ToolHookInput } from '../hook.ts';
import { inProcessHook, type InProcessAnswer } from '../hooks/index.ts';
import { textBlock } from '../result-block.ts';
import { callState, echoPipeline, echoTool, servedEchoTool, settle } from '../testing/call-state.ts';
import { postHooks } from './post-hooks.ts';

const running = (answer: InProcessAnswer, seen: ToolHookInput[] = [], tool = echoTool()) => {
  const hooks = [inProcessHook('PostToolUse', 'echo', 'audit', (input) => (seen.push(input), answer))];
  const state = callState({ tool, input: { word: 'hi' }, outcome: ok({ data: { echoed: 'hi' }, content: [textBlock('hi')], evidence: 'e' }), modelContent: [textBlock('hi')], hookContent: [], hooks: [{ hook: 'earlier' }] }, echoPipeline(tool, { hooks }));
  return settle(postHooks.run(state));
};

test('post_hooks: the hooks see the input and the result data; their results follow the earlier ones', async () => {
  const seen: ToolHookInput[] = [];
  const step = await running({}, seen);
  expect(seen.map((input) => [input.hook_event_name, input.tool_input, input.tool_response])).toEqual([['PostToolUse', { word: 'hi' }, { echoed: 'hi' }]]);
  expect([step.adds, step.detail]).toEqual([{ hooks: [{ hook: 'earlier' }, { hook: 'audit' }], hookContent: [] }, '1 hook(s)']);
});

test("post_hooks: an MCP tool's tool_name is mcp__<server>__<tool>, as Claude Code gives it", async () => {
  const seen: ToolHookInput[] = [];
  await running({}, seen, servedEchoTool('srv'));
  expect(seen.map((input) => input.tool_name)).toEqual(['mcp__srv__echo']);
});

test('post_hooks: a block cannot undo the call: the call goes on and the model is told why, in a block of its own', async () => {
  const step = await running({ block: 'looks odd' });
  // The tool's text is untouched: a reason quoting a source must never pass as the tool's answer.
  expect([step.failure, step.adds.modelContent, step.adds.hookContent, step.detail]).toEqual([undefined, undefined, [textBlock('[PostToolUse hook audit: looks odd]')], '1 hook(s); flagged by audit']);
});
