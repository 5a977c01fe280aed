/** TEST ONLY — living processes whose command line contains a marker, for tests that prove none survived. */
import { readFileSync } from 'node:fs';
import { allProcesses, isAlive } from '../index.ts';

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
