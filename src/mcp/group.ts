import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process-group membership, read from /proc on Linux.
 *
 * Why /proc and not only `kill(-pgid, 0)`: a killed member stays a zombie
 * until its parent reaps it, and in a container whose PID 1 does not reap,
 * an orphaned grandchild stays a zombie forever. `kill(-pgid, 0)` counts
 * zombies as alive, so waiting on it could never end; a zombie runs no code.
 */

/** One /proc/PID/stat line, parsed. */
export interface ProcStat {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
}

/** Reads /proc/PID/stat, or undefined if the process is gone. */
export function procStat(pid: number): ProcStat | undefined {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm may contain spaces and parentheses: fields start after the last ')'.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
  };
}

const hasProc = process.platform === 'linux';

/** Pids of the group's members that can still run (zombies excluded). */
export function livingMembers(pgid: number): number[] {
  if (!hasProc) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = procStat(pid);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(pid);
  }
  return members;
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
