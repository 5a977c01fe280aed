import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { bind } from '../binding/index.ts';
import { canonicalHash, ok } from '../contract/index.ts';
import { EXCERPT_SCENARIOS, readSourceContract } from '../excerpt/index.ts';
import { textBlock, type RuntimeTool } from '../pipeline/index.ts';
import { runTask } from './run.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { scratchDir } from '../../test/scratch.ts';
import { replacingTool } from './testing/replace-tool.ts';
import { testHost } from './testing/test-host.ts';

/** The excerpt with local tools, read_source's handler replaced by what `handler` makes of the real tool. */
const withReadSource = (handler: (tool: RuntimeTool) => RuntimeTool['handler']): Task => replacingTool('read_source', (t) => ({ ...t, handler: handler(t) }));

test('a binding swapped between request and call is refused (binding_changed); neither handler runs the old call', async () => {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  // "The server restarted and now lists a different schema": same name, wider input.
  const drifted = { ...readSourceContract, input: v.strictObject({ source_id: v.string(), revision: v.optional(v.string()) }) };
  let newHandler = 0;
  let oldHandler = 0;
  const replacement: RuntimeTool = {
    contract: drifted,
    binding: bind(drifted, { implementation: { kind: 'mcp', version: 'restarted' } }),
    attributes: { readOnly: true, destructive: false, concurrencySafe: true, needsInteraction: false, deferred: false, fromMcp: true, maxResultBytes: 65536, timeoutMs: 1000 },
    handler: async () => (newHandler++, ok({ data: {}, content: [textBlock('new schema')], evidence: 'bytes observed now' })),
  };
  const outcome = await runTask({
    task: withReadSource((t) => (i, c) => (oldHandler++, t.handler(i, c))),
    model: scriptedModel(scenario.value),
    runId: 'swap',
    runDir: join(scratchDir('caplab-swap-'), 'run'),
    ...testHost(),
    // After the first response, the table holds the restarted server's tool.
    registry: (table, requestIndex) => (requestIndex >= 1 ? { ...table, read_source: replacement } : table),
  });
  if (!outcome.ok) throw new Error(outcome.message);
  const reads = outcome.value.loop.calls.filter((c) => c.name === 'read_source');
  expect(reads.map((c) => (c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`))).toEqual(['precondition/binding_changed', 'precondition/binding_changed']);
  expect([oldHandler, newHandler]).toEqual([0, 0]);
  expect(reads.every((c) => c.bindingId === undefined && c.handlerEntered === false)).toBe(true);
  // The request recorded the binding it was shown; the refused call names it.
  const intent = outcome.value.loop.requests[0]!.intent;
  expect(intent.tools.find((t) => t.name === 'read_source')?.binding_id).not.toBe(replacement.binding.id);
  expect(outcome.value.loop.accepted).toBe(false);
  const ledger = readFileSync(join(outcome.value.runDir, 'ledger.jsonl'), 'utf8');
  expect(ledger).toContain('binding_changed');
});

test('a local result that breaks its contract is refused (business/result_invalid); the ledger keeps the raw result hash', async () => {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  const raw = { totally: 'wrong' };
  const dir = mkdtempSync(join(tmpdir(), 'caplab-result-'));
  try {
    const outcome = await runTask({
      task: withReadSource(() => async () => ok({ data: raw, content: [textBlock('fine')], evidence: 'bytes observed now' })),
      model: scriptedModel(scenario.value),
      runId: 'wrong-result',
      runDir: join(dir, 'run'),
      ...testHost(),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.loop.accepted).toBe(false);
    const events = readFileSync(join(outcome.value.runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const reads = events.filter((e) => e.type === 'call' && e.name === 'read_source');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect([read.outcome.ok, read.outcome.class, read.outcome.kind, read.handler_entered]).toEqual([false, 'business', 'result_invalid', true]);
      expect(read.outcome.raw_result_sha256).toBe(canonicalHash(raw));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
