import { expect, test } from 'bun:test';
import { bind } from '../../binding/index.ts';
import { callState, echoContract, echoPipeline, echoTool, offering, settle } from '../testing/call-state.ts';
import { resolve } from './resolve.ts';

test('resolve adds the tool registered under the pinned binding id, and records that id', async () => {
  const tool = echoTool();
  const step = await settle(resolve.run(callState({}, echoPipeline(tool))));
  expect(step).toEqual({ adds: { tool, binding: tool.binding }, detail: tool.binding.id, failure: undefined, at: undefined });
});

test('resolve: a name the request did not offer stops the call as unknown_tool, adding nothing', async () => {
  const state = callState({});
  const step = await settle(resolve.run({ ...state, call: { ...state.call, name: 'nope' } }));
  expect([step.failure?.class, step.failure?.kind, step.adds]).toEqual(['invalid_arguments', 'unknown_tool', {}]);
});

test('resolve: a name now bound to another id stops the call as binding_changed', async () => {
  const shown = echoTool();
  const now = echoTool({ binding: bind(echoContract, { implementation: { kind: 'local', version: 'echo/2' } }) });
  const state = callState({}, echoPipeline(now));
  const step = await settle(resolve.run({ ...state, context: { ...state.context, request: offering(shown) } }));
  expect([step.failure?.class, step.failure?.kind]).toEqual(['precondition', 'binding_changed']);
});
