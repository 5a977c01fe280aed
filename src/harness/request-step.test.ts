import { expect, test } from 'bun:test';
import { fail, LIMITS, sha256Hex } from '../contract/index.ts';
import { intentTools, mappingTag } from './intent.ts';
import type { LoopStep } from './loop-state.ts';
import { encodePayload, HOST_RULES, toolSpec } from './payload.ts';
import { buildRequest, recordRequest } from './request-step.ts';
import { runNames } from './run-names.ts';
import { echoTool, startState, STEP_TASK, stepContext } from './testing/loop-kit.ts';
import { memoryRecorder } from './testing/memory-recorder.ts';

test('buildRequest: the payload is the conversation under the table in effect now, with the host’s max_tokens; nothing is recorded', () => {
  const tool = echoTool();
  const context = stepContext({ tools: () => ({ echo: tool }), maxTokens: 77 });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  const expected = encodePayload({
    model: 'scripted:steps',
    max_tokens: 77,
    system: [{ type: 'text', text: `${HOST_RULES} ${STEP_TASK.prompt.rule}` }],
    tools: [toolSpec(tool.binding)],
    messages: [{ role: 'user', content: 'Echo one word.' }],
  });
  expect(new TextDecoder().decode(built.value.bytes)).toBe(new TextDecoder().decode(expected));
  expect([built.value.index, built.value.stage, Object.keys(built.value.bindings)]).toEqual([0, 'task', ['echo']]);
  expect(context.recorder.events).toEqual([]);
  // No name was taken: the request recorded next is still the first.
  expect(context.names.request().id).toBe('req-01');
});

test('buildRequest: the task’s stage picks the method blocks', () => {
  const stages: string[] = [];
  const context = stepContext({
    task: { ...STEP_TASK, method: { stages: ['a', 'b'], stageOf: (calls) => (calls.length > 0 ? 'b' : 'a'), skill: 'x' } },
    method: { blocks: (stage) => (stages.push(stage), [{ type: 'text', text: `stage ${stage}` }]), adoption: () => null },
  });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  expect(built.value.stage).toBe('a');
  expect(new TextDecoder().decode(built.value.bytes)).toContain('"text": "stage a"');
  expect(stages).toEqual(['a']);
});

test('buildRequest: a payload past requestPayloadBytes is refused (precondition/too_large), and nothing is recorded', () => {
  const context = stepContext();
  const state = { ...startState(), messages: [{ role: 'user' as const, content: 'x'.repeat(LIMITS.requestPayloadBytes) }] };
  const built = buildRequest(context, state);
  expect(!built.ok && [built.class, built.kind]).toEqual(['precondition', 'too_large']);
  expect(!built.ok && built.message).toContain('request 1 would be');
  expect(context.recorder.events).toEqual([]);
});

test('recordRequest: names the request, writes its payload, records the event, then reports it', () => {
  const steps: LoopStep[] = [];
  const context = stepContext({
    task: { ...STEP_TASK, requestFields: ({ id, payload }) => ({ task_field: `${id}:${payload.byteLength}`, request_id: 'the host’s wins' }) },
    onStep: (step) => {
      // Reported only once recorded.
      expect(context.recorder.events.map((e) => e.type)).toEqual(['request']);
      steps.push(step);
    },
  });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  const recorded = recordRequest(context, startState(), built.value);
  if (!recorded.ok) throw new Error(recorded.message);
  const file = { path: 'requests/01-request.json', sha256: sha256Hex(built.value.bytes), bytes: built.value.bytes.byteLength };
  expect(context.recorder.files.get('requests/01-request.json')).toEqual(built.value.bytes);
  expect(context.recorder.events).toEqual([
    {
      type: 'request',
      data: {
        task_field: `req-01:${built.value.bytes.byteLength}`,
        request_id: 'req-01',
        index: 0,
        payload: file,
        tools: intentTools(built.value.bindings),
        mapping_tag: mappingTag(built.value.bindings),
        method: null,
        files: [{ role: 'request_payload', ...file }],
      },
    },
  ]);
  expect(recorded.value.sent).toEqual({ id: 'req-01', payload: built.value.bytes, payloadSha256: file.sha256, bindings: built.value.bindings, stage: built.value.stage });
  expect(recorded.value.names).toEqual({ id: 'req-01', payload: 'requests/01-request.json', response: 'requests/01-response.json' });
  expect(steps).toEqual([{ type: 'request', intent: recorded.value.intent }]);
});

test('recordRequest: in a child scope the request and its files are the child’s', () => {
  const context = stepContext({ names: runNames().child('agent') });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  const recorded = recordRequest(context, startState(), built.value);
  if (!recorded.ok) throw new Error(recorded.message);
  expect([recorded.value.intent.request_id, [...context.recorder.files.keys()]]).toEqual(['agent-1/req-01', ['requests/agent-1/01-request.json']]);
});

test('recordRequest: a payload file the record refuses stops it there: no event, nothing reported', () => {
  const refused = fail('precondition', 'record_limit', 'the file would pass a record limit');
  const steps: LoopStep[] = [];
  const context = stepContext({ recorder: memoryRecorder((write) => ('file' in write ? refused : undefined)), onStep: (step) => steps.push(step) });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  expect(recordRequest(context, startState(), built.value)).toEqual(refused);
  expect([context.recorder.events, steps]).toEqual([[], []]);
});

test('recordRequest: a request event the record refuses is not reported', () => {
  const refused = fail('business', 'record_write_failed', 'business/write_failed: disk full');
  const steps: LoopStep[] = [];
  const context = stepContext({ recorder: memoryRecorder((write) => ('event' in write ? refused : undefined)), onStep: (step) => steps.push(step) });
  const built = buildRequest(context, startState());
  if (!built.ok) throw new Error(built.message);
  expect(recordRequest(context, startState(), built.value)).toEqual(refused);
  expect(steps).toEqual([]);
});
