/**
 * TEST ONLY — launches and process checks for the MCP tests. Deliberately
 * independent of `platform/process-group.ts`, so the tests do not prove the code with itself.
 */
import { readFileSync } from 'node:fs';
import type { Timeouts } from '../../client/client.ts';
import type { Launch } from '../launch.ts';
import type { Mode } from '../../../excerpt/testing/misbehave.ts';

const MISBEHAVE = new URL('../../../excerpt/testing/misbehave.ts', import.meta.url).pathname;

/** Launch of the misbehaving server in one mode: Bun, absolute script path, empty env. */
export function misbehaveLaunch(mode: Mode): Launch {
  return { command: [process.execPath, MISBEHAVE, mode], cwd: '/', env: {} };
}

/** Short, configured limits so failing paths end quickly. */
export const FAST: Partial<Timeouts> = { handshakeMs: 5_000, callMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };

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
