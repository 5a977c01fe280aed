/**
 * Task calls in runs (W10, issue 28): whole `caplab run --mcp-config`
 * processes with `caplab serve` as the configured server (the host offers
 * MCP 2025-11-25), interleaved pairs of (a) one `read_source` call, plain,
 * and (b) one `count_words` call with `delay_ms: 0`, made as an MCP task
 * (tools/call with params.task, tasks/get at the server's pollInterval held
 * to `LIMITS.taskPollFloorMs`, tasks/result, one closing tasks/get: ledger
 * format 12); each then `caplab verify` of its run dir, also a whole process,
 * as the expectations bench does for runs over --mcp-config. Reported per
 * side: median and p95 ms of the run and of its verify (of 3 pairs, the p95
 * is the slowest), events, ledger bytes; for the task, the polls its call
 * event records and when it was seen completed; and the ratios b/a.
 * Measurement only: the one check is that each run exits 0 (accepted), each
 * verify verifies, and nothing is left —
 * no run dir, no entry in the processes' TMPDIR, no server carrying this
 * bench's mark.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../src/contract/index.ts';
import { nowUs, ratio } from './util.ts';

type Track = <T extends { pid: number }>(t: T) => T;
type Quantiles = { readonly median: number; readonly p95: number };

interface Side {
  readonly tool: string;
  readonly format: string;
  readonly events: number;
  readonly ledgerBytes: number;
  readonly runMs: Quantiles;
  readonly verifyMs: Quantiles;
}

export interface TasksBench {
  readonly reps: number;
  readonly plain: Side;
  readonly task: Side & { readonly polls: readonly number[]; readonly completedMs: Quantiles; readonly pollFloorMs: number };
  readonly ratios: { readonly run: number; readonly verify: number; readonly events: number; readonly ledgerBytes: number };
  /** What was left: servers carrying the mark (stopped by pid, then reported), entries in TMPDIR. */
  readonly leftovers: { readonly servers: readonly number[]; readonly tempEntries: readonly string[] };
}

/** The variable each configured server of this bench carries, so that a leftover one is known to be ours. */
const MARK = 'CAPLAB_BENCH_TASKS_MARK';

/** Nearest-rank quantile, two decimals (as subagents.ts reports). */
const quantile = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 100) / 100;
};
const quantiles = (samples: readonly number[]): Quantiles => ({ median: quantile(samples, 0.5), p95: quantile(samples, 0.95) });

/** An expectations scenario: one call of `tool` on server `serve`, ok, then the end. */
function writeScenario(path: string, tool: string, args: Record<string, unknown>): string {
  const usage = { input_tokens: 0, output_tokens: 0 };
  writeFileSync(path, JSON.stringify({
    task: 'expectations',
    name: tool.replace('_', '-'),
    description: `One ${tool} call to caplab serve.`,
    servers: ['serve'],
    permissions: { allow: [`mcp__serve__${tool}`] },
    responses: [{ tool_calls: [{ id: 'call', name: `mcp__serve__${tool}`, arguments: args }], usage }, { text: 'Done.', usage }],
    expect: { calls: { call: { ok: true } }, end: { calls: 1, stop: 'final_answer' } },
  }));
  return path;
}

