import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as v from 'valibot';
import { fail, ok } from '../contract/index.ts';
import { executeCall, textBlock, type Hook } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import { echoPipeline, offering } from '../pipeline/testing/call-state.ts';
import { defineTool } from './define-tool.ts';
import { localProvider } from './tools.ts';

const root = join(import.meta.dir, '../..');

test('a handler reading a field its contract does not have (or as another type), or returning data its result would not take, fails tsc', async () => {
  const fixture = join(root, 'test/types/define-tool.ts');
  expect(readFileSync(fixture, 'utf8').split('@ts-expect-error').length - 1).toBeGreaterThanOrEqual(5);
  const run = Bun.spawn([join(root, 'node_modules/.bin/tsc'), '--noEmit', '--listFiles', '-p', join(root, 'test/types/define-tool.tsconfig.json')], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  const output = `${out}${err}`;
  // Every directive met its error (an unused one is TS2578), and the fixture and defineTool were in the program.
  expect(output.split('\n').filter((line) => line.includes('error TS'))).toEqual([]);
  expect(code).toBe(0);
  const files = new Set(output.split('\n').map((line) => relative(root, line.trim())));
  expect([files.has('test/types/define-tool.ts'), files.has('src/harness/define-tool.ts')]).toEqual([true, true]);
}, 120_000); // one tsc over a small program, seconds

const contract = echoContractWith(v.strictObject({ word: v.pipe(v.string(), v.minLength(1)) }));

test('defineTool binds a local tool under its version and attributes; its check and handler get only input the schema accepted', async () => {
  const seen: string[] = [];
  const tool = defineTool({
    contract,
    version: 'echo/7',
    attributes: { timeoutMs: 50 },
    check: (input) => (seen.push(`check ${input.word}`), input.word === 'no' ? fail('precondition', 'not_found', 'refused by the check') : undefined),
    handler: async ({ word }) => (seen.push(`handler ${word}`), ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' })),
  });
  expect(tool.entry).toEqual({ contract, implementation: { kind: 'local', version: 'echo/7' } });
  expect(localProvider([tool]).offers).toEqual([{ binding: { tool: 'echo' }, contract, implementation: { kind: 'local', version: 'echo/7' } }]);
  const made = tool.make();
  expect([made.binding.implementation, made.attributes.timeoutMs, made.attributes.readOnly]).toEqual([{ kind: 'local', version: 'echo/7' }, 50, true]);
  const call = (word: string) => executeCall({ id: 't1', name: 'echo', arguments: { word } }, offering(made), 'act-1', echoPipeline(made));
  const done = await call('hi');
  expect(done.outcome.ok && done.outcome.value.data).toEqual({ echoed: 'hi' });
  const empty = await call('');
  expect(empty.outcome.ok || `${empty.outcome.class}/${empty.outcome.kind}`).toBe('invalid_arguments/length');
  const refused = await call('no');
  expect([refused.outcome.ok || `${refused.outcome.class}/${refused.outcome.kind}`, refused.handlerEntered]).toEqual(['precondition/not_found', false]);
  expect(seen).toEqual(['check hi', 'handler hi', 'check no']);
});

test("a hook's rewrite of a defineTool call is validated again: the handler gets the rewrite, and an invalid one never reaches it", async () => {
  const got: unknown[] = [];
  const tool = defineTool({ contract, version: 'echo/1', handler: async (input) => (got.push(input), ok({ data: { echoed: input.word }, content: [textBlock(input.word)], evidence: 'bytes observed now' })) });
  const made = tool.make();
  const rewriting = (updatedInput: unknown): Hook => ({ name: 'rewrite', event: 'PreToolUse', matcher: '*', run: async () => ({ hook: 'rewrite', updatedInput }) });
  const call = (hook: Hook) => executeCall({ id: 't1', name: 'echo', arguments: { word: 'hi' } }, offering(made), 'act-1', echoPipeline(made, { hooks: [hook] }));
  expect((await call(rewriting({ word: 'rewritten' }))).outcome.ok).toBe(true);
  const bad = await call(rewriting({ word: 3 }));
  expect([bad.outcome.ok || bad.outcome.class, bad.handlerEntered, got]).toEqual(['invalid_arguments', false, [{ word: 'rewritten' }]]);
});
