import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { bind, convertArguments } from '../binding/index.ts';
import { ok } from '../contract/index.ts';
import { fixtureSnapshot, readSourceContract } from '../excerpt/index.ts';
import { fixedClock } from '../ledger/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { runTask } from './run.ts';
import { loadScenario } from './scenario.ts';
import { localTools } from './tools.ts';

const snapshot = fixtureSnapshot();

test('a binding swapped between request and call is refused (binding_changed); neither handler runs the old call', async () => {
  const scenario = loadScenario('happy');
  if (!scenario.ok) throw new Error(scenario.message);
  // "The server restarted and now lists a different schema": same name, wider input.
  const drifted = { ...readSourceContract, input: v.strictObject({ source_id: v.string(), revision: v.optional(v.string()) }) };
  let newHandler = 0;
  let oldHandler = 0;
  const replacement: RuntimeTool = {
    contract: drifted,
    binding: bind(drifted, { implementation: { kind: 'mcp', version: 'restarted' } }),
    attributes: { readOnly: true, destructive: false, concurrencySafe: true, needsInteraction: false, deferred: false, fromMcp: true, maxResultBytes: 65536, timeoutMs: 1000 },
    handler: async () => (newHandler++, ok({ data: {}, text: 'new schema', evidence: 'bytes observed now' })),
  };
  const outcome = await runTask({
    scenario: scenario.value,
    snapshot,
    tools: async (s, id) => {
      const set = await localTools(s, id);
      if (!set.ok) return set;
      const tools = set.value.tools.map((t) => (t.contract.name === 'read_source' ? { ...t, handler: (i: unknown, c: Parameters<RuntimeTool['handler']>[1]) => (oldHandler++, t.handler(i, c)) } : t));
      return ok({ ...set.value, tools });
    },
    runId: 'swap',
    runDir: join(mkdtempSync(join(tmpdir(), 'caplab-swap-')), 'run'),
    clock: fixedClock(0),
    cwd: '/',
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'default', reason: 'test' }),
    convert: convertArguments,
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
