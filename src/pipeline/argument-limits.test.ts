import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { bind, convertArguments } from '../binding/index.ts';
import { LIMITS, ok } from '../contract/index.ts';
import type { Hook } from './hook.ts';
import type { CallRecord } from './call-record.ts';
import { textBlock } from './result-block.ts';
import { executeCall } from './run.ts';
import type { Pipeline } from './stages/index.ts';
import { echoPipeline, offering } from './testing/call-state.ts';
import { echoContractWith } from './testing/echo-contract.ts';
import { attributesOf, type RuntimeTool } from './tool.ts';

const echoContract = echoContractWith(v.strictObject({ word: v.string(), times: v.optional(v.number()), extra: v.optional(v.unknown()) }));

/** One echo tool behind a pipeline; `entered` counts handler entries. */
function setup(hooks: readonly Hook[] = [], convert: Pipeline['convert'] = (_binding, args) => ok({ converted: args, filled: [] })) {
  let entered = 0;
  const tool: RuntimeTool = {
    contract: echoContract,
    binding: bind(echoContract, { implementation: { kind: 'local', version: 'echo/1' } }),
    attributes: attributesOf(echoContract, {}),
    handler: async () => (entered++, ok({ data: { echoed: 'x' }, content: [textBlock('x')], evidence: 'bytes observed now' })),
  };
  const pipeline = echoPipeline(tool, { hooks, convert });
  const request = offering(tool);
  const call = (args: unknown) => executeCall({ id: 't1', name: 'echo', arguments: args }, request, 'act-01', pipeline);
  return { call, entered: () => entered };
}

const summary = (record: CallRecord) => [record.outcome.ok ? 'ok' : `${record.outcome.class}/${record.outcome.kind}`, record.stages.at(-1)?.stage, record.handlerEntered];

const nest = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};

test('a non-finite number in the model’s arguments (1e400) is refused before conversion; the handler is not entered', async () => {
  const { call, entered } = setup();
  const record = await call(JSON.parse('{"word":"a","times":1e400}'));
  expect(summary(record)).toEqual(['invalid_arguments/non_finite_number', 'validate', false]);
  expect(record.stages.map((stage) => stage.stage)).toEqual(['resolve', 'validate']);
  expect(record.outcome.ok ? '' : record.outcome.message).toContain('$.times');
  expect(entered()).toBe(0);
});

test('arguments nested past LIMITS.argumentsDepth are too_deep; at the limit they pass', async () => {
  const { call, entered } = setup();
  // `{ extra: … }` is one level itself.
  expect(summary(await call({ word: 'a', extra: nest(LIMITS.argumentsDepth) }))).toEqual(['invalid_arguments/too_deep', 'validate', false]);
  expect(summary(await call({ word: 'a', extra: nest(LIMITS.argumentsDepth - 1) }))).toEqual(['ok', 'post_hooks', true]);
  expect(entered()).toBe(1);
});

test('arguments past LIMITS.argumentsBytes as canonical JSON are too_large', async () => {
  const { call, entered } = setup();
  expect(summary(await call({ word: 'a'.repeat(LIMITS.argumentsBytes) }))).toEqual(['invalid_arguments/too_large', 'validate', false]);
  expect(entered()).toBe(0);
});

test('a hook’s updatedInput holding a non-finite number or deep nesting is refused at pre_hooks by kind', async () => {
  for (const [updatedInput, kind] of [
    [{ word: 'a', times: Number.POSITIVE_INFINITY }, 'invalid_arguments/non_finite_number'],
    [{ word: 'a', extra: nest(10_000) }, 'invalid_arguments/too_deep'],
  ] as const) {
    const rewrite: Hook = { name: 'rewrite', event: 'PreToolUse', matcher: '*', run: async () => ({ hook: 'rewrite', updatedInput }) };
    const { call, entered } = setup([rewrite]);
    const record = await call({ word: 'a' });
    expect(summary(record)).toEqual([kind, 'pre_hooks', false]);
    expect(entered()).toBe(0);
  }
});

test('the model’s arguments are checked before conversion: nesting that would overflow the converter’s stack is refused first', async () => {
  const { call, entered } = setup([], convertArguments);
  const record = await call({ word: 'a', extra: nest(200_000) });
  expect(summary(record)).toEqual(['invalid_arguments/too_deep', 'validate', false]);
  expect(record.stages.map((stage) => stage.stage)).toEqual(['resolve', 'validate']);
  expect(entered()).toBe(0);
});
