/**
 * The harness runs any Task, not only the excerpt: a second, minimal task (one
 * `echo` tool, one stage, one check) goes through the same run, loop, record
 * and `verify` recheck, with no tool name known to the harness.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { scratchDir } from '../../test/scratch.ts';
import { bind } from '../binding/index.ts';
import { canonicalHash, ok, sha256Hex } from '../contract/index.ts';
import { verify } from '../ledger/index.ts';
import { rechain, readEvents } from '../ledger/test-kit.ts';
import { attributesOf, textBlock } from '../pipeline/index.ts';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';
import { HOST_RULES } from './payload.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { Scenario, scriptedModel } from './scenario.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import type { Snapshot, Task } from './task.ts';
import { localTools } from './tools.ts';
import { testHost } from './testing/test-host.ts';
import { exitCodeOf } from '../base/index.ts';

const echo = echoContractWith(v.strictObject({ word: v.string() }));

function snapshotOf(files: readonly { readonly id: string; readonly bytes: Uint8Array }[]): Snapshot {
  const sources = files.map(({ id, bytes }) => ({ id, bytes, text: new TextDecoder().decode(bytes), sha256: sha256Hex(bytes), byteLength: bytes.byteLength }));
  return { id: `echo-${canonicalHash(sources.map((s) => s.sha256)).slice(0, 8)}`, sources };
}

/** Passes iff some echo call succeeded; recorded and live read the same thing (a call outcome). */
const echoed = (n: number): AcceptanceCheck[] => [{ id: 'echoed', object: 'echo calls', condition: 'an echo call succeeded', evidence: `${n} successful`, verdict: n > 0 ? 'pass' : 'fail' }];

const echoTask: Task = {
  prompt: { user: 'Echo one word.', rule: 'Echo exactly once.' },
  snapshot: () => snapshotOf([{ id: 'word', bytes: new TextEncoder().encode('hello') }]),
  snapshotOf,
  tools: {
    local: [
      {
        entry: { contract: echo, implementation: { kind: 'local', version: 'echo/1' } },
        make: () => ({
          contract: echo,
          binding: bind(echo, { implementation: { kind: 'local', version: 'echo/1' } }),
          attributes: attributesOf(echo),
          handler: async (input) => ok({ data: { echoed: (input as { word: string }).word }, content: [textBlock('ok')], evidence: 'bytes observed now' }),
        }),
      },
    ],
    mcp: { server: 'none', expected: [], adapt: () => [] },
    grant: [],
  },
  method: { stages: ['only'], stageOf: () => 'only', skill: 'none' },
  acceptance: {
    live: (run) => ({ checks: echoed(run.calls.filter((c) => c.name === 'echo' && c.outcome.ok).length), files: [], fields: { echo_calls: run.calls.length } }),
    recorded: (run) => ok(echoed(run.calls.filter((c) => c.name === 'echo' && c.outcome.ok).length)),
  },
  scenarios: { folder: 'nowhere', demo: 'none', overMcp: [] },
  artifact: { name: 'echo', folder: 'echoes' },
};

const scenario = v.parse(Scenario, {
  name: 'echo-once',
  description: 'one echo, then done',
  expect: { accepted: true },
  responses: [
    { tool_calls: [{ id: 't1', name: 'echo', arguments: { word: 'hi' } }], usage: { input_tokens: 1, output_tokens: 1 } },
    { text: 'done', usage: { input_tokens: 1, output_tokens: 1 } },
  ],
});

async function run(dir: string) {
  const outcome = await runTask({
    task: echoTask,
    model: scriptedModel(scenario),
    snapshot: echoTask.snapshot(),
    tools: localTools(echoTask),
    runId: 'echo',
    runDir: dir,
    ...testHost(),
  });
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.value;
}

test('a task that is not the excerpt runs, is accepted from its own checks, and verifies with its own recheck', async () => {
  const dir = join(scratchDir('caplab-echo-task-'), 'run');
  const outcome = await run(dir);
  expect([outcome.loop.accepted, exitCodeOf(outcome.ending), outcome.loop.calls.map((c) => c.name)]).toEqual([true, 0, ['echo']]);
  const payload = JSON.parse(readFileSync(join(dir, 'requests/01-request.json'), 'utf8'));
  expect(payload.system[0].text).toBe(`${HOST_RULES} Echo exactly once.`);
  expect(payload.messages[0]).toEqual({ role: 'user', content: 'Echo one word.' });
  const acceptance = readEvents(dir).find((e) => e['type'] === 'acceptance')!;
  expect([acceptance['accepted'], acceptance['echo_calls'], acceptance['files']]).toEqual([true, 1, undefined]);
  const verified = verify(dir, { recheck: recheckAcceptance(echoTask) });
  expect(verified.ok && verified.value.recheck).toEqual({ decided: true, accepted: true, checks: echoed(1) });

  // The comparison of recorded and re-computed checks is the harness's own, whatever the task.
  rechain(dir, (events) => events.map((e) => (e['type'] === 'acceptance' ? { ...e, checks: [{ ...(e['checks'] as object[])[0], verdict: 'fail' }] } : e)));
  const forged = verify(dir, { recheck: recheckAcceptance(echoTask) });
  expect(forged.ok ? 'verified' : forged.kind).toBe('acceptance_mismatch');
});
