import { expect, test } from 'bun:test';
import { join } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../test/scratch.ts';
import { ok } from '../contract/index.ts';
import { rechain } from '../ledger/test-kit.ts';
import { textBlock } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import { defineTool } from './define-tool.ts';
import { excerptTask } from '../excerpt/index.ts';
import { createHost } from './host.ts';
import { Scenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { localProvider } from './tools.ts';
import { verifyRun } from './verify-run.ts';

const echo = defineTool({
  contract: echoContractWith(v.strictObject({ word: v.string() })),
  version: 'echo/1',
  handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' }),
});
const echoed = (n: number): AcceptanceCheck[] => [{ id: 'echoed', object: 'echo calls', condition: 'one succeeded', evidence: `${n} successful`, verdict: n > 0 ? 'pass' : 'fail' }];
const succeeded = (calls: readonly { outcome: { ok: boolean } }[]) => echoed(calls.filter((c) => c.outcome.ok).length);
const task: Task = {
  id: 'echo',
  prompt: { user: 'Echo one word.', rule: 'Echo exactly once.' },
  tools: () => [localProvider([echo])],
  acceptance: { live: (run) => ({ checks: succeeded(run.calls), files: [], fields: {} }), recorded: (run) => ok(succeeded(run.calls)) },
};
const usage = { input_tokens: 1, output_tokens: 1 };
const model = scriptedModel(v.parse(Scenario, { name: 'echo', description: 'echo, then done', expect: { accepted: true }, responses: [{ tool_calls: [{ id: 't1', name: 'echo', arguments: { word: 'hi' } }], usage }, { text: 'done', usage }] }));

async function recorded(): Promise<{ dir: string; head: string }> {
  const run = await createHost({ cwd: scratchDir('caplab-verify-run-') }).run(task, model, { runId: 'echo' });
  if (!run.ok) throw new Error(run.message);
  return { dir: run.value.runDir, head: run.value.head };
}

test('verifyRun re-checks with the task the record names, anchored to a head when given one', async () => {
  const { dir, head } = await recorded();
  const verified = verifyRun(dir, [task]);
  expect(verified.ok && [verified.value.head, verified.value.recheck]).toEqual([head, { decided: true, accepted: true, checks: echoed(1) }]);
  expect(verifyRun(dir, [task], { expectedHead: head }).ok).toBe(true);
  const other = verifyRun(dir, [task], { expectedHead: '0'.repeat(64) });
  expect(other.ok || other.kind).toBe('head_mismatch');
  expect(verifyRun(join(dir, 'nothing'), [task]).ok).toBe(false);
});

test("a record naming no task (before format 4) is `unnamed`'s, by default the first task's", () => {
  // Written by caplab before tasks had ids: the excerpt task's.
  const dir = join(import.meta.dir, '../../fixtures/records/v2-demo-local');
  expect(verifyRun(dir, [excerptTask, task]).ok).toBe(true);
  const asEcho = verifyRun(dir, [task, excerptTask]);
  // The excerpt's own acceptance fields (receipt, card, …) are no field the echo task names.
  expect(asEcho.ok || [asEcho.kind, asEcho.message]).toEqual(['bad_event', 'line 11: acceptance has a field "card" that neither the ledger (caplab.ledger/2) nor task "echo" names']);
  expect(verifyRun(dir, [task, excerptTask], { unnamed: 'excerpt' }).ok).toBe(true);
  const none = verifyRun(dir, []);
  expect(none.ok || none.kind).toBe('unknown_task');
});

test('a record naming a task not given is unknown_task, whatever `unnamed` says', async () => {
  const { dir } = await recorded();
  rechain(dir, (events) => events.map((e) => (e['type'] === 'run_start' ? { ...e, task: 'nosuch' } : e)));
  const unknown = verifyRun(dir, [task], { unnamed: 'echo' });
  expect(unknown.ok || [unknown.kind, unknown.message]).toEqual(['unknown_task', 'run_start names task "nosuch", which this caplab does not know']);
});

test('a task recheck that throws is a verifier_error, never a throw', async () => {
  const { dir } = await recorded();
  const throwing: Task = { ...task, acceptance: { ...task.acceptance, recorded: () => { throw new Error('boom'); } } };
  const report = verifyRun(dir, [throwing]);
  expect(report.ok || [report.class, report.kind, report.message, report.at]).toEqual(['evidence', 'verifier_error', 'the verifier failed on this input (a caplab bug; please report it): Error: boom', { file: '.' }]);
});
