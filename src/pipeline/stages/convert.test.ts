import { expect, test } from 'bun:test';
import { fail, ok } from '../../contract/index.ts';
import { callState, echoPipeline, echoTool, settle } from '../testing/call-state.ts';
import type { Pipeline } from './stage.ts';
import { convert } from './convert.ts';

const tool = echoTool();
const converting = (convertArgs: Pipeline['convert'], args: unknown = { word: 'hi' }) => {
  const state = callState({ binding: tool.binding }, echoPipeline(tool, { convert: convertArgs }));
  return settle(convert.run({ ...state, call: { ...state.call, arguments: args } }));
};

test('convert adds the converted arguments; the record names the conversion', async () => {
  const step = await converting((_b, args) => ok({ converted: { ...(args as object), times: 1 }, filled: [] }));
  expect([step.adds, step.detail]).toEqual([{ arguments: { original: { word: 'hi' }, converted: { word: 'hi', times: 1 } } }, tool.binding.conversion.arguments]);
});

test('convert records the fields it filled in, and only when there are some', async () => {
  const filled = await converting((_b, args) => ok({ converted: args, filled: ['times'] }));
  const none = await converting((_b, args) => ok({ converted: args, filled: [] }));
  expect(filled.adds.arguments).toEqual({ original: { word: 'hi' }, converted: { word: 'hi' }, filled: ['times'] });
  expect(Object.keys(none.adds.arguments ?? {})).toEqual(['original', 'converted']);
});

test('convert: a failed conversion stops the call at convert', async () => {
  const step = await converting(() => fail('precondition', 'unrepresentable', 'x'));
  expect([step.failure?.kind, step.at]).toEqual(['unrepresentable', undefined]);
});

test('convert: raw arguments past the bounds stop the call as a validate failure, before the converter reads them', async () => {
  let read = 0;
  const step = await converting((_b, args) => (read++, ok({ converted: args, filled: [] })), { n: Number.POSITIVE_INFINITY });
  expect([step.failure?.kind, step.at, read]).toEqual(['non_finite_number', 'validate', 0]);
});
