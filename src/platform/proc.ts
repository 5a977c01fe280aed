import { readdirSync, readFileSync } from 'node:fs';

/** One /proc/PID/stat line, parsed (Linux). */
export interface ProcStat {
  readonly pid: number;
  /** The command name the kernel keeps (`comm`, at most 15 bytes). */
  readonly name: string;
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
  // comm may contain spaces and parentheses: it runs from the first '(' to the last ')'.
  const close = line.lastIndexOf(')');
  const fields = line.slice(close + 2).split(' ');
  return {
    pid,
    name: line.slice(line.indexOf('(') + 1, close),
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
  };
}

/** Every process /proc shows now, parsed; one that ends while being read is left out. */
export function allProcesses(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = procStat(pid);
    if (stat) stats.push(stat);
  }
  return stats;
}

/** A zombie (or a process being torn down) runs no code: it is not alive for teardown purposes. */
export function isAlive(stat: ProcStat | undefined): boolean {
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/**
 * Pids of this process's children, from /proc/self/task/TID/children (every
 * thread's: a reparented orphan may land on any of them), without reading
 * every process. Undefined when the kernel does not offer the file
 * (CONFIG_PROC_CHILDREN): the caller then scans /proc.
 */
export function ownChildren(): number[] | undefined {
  try {
    const pids: number[] = [];
    for (const task of readdirSync('/proc/self/task')) {
      const listed = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim();
      if (listed !== '') for (const pid of listed.split(' ')) pids.push(Number(pid));
    }
    return pids;
  } catch {
    return undefined;
  }
}
