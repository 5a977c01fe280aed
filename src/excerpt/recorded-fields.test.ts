/**
 * The excerpt's own fields of a record — run_start's snapshot, each request's
 * disclosed_sources — are re-checked by its recheck for every record, one that
 * ended before a verdict too.
 */
import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { recheckAcceptance, runTask, scriptedModel } from '../harness/index.ts';
import { happyScenario } from '../harness/testing/happy.ts';
import { testHost } from '../harness/testing/test-host.ts';
import { verify } from '../ledger/index.ts';
import { rechain } from '../ledger/test-kit.ts';
import { excerptTask } from './task.ts';

async function run(dir: string, onStep?: Parameters<typeof runTask>[0]['onStep']): Promise<void> {
  await runTask({ task: excerptTask, model: scriptedModel(happyScenario()), runId: 'fields', runDir: dir, ...testHost(), ...(onStep ? { onStep } : {}) }).catch(() => undefined);
}
const kindOf = (dir: string): string => {
  const report = verify(dir, { recheck: recheckAcceptance(excerptTask) });
  return report.ok ? `verifies (decided: ${report.value.recheck?.decided})` : `${report.kind}: ${report.message}`;
};

test('a snapshot file that is not UTF-8 text is snapshot_mismatch, not a crash of the verifier', async () => {
  const dir = join(scratchDir('caplab-fields-'), 'run');
  await run(dir);
  expect(kindOf(dir)).toBe('verifies (decided: true)');
  writeFileSync(join(dir, 'snapshot/alpha.md'), new Uint8Array([0x61, 0xff, 0x62]));
  rechain(dir);
  expect(kindOf(dir)).toBe('snapshot_mismatch: a recorded snapshot file is not UTF-8 text');
});

test('a run that ended before its verdict still has its disclosure and its snapshot list re-checked', async () => {
  const dir = join(scratchDir('caplab-fields-'), 'run');
  // A crash in the loop after the first call: run_end failed, no acceptance event.
  await run(dir, (step) => {
    if (step.type === 'call') throw new Error('boom');
  });
  expect(kindOf(dir)).toBe('verifies (decided: false)');
  rechain(dir, (events) => events.map((e) => (e['type'] === 'request' ? { ...e, disclosed_sources: ['alpha'] } : e)));
  expect(kindOf(dir)).toStartWith('disclosure_mismatch: request req-01 records disclosed [alpha]');
  rechain(dir, (events) => events.map((e) => (e['type'] === 'request' ? { ...e, disclosed_sources: [] } : e.type === 'run_start' ? { ...e, snapshot: { ...(e['snapshot'] as object), sources: [] } } : e)));
  expect(kindOf(dir)).toBe("snapshot_mismatch: run_start's list of sources (id, sha256, bytes) is not what the snapshot files are");
});
