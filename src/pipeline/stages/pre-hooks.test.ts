import { expect, test } from 'bun:test';
import type { Hook, ToolHookInput } from '../hook.ts';
import { inProcessHook, type InProcessAnswer } from '../hooks/index.ts';
import { callState, echoPipeline, echoTool, servedEchoTool, settle } from '../testing/call-state.ts';
import { preHooks } from './pre-hooks.ts';

const tool = echoTool();
const pre = (name: string, answer: InProcessAnswer, seen?: ToolHookInput[]) => inProcessHook('PreToolUse', 'echo', name, (input) => (seen?.push(input), answer));
const running = (hooks: readonly Hook[], signal?: AbortSignal) =>
  settle(preHooks.run(callState({ tool, input: { word: 'hi' } }, echoPipeline(tool, { hooks, ...(signal ? { signal } : {}) }))));
const summary = (step: Awaited<ReturnType<typeof running>>) => [step.failure ? `${step.failure.class}/${step.failure.kind}` : 'next', step.adds.hooks?.map((h) => h.hook)];

test("pre_hooks: the hooks see the validated input in Claude Code's fields; their results and decision are added", async () => {
  const seen: ToolHookInput[] = [];
  const step = await running([pre('a', { permissionDecision: 'allow' }, seen), pre('b', {})]);
  expect(seen).toEqual([{ session_id: 's', transcript_path: '/dev/null', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'echo', tool_input: { word: 'hi' }, tool_use_id: 't1' }]);
  expect([step.adds, step.detail]).toEqual([{ hooks: [{ permissionDecision: 'allow', hook: 'a' }, { hook: 'b' }], hookDecision: { decision: 'allow', hook: 'a' } }, '2 hook(s)']);
});

test("pre_hooks: an MCP tool's tool_name is mcp__<server>__<tool>, as Claude Code gives it; a hook matching the bare name still runs", async () => {
  const served = servedEchoTool('srv');
  const seen: ToolHookInput[] = [];
  await settle(preHooks.run(callState({ tool: served, input: { word: 'hi' } }, echoPipeline(served, { hooks: [pre('a', {}, seen)] }))));
  expect(seen.map((input) => input.tool_name)).toEqual(['mcp__srv__echo']);
});

test('pre_hooks: a block stops the call; what the hooks said is still recorded', async () => {
  expect(summary(await running([pre('guard', { block: 'no' })]))).toEqual(['permission_denied/hook', ['guard']]);
});

test('pre_hooks: two rewrites that disagree stop the call, and neither is applied', async () => {
  const step = await running([pre('one', { updatedInput: { word: 'one' } }), pre('two', { updatedInput: { word: 'two' } })]);
  expect([...summary(step), step.adds.arguments, step.adds.input]).toEqual(['permission_denied/hook_conflict', ['one', 'two'], undefined, undefined]);
});

test('pre_hooks: a rewrite is recorded and validated again; a valid one becomes the input', async () => {
  const valid = await running([pre('r', { updatedInput: { word: 'ho', times: 2 } })]);
  expect([valid.failure, valid.adds.arguments, valid.adds.input]).toEqual([undefined, { original: { word: 'hi' }, rewritten: { word: 'ho', times: 2 } }, { word: 'ho', times: 2 }]);
  const invalid = await running([pre('r', { updatedInput: { word: 'ho', extra: 1 } })]);
  expect([invalid.failure?.kind, invalid.failure?.message.startsWith('input rewritten by hook r is invalid: '), invalid.adds.arguments?.rewritten]).toEqual(['extra_field', true, { word: 'ho', extra: 1 }]);
});

test("pre_hooks: a deny makes another hook's rewrite moot: not applied, and the deny goes on to the permission stage", async () => {
  const step = await running([pre('r', { updatedInput: { nonsense: true } }), pre('d', { permissionDecision: 'deny', reason: 'no' })]);
  expect([step.failure, step.adds.arguments, step.adds.hookDecision?.decision]).toEqual([undefined, undefined, 'deny']);
});

test('pre_hooks: an interrupted run stops the call before its hooks, or right after them', async () => {
  const before = new AbortController();
  before.abort('SIGINT');
  const seen: ToolHookInput[] = [];
  expect(summary(await running([pre('a', {}, seen)], before.signal))).toEqual(['precondition/run_interrupted', undefined]);
  expect(seen).toEqual([]);

  const during = new AbortController();
  const step = await running([inProcessHook('PreToolUse', 'echo', 'stopper', () => (during.abort('SIGTERM'), {}))], during.signal);
  expect(summary(step)).toEqual(['precondition/run_interrupted', ['stopper']]);
  expect(step.failure?.message).toContain('SIGTERM');
});
