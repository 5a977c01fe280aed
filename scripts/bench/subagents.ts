/**
 * Subagents (issue 27): whole in-process runs of the excerpt task, `happy`
 * (no Agent offered: format 4) against `subagent-creates` (the same reads
 * and create, made inside a carder subagent: format 11), interleaved pairs,
 * each then verified offline. Reported per side: median and p95 ms of the
 * run and of its verify, events and ledger bytes; and the ratios. Measurement
 * only: the one check is that each run ends as its scenario expects and verifies.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXCERPT_SCENARIOS, excerptTask } from '../../src/excerpt/index.ts';
import { createHost, loadScenario, recheckAcceptance, scriptedModel } from '../../src/harness/index.ts';
import { fixedClock, verify } from '../../src/ledger/index.ts';
import { nowUs, ratio } from './util.ts';

interface Side {
  readonly scenario: string;
  readonly format: string;
  readonly events: number;
  readonly ledgerBytes: number;
  readonly runMs: { readonly median: number; readonly p95: number };
  readonly verifyMs: { readonly median: number; readonly p95: number };
}

export interface SubagentsBench {
  readonly reps: number;
  readonly plain: Side;
  readonly subagent: Side;
  readonly runRatio: number;
  readonly verifyRatio: number;
}

const quantile = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 100) / 100;
};

async function once(scenario: string, dir: string, embedded: readonly string[]): Promise<{ run: number; verify: number; events: number; bytes: number; format: string }> {
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, scenario);
  if (!loaded.ok) throw new Error(loaded.message);
  const host = createHost({ cwd: dir, agents: embedded.length > 0 ? { embedded } : {} });
  const t0 = nowUs();
  const outcome = await host.run(excerptTask, scriptedModel(loaded.value), { runId: 'bench', runDir: join(dir, 'run'), clock: fixedClock(0) });
  const t1 = nowUs();
  if (!outcome.ok || !outcome.value.loop.accepted) throw new Error(`${scenario}: not accepted`);
  const verified = verify(join(dir, 'run'), { recheck: recheckAcceptance(excerptTask), expectedHead: outcome.value.head });
  const t2 = nowUs();
  if (!verified.ok) throw new Error(`${scenario}: ${verified.kind}`);
  const format = JSON.parse(readFileSync(join(dir, 'run', 'ledger.head'), 'utf8')).format as string;
  const result = { run: (t1 - t0) / 1000, verify: (t2 - t1) / 1000, events: outcome.value.events, bytes: statSync(join(dir, 'run', 'ledger.jsonl')).size, format };
  rmSync(join(dir, 'run'), { recursive: true, force: true });
  return result;
}

/** `reps` interleaved pairs (after 2 warm-up pairs) of happy and subagent-creates. */
export async function subagentsBench(scratch: string, reps: number, log: (text: string) => void): Promise<SubagentsBench> {
  const samples = { plain: [] as Awaited<ReturnType<typeof once>>[], subagent: [] as Awaited<ReturnType<typeof once>>[] };
  for (let rep = -2; rep < reps; rep++) {
    const plain = await once('happy', scratch, []);
    const subagent = await once('subagent-creates', scratch, ['carder']);
    if (rep >= 0) samples.plain.push(plain), samples.subagent.push(subagent);
  }
  log(`subagents: ${reps} pairs done\n`);
  const side = (scenario: string, list: readonly Awaited<ReturnType<typeof once>>[]): Side => ({
    scenario,
    format: list[0]!.format,
    events: list[0]!.events,
    ledgerBytes: list[0]!.bytes,
    runMs: { median: quantile(list.map((s) => s.run), 0.5), p95: quantile(list.map((s) => s.run), 0.95) },
    verifyMs: { median: quantile(list.map((s) => s.verify), 0.5), p95: quantile(list.map((s) => s.verify), 0.95) },
  });
  const plain = side('happy', samples.plain);
  const subagent = side('subagent-creates', samples.subagent);
  return { reps, plain, subagent, runRatio: ratio(subagent.runMs.median, plain.runMs.median), verifyRatio: ratio(subagent.verifyMs.median, plain.verifyMs.median) };
}

/** The bench's table for it. */
export function renderSubagents(bench: SubagentsBench): string {
  let out = `\nsubagents, whole in-process runs (${bench.reps} interleaved pairs, ms)       run              verify\n`;
  out += `${'scenario'.padEnd(20)}${'format'.padEnd(18)}${'events'.padStart(7)}${'ledger B'.padStart(10)}${'median'.padStart(9)}${'p95'.padStart(8)}${'median'.padStart(9)}${'p95'.padStart(8)}\n`;
  for (const s of [bench.plain, bench.subagent]) {
    out += `${s.scenario.padEnd(20)}${s.format.padEnd(18)}${String(s.events).padStart(7)}${String(s.ledgerBytes).padStart(10)}${s.runMs.median.toFixed(2).padStart(9)}${s.runMs.p95.toFixed(2).padStart(8)}${s.verifyMs.median.toFixed(2).padStart(9)}${s.verifyMs.p95.toFixed(2).padStart(8)}\n`;
  }
  return `${out}  ratio subagent/plain: run ${bench.runRatio}, verify ${bench.verifyRatio} (same reads and create, one level deeper)\n`;
}
