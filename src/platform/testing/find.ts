/** TEST ONLY — living processes whose command line contains a marker, for tests that prove none survived. */
import { readFileSync } from 'node:fs';
import { allProcesses, isAlive, procStat } from '../index.ts';

/** Pids of living processes (zombies excluded) with `marker` as one of their arguments. */
export function livingWith(marker: string): number[] {
  return allProcesses()
    .filter(isAlive)
    .filter((stat) => {
      try {
        return readFileSync(`/proc/${stat.pid}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map((stat) => stat.pid);
}

/** Polls until no living process carries `marker`, or the deadline; the pids left. Never looks only once. */
export async function waitNoneWith(marker: string, withinMs = 5000): Promise<number[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const left = livingWith(marker);
    if (left.length === 0 || performance.now() >= deadline) return left;
    await Bun.sleep(20);
  }
}

/** Kills (by pid) whatever a failed test left with `marker`, so no test leaves a process behind. */
export function killAllWith(marker: string): void {
  for (const pid of livingWith(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** A process's command line (arguments joined by NUL), or undefined once it is gone. */
export function cmdlineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
}

/** A process as seen once: a pid alone may be reused, so the command line comes with it. */
export interface Seen {
  readonly pid: number;
  readonly cmdline: string;
}

/** Living descendants of `pid` now (children, their children, …), by pid and command line. */
export function descendants(pid: number): Seen[] {
  const all = allProcesses().filter(isAlive);
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length > 0; ) {
    const next = all.filter((s) => frontier.includes(s.ppid)).map((s) => s.pid);
    found.push(...next);
    frontier = next;
  }
  // A process that ended between the listing and the read is not one to look for afterwards.
  return found.flatMap((p) => {
    const cmdline = cmdlineOf(p);
    return cmdline === undefined ? [] : [{ pid: p, cmdline }];
  });
}

/** Whether a process seen before still runs (alive, and its pid not reused by another command line). */
export function stillRuns(seen: Seen): boolean {
  return isAlive(procStat(seen.pid)) && cmdlineOf(seen.pid) === seen.cmdline;
}

/** Kills (by pid) whichever of `seen` still runs, so a failed test leaves no process behind. */
export function killStillRunning(seen: readonly Seen[]): void {
  for (const s of seen.filter(stillRuns)) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * A shell snippet that starts `setsid sleep MARKER` in the background and
 * returns once that process runs `sleep`: setsid(1) calls setsid() and then
 * execs, so by then it has its own session, and whoever looks next (a sweep
 * naming what it killed) sees `sleep`, never `setsid`. Bounded (~10 s) so a
 * broken `ps` fails the test instead of hanging it.
 */
export function setsidSleep(marker: string): string {
  return `setsid sleep ${marker} >/dev/null 2>&1 & i=0; while [ "$(ps -o comm= -p $! 2>/dev/null)" != sleep ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done`;
}
