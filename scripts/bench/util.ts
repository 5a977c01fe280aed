/** Timing, statistics and process bookkeeping for scripts/bench.ts. */
import { readdirSync, readFileSync } from 'node:fs';

/** Monotonic clock in microseconds (Bun.nanoseconds has ns resolution; µs reads well). */
export const nowUs = (): number => Bun.nanoseconds() / 1_000;

export interface Stats {
  readonly n: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

/** Linear-interpolated quantile of sorted samples. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    n: sorted.length,
    median: round(quantile(sorted, 0.5)),
    p10: round(quantile(sorted, 0.1)),
    p90: round(quantile(sorted, 0.9)),
    min: round(sorted[0]!),
    max: round(sorted[sorted.length - 1]!),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

/** a/b to two decimals; the only kind of "result" this bench states. */
export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/**
 * Living (non-zombie) processes whose argv contains one of the markers. Used
 * before and after the run to spot detached server grandchildren of the demo
 * that outlived it (they are no longer our children). Only a hint: another
 * run on the same machine can match too, so these are reported, never killed.
 */
export function processesMatching(markers: readonly string[]): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (markers.some((m) => argv.includes(m))) found.set(pid, argv.trim());
    } catch {
      // Exited between readdir and read.
    }
  }
  return found;
}

/** Living direct children of `parent` (ours by construction, so safe to stop by pid). */
export function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(ppid) === parent) pids.push(Number(entry));
    } catch {
      // Not a pid, or exited meanwhile.
    }
  }
  return pids;
}
