import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHash, ok } from '../contract/index.ts';
import { EXCERPT_SCENARIOS } from '../excerpt/index.ts';
import { textBlock, type RuntimeTool } from '../pipeline/index.ts';
import { runTask } from './run.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import type { Task } from './task.ts';
import { replacingTool } from './testing/replace-tool.ts';
import { testHost } from './testing/test-host.ts';

/** The excerpt with local tools, read_source's handler replaced by what `handler` makes of the real tool. */
const withReadSource = (handler: (tool: RuntimeTool) => RuntimeTool['handler']): Task => replacingTool('read_source', (t) => ({ ...t, handler: handler(t) }));

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
