/**
 * TEST ONLY — process checks for the MCP tests. Deliberately independent of
 * `platform/process-group.ts`, so the tests do not prove the code with itself.
 */
import { readFileSync } from 'node:fs';

/** Whether a pid names a process that can still run (exists and is not a zombie). */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  return state !== 'Z' && state !== 'X';
}

/** The pid a test server announced on stderr as `NAME=PID`, if any. */
export function announcedPid(stderr: string, name: string): number | undefined {
  const match = new RegExp(`${name}=(\\d+)`).exec(stderr);
  return match ? Number(match[1]) : undefined;
}
