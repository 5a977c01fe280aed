import { expect, test } from 'bun:test';
import { fail } from '../../contract/index.ts';
import { callState, echoTool, settle } from '../testing/call-state.ts';
import { validate, validateInput } from './validate.ts';

const strict = echoTool({ check: (input) => ((input as { word: string }).word === 'forbidden' ? fail('precondition', 'target_exists', 'no') : undefined) });
const validating = (converted: unknown) => settle(validate.run(callState({ tool: strict, arguments: { original: converted, converted } })));

test('validate adds the checked input, which the handler will get', async () => {
  const step = await validating({ word: 'hi', times: 2 });
  expect([step.adds, step.detail, step.failure]).toEqual([{ input: { word: 'hi', times: 2 } }, undefined, undefined]);
});

test('validate checks bounds, then the schema, then the tool-specific check, and stops at the first that fails', async () => {
  const kinds = [];
  for (const input of [{ word: 'hi', times: Number.NaN }, { word: '' }, { word: 'forbidden' }]) kinds.push((await validating(input)).failure?.kind);
  expect(kinds).toEqual(['non_finite_number', 'length', 'target_exists']);
});

test('validateInput gives the tool-specific check the call context', () => {
  const seen: string[] = [];
  const tool = echoTool({ check: (_input, context) => (seen.push(context.toolCallId), undefined) });
  const state = callState({ tool });
  expect(validateInput(tool, { word: 'hi' }, state.context)).toEqual({ ok: true, value: { word: 'hi' } });
  expect(seen).toEqual(['t1']);
});
