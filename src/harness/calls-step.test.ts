import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { bind } from '../binding/index.ts';
import { fail, LIMITS, ok, type Failure } from '../contract/index.ts';
import { textBlock, type RuntimeTool } from '../pipeline/index.ts';
import { appendResults, executeCalls, toolUses } from './calls-step.ts';
import type { LoopContext, LoopState, LoopStep } from './loop-state.ts';
import type { ToolUseBlock } from './model.ts';
import { toolResultOf } from './payload.ts';
import { buildRequest, recordRequest } from './request-step.ts';
import { runNames } from './run-names.ts';
import { ECHO, echoTool, startState, stepContext } from './testing/loop-kit.ts';
import { memoryRecorder, type RecordedWrite } from './testing/memory-recorder.ts';

const use = (id: string, word: string, name = 'echo'): ToolUseBlock => ({ type: 'tool_use', id, name, input: { word } });
const outcomes = (calls: readonly { outcome: { ok: boolean; class?: string; kind?: string } }[]) => calls.map((c) => (c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`));
const recordLimit = (): Failure => fail('precondition', 'record_limit', 'past a record limit');

/** The first request recorded under `context`'s table now: what executeCalls runs its calls under. */
function sent(context: LoopContext) {
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  const request = recordRequest(context, startState(), built.value);
  if (!request.ok) throw new Error(request.message);
  return request.value.sent;
}

test('executeCalls: each call runs through the pipeline and is recorded in call order, named by the loop’s scope, then reported', async () => {
  const steps: LoopStep[] = [];
  const context = stepContext({ onStep: (step) => steps.push(step) });
  const request = sent(context);
  const run = await executeCalls(context, startState(), request, [use('t1', 'a'), use('t2', 'b')]);
  expect(run.failure).toBeUndefined();
  expect(outcomes(run.calls)).toEqual(['ok', 'ok']);
  expect(run.calls.map((c) => [c.toolCallId, c.actionId])).toEqual([['t1', 'act-01'], ['t2', 'act-02']]);
  const calls = context.recorder.events.filter((e) => e.type === 'call');
  expect(calls.map((e) => [e.data['request_id'], e.data['tool_call_id'], e.data['action_id']])).toEqual([['req-01', 't1', 'act-01'], ['req-01', 't2', 'act-02']]);
  expect(steps.filter((s) => s.type === 'call').map((s) => s.type === 'call' && s.record.actionId)).toEqual(['act-01', 'act-02']);
});

test('executeCalls: a binding swapped between request and call is refused (binding_changed); neither handler runs', async () => {
  // "The server restarted and now lists a different schema": same name, wider input, another implementation.
  const drifted = { ...ECHO, input: v.strictObject({ word: v.string(), loud: v.optional(v.boolean()) }) };
  let newHandler = 0;
  const replacement: RuntimeTool = {
    contract: drifted,
    binding: bind(drifted, { implementation: { kind: 'mcp', version: 'restarted' } }),
    attributes: echoTool().attributes,
    handler: async () => (newHandler++, ok({ data: { echoed: 'new' }, content: [textBlock('new schema')], evidence: 'bytes observed now' })),
  };
  const old = echoTool();
  let table: Readonly<Record<string, RuntimeTool>> = { echo: old };
  const context = stepContext({ tools: () => table });
  const request = sent(context);
  // After the request was sent, the table holds the restarted server's tool.
  table = { echo: replacement };
  const run = await executeCalls(context, startState(), request, [use('t1', 'a'), use('t2', 'b')]);
  expect(outcomes(run.calls)).toEqual(['precondition/binding_changed', 'precondition/binding_changed']);
  expect([old.entered, newHandler]).toEqual([[], 0]);
  expect(run.calls.every((c) => c.bindingId === undefined && c.handlerEntered === false)).toBe(true);
  // The request recorded the binding it was shown; the refused calls' events say why.
  const shown = context.recorder.events.find((e) => e.type === 'request')!.data['tools'] as { binding_id: string }[];
  expect(shown.map((t) => t.binding_id)).toEqual([old.binding.id]);
  expect(old.binding.id).not.toBe(replacement.binding.id);
  expect(JSON.stringify(context.recorder.events.filter((e) => e.type === 'call'))).toContain('binding_changed');
});

test('executeCalls: more calls than callsPerResponse run none (invalid_arguments/too_many_calls), and nothing is recorded', async () => {
  const tool = echoTool();
  const context = stepContext({ tools: () => ({ echo: tool }) });
  const request = sent(context);
  const before = context.recorder.events.length;
  const run = await executeCalls(context, startState(), request, Array.from({ length: LIMITS.callsPerResponse + 1 }, (_, i) => use(`t${i}`, 'a')));
  expect([run.calls.length, run.failure?.class, run.failure?.kind]).toEqual([0, 'invalid_arguments', 'too_many_calls']);
  expect([tool.entered.length, context.recorder.events.length - before]).toEqual([0, 0]);
});

test('executeCalls: a call id given twice runs neither call (duplicate_call_id); nor one used before', async () => {
  const tool = echoTool();
  const context = stepContext({ tools: () => ({ echo: tool }) });
  const request = sent(context);
  const run = await executeCalls(context, startState(), request, [use('t1', 'a'), use('t1', 'b'), use('t2', 'c')]);
  expect(outcomes(run.calls)).toEqual(['invalid_arguments/duplicate_call_id', 'invalid_arguments/duplicate_call_id', 'ok']);
  const after: LoopState = appendResults(startState(), run.calls);
  const again = await executeCalls(context, after, request, [use('t2', 'd')]);
  expect(outcomes(again.calls)).toEqual(['invalid_arguments/duplicate_call_id']);
  expect(tool.entered).toEqual(['act-03']);
});

test('executeCalls: a call event the record refuses stops the calls there; the ones recorded before it are returned', async () => {
  const refuseSecond = (write: RecordedWrite) => ('event' in write && write.event === 'call' && write.data['tool_call_id'] === 't2' ? recordLimit() : undefined);
  const context = stepContext({ recorder: memoryRecorder(refuseSecond) });
  const request = sent(context);
  const tool = echoTool('echo/1', { concurrencySafe: false });
  const run = await executeCalls({ ...context, tools: () => ({ echo: tool }) }, startState(), request, [use('t1', 'a'), use('t2', 'b'), use('t3', 'c')]);
  expect([run.calls.map((c) => c.toolCallId), run.failure?.kind]).toEqual([['t1'], 'record_limit']);
  // Unsafe calls run one by one: the third never started.
  expect(tool.entered).toEqual(['act-01', 'act-02']);
});

test('executeCalls: a full output the record refuses stops the calls after its batch, none of that batch recorded', async () => {
  const refuseOutputs = (write: RecordedWrite) => ('file' in write && write.file.startsWith('outputs/') ? recordLimit() : undefined);
  const context = stepContext({ recorder: memoryRecorder(refuseOutputs) });
  const request = sent(context);
  // echo's output limit is 32 bytes: the long word's full output is kept, and refused.
  const run = await executeCalls(context, startState(), request, [use('t1', 'short'), use('t2', 'x'.repeat(100))]);
  expect([run.calls.length, run.failure?.kind]).toEqual([0, 'record_limit']);
  expect(context.recorder.events.filter((e) => e.type === 'call')).toEqual([]);
});

test('executeCalls: a full output is kept under its action’s name, in the loop’s scope', async () => {
  const context = stepContext({ names: runNames().child('agent') });
  const request = sent(context);
  const run = await executeCalls(context, startState(), request, [use('t1', 'x'.repeat(100))]);
  expect(run.calls.map((c) => [c.actionId, c.fullOutput?.path])).toEqual([['agent-1/act-01', 'outputs/agent-1/act-01.txt']]);
  expect(new TextDecoder().decode(context.recorder.files.get('outputs/agent-1/act-01.txt'))).toBe('x'.repeat(100));
});

test('appendResults: the calls join the state and, as the user’s turn, their tool_results in call order; the old state is unchanged', async () => {
  const context = stepContext();
  const request = sent(context);
  const run = await executeCalls(context, startState(), request, [use('t1', 'a'), use('t2', 'nosuch', 'nosuch')]);
  const before = startState();
  const after = appendResults(before, run.calls);
  expect(after.calls).toEqual(run.calls);
  expect(after.messages).toEqual([...before.messages, { role: 'user', content: run.calls.map(toolResultOf) }]);
  expect(after.messages.at(-1)).toMatchObject({ content: [{ tool_use_id: 't1', is_error: false }, { tool_use_id: 't2', is_error: true }] });
  expect([before.calls, before.messages.length]).toEqual([[], 1]);
});

test('toolUses: the tool_use blocks of a response, in order', () => {
  expect(toolUses([{ type: 'text' }, use('a', 'x'), { type: 'text' }, use('b', 'y')]).map((u) => u.id)).toEqual(['a', 'b']);
});