/** One whole process: its wall time in ms, its exit code as expected. */
async function timed(argv: readonly string[], cwd: string, env: Record<string, string>, track: Track): Promise<number> {
  const t0 = nowUs();
  const proc = track(Bun.spawn([...argv], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' }));
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  if (code !== 0) throw new Error(`${argv.slice(1).join(' ')} exited ${code}: ${err.slice(-500)}`);
  return (nowUs() - t0) / 1000;
}

interface Sample { readonly run: number; readonly verify: number; readonly format: string; readonly events: number; readonly bytes: number; readonly polls: number | null; readonly completedMs: number | null }

/** What the record says: its format and events (ledger.head), its bytes, the call event's task. */
function readRecord(out: string): Omit<Sample, 'run' | 'verify'> {
  const head = JSON.parse(readFileSync(join(out, 'ledger.head'), 'utf8')) as { format: string; count: number };
  const lines = readFileSync(join(out, 'ledger.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
  const call = lines.map((l) => JSON.parse(l) as Record<string, any>).find((e) => e['type'] === 'call');
  const task = call?.['task'] as { polls: number; transitions: { status: string; ms: number }[] } | undefined;
  const completed = task?.transitions.find((t) => t.status === 'completed');
  return { format: head.format, events: head.count, bytes: statSync(join(out, 'ledger.jsonl')).size, polls: task?.polls ?? null, completedMs: completed?.ms ?? null };
}

/** Living processes whose environment carries `MARK=mark` (ours by construction). */
function marked(mark: string): number[] {
  const needle = `${MARK}=${mark}\0`;
  return readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z ') && readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle);
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

/** `reps` interleaved pairs (after one warm-up pair) of the plain call and the task call, each verified. */
export async function tasksBench(root: string, entry: readonly string[], scratch: string, reps: number, track: Track, log: (text: string) => void): Promise<TasksBench> {
  const dir = mkdtempSync(join(scratch, 'tasks-'));
  // Bun keeps its transpiler cache under HOME; TMPDIR is for what caplab leaves.
  const [home, tmp] = [join(dir, 'home'), join(dir, 'tmp')];
  mkdirSync(home), mkdirSync(tmp);
  const env = { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: tmp };
  const mark = `${process.pid}-${Date.now()}`;
  const config = join(dir, 'servers.mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { serve: { command: process.execPath, args: [join(root, 'src/main.ts'), 'serve'], cwd: root, env: { [MARK]: mark } } } }));
  const kinds = {
    plain: { tool: 'read_source', scenario: writeScenario(join(dir, 'plain.json'), 'read_source', { source_id: 'alpha' }) },
    task: { tool: 'count_words', scenario: writeScenario(join(dir, 'task.json'), 'count_words', { source_id: 'alpha', delay_ms: 0 }) },
  } as const;
  const samples: Record<keyof typeof kinds, Sample[]> = { plain: [], task: [] };
  log(`tasks: ${reps} interleaved pairs of runs over --mcp-config (read_source, count_words as a task), each verified …\n`);
  try {
    for (let n = 0; n <= reps; n++) {
      for (const name of n % 2 === 0 ? (['plain', 'task'] as const) : (['task', 'plain'] as const)) {
        const out = join(dir, `run-${name}-${n}`);
        const run = await timed([...entry, 'run', '--scenario', kinds[name].scenario, '--mcp-config', config, '--out', out], root, env, track);
        const verify = await timed([...entry, 'verify', out], root, env, track);
        const record = readRecord(out);
        rmSync(out, { recursive: true, force: true });
        if (n > 0) samples[name].push({ run, verify, ...record });
      }
    }
    const servers = marked(mark);
    for (const pid of servers) process.kill(pid, 'SIGKILL');
    const leftovers = { servers, tempEntries: readdirSync(tmp) };
    const side = (name: keyof typeof kinds): Side => {
      const list = samples[name];
      return { tool: kinds[name].tool, format: list[0]!.format, events: list[0]!.events, ledgerBytes: list[0]!.bytes, runMs: quantiles(list.map((s) => s.run)), verifyMs: quantiles(list.map((s) => s.verify)) };
    };
    const [plain, task] = [side('plain'), side('task')];
    if (samples.task.some((s) => s.polls === null || s.completedMs === null)) throw new Error('a count_words call event records no task (not called as one?)');
    return {
      reps,
      plain,
      task: { ...task, polls: samples.task.map((s) => s.polls!), completedMs: quantiles(samples.task.map((s) => s.completedMs!)), pollFloorMs: LIMITS.taskPollFloorMs },
      ratios: { run: ratio(task.runMs.median, plain.runMs.median), verify: ratio(task.verifyMs.median, plain.verifyMs.median), events: ratio(task.events, plain.events), ledgerBytes: ratio(task.ledgerBytes, plain.ledgerBytes) },
      leftovers,
    };
  } finally {
    // On a throw too: a server still carrying the mark is ours to stop.
    for (const pid of marked(mark)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's table for it. */
export function renderTasks(bench: TasksBench): string {
  let out = `\ntask calls in runs, whole processes over --mcp-config (${bench.reps} interleaved pairs, ms)   run              verify\n`;
  out += `${'call'.padEnd(22)}${'format'.padEnd(18)}${'events'.padStart(7)}${'ledger B'.padStart(10)}${'median'.padStart(9)}${'p95'.padStart(8)}${'median'.padStart(9)}${'p95'.padStart(8)}\n`;
  const row = (label: string, s: Side) => `${label.padEnd(22)}${s.format.padEnd(18)}${String(s.events).padStart(7)}${String(s.ledgerBytes).padStart(10)}${s.runMs.median.toFixed(1).padStart(9)}${s.runMs.p95.toFixed(1).padStart(8)}${s.verifyMs.median.toFixed(1).padStart(9)}${s.verifyMs.p95.toFixed(1).padStart(8)}\n`;
  out += row('(a) read_source', bench.plain) + row('(b) count_words, task', bench.task);
  const polls = [...new Set(bench.task.polls)].sort((a, b) => a - b).join('/');
  out += `  ratio b/a: run ${bench.ratios.run}, verify ${bench.ratios.verify}, events ${bench.ratios.events}, ledger bytes ${bench.ratios.ledgerBytes}\n`;
  out += `  the task call: ${polls} tasks/get per call (the last one closing), seen completed at ${bench.task.completedMs.median} ms median (p95 ${bench.task.completedMs.p95}) after its tools/call with delay_ms 0 —\n`;
  out += `  its time is dominated by the ${bench.task.pollFloorMs} ms poll floor (LIMITS.taskPollFloorMs; caplab serve asks for the same pollInterval), not by work\n`;
  const { servers, tempEntries } = bench.leftovers;
  out += `  left behind: ${servers.length === 0 ? 'no server' : `servers ${servers.join(', ')} (stopped)`}; ${tempEntries.length === 0 ? 'TMPDIR empty' : `in TMPDIR: ${tempEntries.join(', ')}`}; run dirs removed\n`;
  return out;
}
