import { currentPlatform, type Platform } from './platform.ts';
import { allProcesses, isAlive } from './proc.ts';

/**
 * Process-group membership, read from /proc on Linux; elsewhere the group's
 * existence stands for its leader. On Windows there are no groups: each call
 * acts on the child's own pid (its descendants are not tracked, a gap the
 * close report states), never on a negative one.
 *
 * Why /proc and not only `kill(-pgid, 0)`: a killed member stays a zombie
 * until its parent reaps it, and in a container whose PID 1 does not reap,
 * an orphaned grandchild stays a zombie forever. `kill(-pgid, 0)` counts
 * zombies as alive, so waiting on it could never end; a zombie runs no code.
 */

/** The pid a signal for the group goes to: the group (negative) where groups exist, the child itself on Windows. */
function target(pgid: number, platform: Platform): number {
  return platform.groups ? -pgid : pgid;
}

/** Whether any process, zombies included, is in the group (kill(2) with signal 0 answers ESRCH when none is). */
function groupExists(pgid: number, platform: Platform): boolean {
  try {
    platform.kill(target(pgid, platform), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Pids of the group's members that can still run (zombies excluded). */
export function livingMembers(pgid: number, platform: Platform = currentPlatform()): number[] {
  // An empty group (the usual case once a server exited and was reaped) needs no /proc scan.
  if (!groupExists(pgid, platform)) return [];
  if (!platform.procfs) return [pgid];
  return allProcesses()
    .filter((stat) => stat.pgrp === pgid && isAlive(stat))
    .map((stat) => stat.pid);
}

/** Sends a signal to every member of a group; a group already gone is not an error. */
export function signalGroup(pgid: number, signal: 'SIGTERM' | 'SIGKILL', platform: Platform = currentPlatform()): void {
  try {
    platform.kill(target(pgid, platform), signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Waits until no living member remains or the deadline passes.
 * Polls: a grandchild is not our child, so no exit event exists for it.
 */
export async function waitGroupGone(pgid: number, withinMs: number, pollMs = 5, platform: Platform = currentPlatform()): Promise<number[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const members = livingMembers(pgid, platform);
    if (members.length === 0 || performance.now() >= deadline) return members;
    await Bun.sleep(Math.min(pollMs, Math.max(0, deadline - performance.now())));
  }
}
