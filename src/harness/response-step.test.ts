import { expect, test } from 'bun:test';
import { fail, sha256Hex } from '../contract/index.ts';
import type { LoopState, LoopStep, RequestRecord } from './loop-state.ts';
import type { Model, ModelResponse } from './model.ts';
import { buildRequest, recordRequest } from './request-step.ts';
import { recordResponse, respond } from './response-step.ts';
import { echoCall, scripted, startState, stepContext } from './testing/loop-kit.ts';
import { memoryRecorder } from './testing/memory-recorder.ts';

const usage = { input_tokens: 3, output_tokens: 2 };

/** The state after the first request is recorded (in a context of its own), and that request. */
function asked(): { state: LoopState; request: RequestRecord } {
  const context = stepContext();
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  const request = recordRequest(context, startState(), built.value);
  if (!request.ok) throw new Error(request.message);
  return { state: { ...startState(), requests: [request.value] }, request: request.value };
}

async function answerOf(model: Model, request: RequestRecord): Promise<ModelResponse> {
  const answer = await respond({ model }, request);
  if ('exhausted' in answer) throw new Error(answer.exhausted);
  return answer;
}

test('respond: the model gets the recorded request’s id, index and exact payload bytes', async () => {
  const { request } = asked();
  const seen: unknown[] = [];
  const model: Model = { ...scripted([{ text: 'done', usage }]), respond: async (r) => (seen.push(r), { exhausted: 'none' }) };
  expect(await respond({ model }, request)).toEqual({ exhausted: 'none' });
  expect(seen).toEqual([{ id: 'req-01', index: 0, payload: request.sent.payload }]);
});

test('recordResponse: the response file and event, labelled by origin, then the response joins the request and the conversation', async () => {
  const { state, request } = asked();
  const answer = await answerOf(scripted([{ text: 'reading', tool_calls: [echoCall('t1', 'hi')], usage }]), request);
  const steps: LoopStep[] = [];
  const context = stepContext({ onStep: (step) => steps.push(step) });
  const next = recordResponse(context, state, answer);
  if (!next.ok) throw new Error(next.message);
  const bytes = context.recorder.files.get('requests/01-response.json')!;
  expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(JSON.parse(JSON.stringify(answer.message)));
  const file = { path: 'requests/01-response.json', sha256: sha256Hex(bytes), bytes: bytes.byteLength };
  expect(context.recorder.events).toEqual([{ type: 'response', data: { request_id: 'req-01', files: [{ role: 'model_response', ...file }], scripted: true, usage: answer.usage, stop_reason: 'tool_use' } }]);
  expect(next.value.requests).toEqual([{ ...request, response: answer, responseFile: file }]);
  expect(next.value.messages).toEqual([...state.messages, { role: 'assistant', content: answer.content }]);
  expect(steps).toEqual([{ type: 'response', requestId: 'req-01', response: answer }]);
  // The state it was given is unchanged.
  expect(state.requests).toEqual([request]);
});

test('recordResponse: a number JSON cannot carry is the record’s stand-in in the file and the history, never null', async () => {
  const { state, request } = asked();
  const answer = await answerOf(scripted([{ tool_calls: [{ id: 't1', name: 'echo', arguments: { word: 'hi', n: Number.POSITIVE_INFINITY } }], usage }]), request);
  const context = stepContext();
  const next = recordResponse(context, state, answer);
  if (!next.ok) throw new Error(next.message);
  const text = new TextDecoder().decode(context.recorder.files.get('requests/01-response.json'));
  expect(text).toContain('"unrecordable": "invalid_arguments/non_finite_number');
  expect(text).not.toContain('null');
  expect(JSON.stringify(next.value.messages.at(-1))).toContain('unrecordable');
});

test('recordResponse: a model with no response left is recorded as missing; the state stays as it was', () => {
  const { state } = asked();
  const context = stepContext();
  const next = recordResponse(context, state, { exhausted: 'no more' });
  expect(next).toEqual({ ok: true, value: state });
  expect(context.recorder.events).toEqual([{ type: 'response', data: { request_id: 'req-01', missing: true, reason: 'no more' } }]);
});

test('recordResponse: a response file the record refuses stops it: no event, nothing reported', async () => {
  const { state, request } = asked();
  const answer = await answerOf(scripted([{ text: 'done', usage }]), request);
  const refused = fail('precondition', 'record_limit', 'the response file would pass a record limit');
  const steps: LoopStep[] = [];
  const context = stepContext({ recorder: memoryRecorder((write) => ('file' in write ? refused : undefined)), onStep: (step) => steps.push(step) });
  expect(recordResponse(context, state, answer)).toEqual(refused);
  expect([context.recorder.events, steps]).toEqual([[], []]);
});
