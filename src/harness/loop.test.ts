import { expect, test } from 'bun:test';
import { fail, ok } from '../contract/index.ts';
import { textBlock } from '../pipeline/index.ts';
import { runLoop, takeTurn } from './loop.ts';
import { echoCall, echoTool, scripted, startState, stepContext } from './testing/loop-kit.ts';
import { memoryRecorder } from './testing/memory-recorder.ts';

const usage = { input_tokens: 1, output_tokens: 1 };
const echoTwice = () => scripted([{ tool_calls: [echoCall('t1', 'a'), echoCall('t2', 'b')], usage }, { text: 'done', usage }]);
const typesOf = (events: readonly { type: string }[]) => events.map((e) => e.type);

test('runLoop folds its steps turn after turn: request, response, calls, until a final answer; no verdict of its own', async () => {
  const context = stepContext({ model: echoTwice() });
  const loop = await runLoop(context);
  expect([loop.stop, loop.failure, loop.requests.length, loop.calls.length]).toEqual(['final_answer', undefined, 2, 2]);
  expect(typesOf(context.recorder.events)).toEqual(['request', 'response', 'call', 'call', 'request', 'response']);
  expect(loop.requests.map((r) => r.intent.request_id)).toEqual(['req-01', 'req-02']);
  expect(loop.calls.map((c) => c.actionId)).toEqual(['act-01', 'act-02']);
  expect([...context.recorder.files.keys()]).toEqual(['requests/01-request.json', 'requests/01-response.json', 'requests/02-request.json', 'requests/02-response.json']);
  // The second request carries the first response and its tool_results.
  const second = JSON.parse(new TextDecoder().decode(loop.requests[1]!.sent.payload));
  expect(second.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
  expect(second.messages[2].content.map((b: { tool_use_id: string }) => b.tool_use_id)).toEqual(['t1', 't2']);
});

test('takeTurn: one turn alone, from a state to the next; the state it was given is unchanged', async () => {
  const context = stepContext({ model: echoTwice() });
  const before = startState();
  const turn = await takeTurn(context, before);
  expect([turn.stop, turn.failure, turn.state.requests.length, turn.state.calls.length, turn.state.messages.length]).toEqual([undefined, undefined, 1, 2, 3]);
  expect([before.requests.length, before.messages.length]).toEqual([0, 1]);
  const last = await takeTurn(context, turn.state);
  expect([last.stop, last.state.requests.length]).toEqual(['final_answer', 2]);
});

test('runLoop stops when the model has no response left (script_exhausted), and at maxRequests', async () => {
  const exhausted = stepContext({ model: scripted([{ tool_calls: [echoCall('t1', 'a')], usage }]) });
  const loop = await runLoop(exhausted);
  expect([loop.stop, loop.requests.length, exhausted.recorder.events.at(-1)?.data['missing']]).toEqual(['script_exhausted', 2, true]);
  const calls = Array.from({ length: 5 }, (_, i) => ({ tool_calls: [echoCall(`t${i}`, 'a')], usage }));
  const bounded = await runLoop({ ...stepContext({ model: scripted(calls) }), maxRequests: 3 });
  expect([bounded.stop, bounded.requests.length, bounded.calls.length]).toEqual(['max_requests', 3, 3]);
});

test('runLoop stops at the first refused step: later steps never run, what was recorded before counts', async () => {
  const refused = fail('precondition', 'record_limit', 'the second request would pass a record limit');
  const recorder = memoryRecorder((write) => ('file' in write && write.file === 'requests/02-request.json' ? refused : undefined));
  const context = stepContext({ model: echoTwice(), recorder });
  const loop = await runLoop(context);
  expect([loop.stop, loop.failure, loop.requests.length, loop.calls.length]).toEqual(['failed', refused, 1, 2]);
  expect(typesOf(recorder.events)).toEqual(['request', 'response', 'call', 'call']);
});

test('runLoop: a call event the record refuses stops the fold there: no later call, no further request', async () => {
  const refused = fail('business', 'record_write_failed', 'business/write_failed: disk full');
  const recorder = memoryRecorder((write) => ('event' in write && write.event === 'call' ? refused : undefined));
  const loop = await runLoop(stepContext({ model: echoTwice(), recorder }));
  expect([loop.stop, loop.failure, loop.requests.length, loop.calls.length]).toEqual(['failed', refused, 1, 0]);
  expect(typesOf(recorder.events)).toEqual(['request', 'response']);
});

test('runLoop: an aborted signal stops new work — no request at all, or none after the turn it came in', async () => {
  const before = new AbortController();
  before.abort('SIGINT');
  const idle = stepContext({ model: echoTwice(), pipeline: { ...stepContext().pipeline, signal: before.signal } });
  expect((await runLoop(idle)).stop).toBe('interrupted');
  expect(idle.recorder.events).toEqual([]);

  const during = new AbortController();
  const aborting = echoTool('echo/1', {}, async () => (during.abort('SIGTERM'), ok({ data: { echoed: 'a' }, content: [textBlock('a')], evidence: 'bytes observed now' })));
  const context = stepContext({ model: echoTwice(), tools: () => ({ echo: aborting }), pipeline: { ...stepContext().pipeline, signal: during.signal } });
  const loop = await runLoop(context);
  expect([loop.stop, loop.requests.length]).toEqual(['interrupted', 1]);
  expect(typesOf(context.recorder.events).filter((t) => t === 'request')).toEqual(['request']);
});
