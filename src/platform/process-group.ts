import { allProcesses, isAlive } from './proc.ts';

/**
 * Process-group membership, read from /proc on Linux.
 *
 * Why /proc and not only `kill(-pgid, 0)`: a killed member stays a zombie
 * until its parent reaps it, and in a container whose PID 1 does not reap,
 * an orphaned grandchild stays a zombie forever. `kill(-pgid, 0)` counts
 * zombies as alive, so waiting on it could never end; a zombie runs no code.
 */

const hasProc = process.platform === 'linux';

/** Whether any process, zombies included, is in the group (kill(2) with signal 0 answers ESRCH when none is). */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Pids of the group's members that can still run (zombies excluded). */
export function livingMembers(pgid: number): number[] {
  // An empty group (the usual case once a server exited and was reaped) needs no /proc scan.
  if (!groupExists(pgid)) return [];
  if (!hasProc) return [pgid];
  return allProcesses()
    .filter((stat) => stat.pgrp === pgid && isAlive(stat))
    .map((stat) => stat.pid);
}

/** Sends a signal to every member of a group; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Waits until no living member remains or the deadline passes.
 * Polls: a grandchild is not our child, so no exit event exists for it.
 */
export async function waitGroupGone(pgid: number, withinMs: number, pollMs = 5): Promise<number[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const members = livingMembers(pgid);
    if (members.length === 0 || performance.now() >= deadline) return members;
    await Bun.sleep(Math.min(pollMs, Math.max(0, deadline - performance.now())));
  }
}
