import { dlopen, FFIType } from 'bun:ffi';
import { currentPlatform, type OsName } from './platform.ts';
import { allProcesses, isAlive, ownChildren, procStat, type ProcStat } from './proc.ts';

/**
 * No survivors, even after `setsid` (SPEC F-LIMITS). A process that leaves
 * its process group (a hook's or a server's grandchild calling `setsid`)
 * escapes every group signal. On Linux caplab makes itself a child subreaper
 * (`prctl(PR_SET_CHILD_SUBREAPER, 1)`, through `bun:ffi`): such a process,
 * once its parent dies, is reparented to caplab instead of to PID 1, so it
 * shows up in /proc with caplab's pid as its ppid and can be killed at close.
 *
 * Gap: on other platforms (macOS, Windows) there is no subreaper here; an
 * escaped process is neither found nor killed, and every close report says so.
 * Windows has no process groups either: there only the child itself is
 * signalled, and the gap says that no descendant is tracked or killed.
 *
 * The sweep kills only children caplab did not start itself (`trackChild`
 * registers those while they run) and reaps each by its pid
 * (`waitpid(pid, WNOHANG)`); never `waitpid(-1)`, which would take exit
 * statuses from Bun's own child handling. Process-wide state: the subreaper
 * attribute belongs to the process, so this module keeps it once.
 */

/** How many processes of one name. */
export interface NamedCount {
  readonly name: string;
  readonly count: number;
}

/** What a sweep did. Names and counts only: pids would make reproducible records differ. */
export interface OrphanReport {
  /** Whether this process is a child subreaper, so escaped processes could be found at all. */
  readonly subreaper: boolean;
  /** Escaped processes (and the members of groups they led) that ended after caplab's signals. */
  readonly killed: readonly NamedCount[];
  /** Still alive after SIGKILL and its grace (should be empty). */
  readonly survivors: readonly NamedCount[];
  /** Set when not a subreaper: what is therefore not tracked. */
  readonly gap?: string;
}

export interface SweepGraces {
  /** After SIGTERM, before SIGKILL. */
  readonly termMs: number;
  /** After SIGKILL, before reporting survivors. */
  readonly killMs: number;
}

const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;
/** Each round kills what is reparented now; its children are reparented when it dies, for the next round. */
const MAX_ROUNDS = 8;

interface Libc {
  prctl(option: number, arg2: bigint, arg3: bigint, arg4: bigint, arg5: bigint): number;
  waitpid(pid: number, status: null, options: number): number;
}

/** What the close report says is not tracked on `os` when this process is no subreaper (the platform's words, Windows' stronger). */
export function gapOn(os: OsName): string {
  if (os === 'linux') return 'this process is not a child subreaper (caplab becomes one only as a program, in main.ts): processes that leave their process group (setsid) are not found at close';
  if (os === 'win32') return 'no process groups or child subreaper on win32: descendants of a server or hook are not tracked or killed on Windows (only the child itself is signalled); a command hook needs sh on PATH';
  return `no child subreaper on ${os}: processes that leave their process group (setsid) are not found or killed at close`;
}

let libc: Libc | undefined;
/** Why becoming a subreaper failed on Linux, when it did; otherwise the gap is the platform's (`gapOn`). */
let failure: string | undefined;
const gap = (): string => failure ?? gapOn(currentPlatform().os);
let enabled = false;
const tracked = new Set<number>();

function openLibc(): Libc {
  const lib = dlopen('libc.so.6', {
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  });
  return lib.symbols as unknown as Libc;
}

/**
 * Makes this process a child subreaper (Linux). Call once, from the program
 * entry, in a process whose children all come through `trackChild`: the
 * sweep treats every other child as escaped. Idempotent.
 * @returns Whether it is one now, and the gap when not.
 */
export function becomeSubreaper(): { readonly enabled: boolean; readonly gap?: string } {
  if (enabled || !currentPlatform().subreaper) return enabled ? { enabled } : { enabled, gap: gap() };
  try {
    libc ??= openLibc();
    if (libc.prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) === 0) enabled = true;
    else failure = 'prctl(PR_SET_CHILD_SUBREAPER) failed: processes that leave their process group (setsid) are not found at close';
  } catch (error) {
    failure = `libc could not be loaded for prctl (${(error as Error).message}): processes that leave their process group (setsid) are not found at close`;
  }
  return enabled ? { enabled } : { enabled, gap: gap() };
}

/** Registers a child caplab started (a server, a hook) until it exits: the sweep never touches it. */
export function trackChild(pid: number, exited: Promise<unknown>): void {
  tracked.add(pid);
  const forget = () => void tracked.delete(pid);
  exited.then(forget, forget);
}

/** Reaps one exited child by its pid; true when it is gone (reaped now, or not ours to wait for). */
function reaped(pid: number): boolean {
  const result = libc?.waitpid(pid, null, WNOHANG) ?? -1;
  return result === pid || (result === -1 && !isAlive(procStat(pid)));
}

function signal(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: it ended meanwhile.
  }
}

/** Children of ours caplab did not start (zombies among them reaped), and the living members of groups they lead. */
function findEscaped(): ProcStat[] {
  // Usually every child is one caplab started: then nothing escaped, and /proc needs no full scan.
  const children = ownChildren();
  if (children !== undefined && children.every((pid) => tracked.has(pid))) return [];
  const all = allProcesses();
  const roots = all.filter((s) => s.ppid === process.pid && !tracked.has(s.pid));
  for (const zombie of roots.filter((s) => !isAlive(s))) reaped(zombie.pid);
  const alive = roots.filter(isAlive);
  const rootPids = new Set(alive.map((s) => s.pid));
  const leaders = new Set(alive.filter((s) => s.pgrp === s.pid).map((s) => s.pid));
  return all.filter((s) => isAlive(s) && s.pid !== process.pid && (rootPids.has(s.pid) || leaders.has(s.pgrp)));
}

/** Polls until every target is gone (reaped or no longer alive) or the grace ends; the ones left. */
async function waitGone(targets: readonly ProcStat[], withinMs: number): Promise<ProcStat[]> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const left = targets.filter((t) => !(t.ppid === process.pid ? reaped(t.pid) : !isAlive(procStat(t.pid))));
    if (left.length === 0 || performance.now() >= deadline) return left;
    await Bun.sleep(Math.min(5, Math.max(0, deadline - performance.now())));
  }
}

function counted(stats: readonly ProcStat[]): NamedCount[] {
  const counts = new Map<string, number>();
  for (const s of stats) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, count]) => ({ name, count }));
}

async function sweep(graces: SweepGraces): Promise<OrphanReport> {
  if (!enabled) return { subreaper: false, killed: [], survivors: [], gap: gap() };
  const killed: ProcStat[] = [];
  let survivors: ProcStat[] = [];
  for (let round = 0; round < MAX_ROUNDS && survivors.length === 0; round++) {
    const targets = findEscaped();
    if (targets.length === 0) break;
    const signalAll = (which: 'SIGTERM' | 'SIGKILL', of: readonly ProcStat[]) => {
      for (const t of of) signal(t.pid, which);
    };
    signalAll('SIGTERM', targets);
    let left = await waitGone(targets, graces.termMs);
    if (left.length > 0) {
      signalAll('SIGKILL', left);
      left = await waitGone(left, graces.killMs);
    }
    killed.push(...targets.filter((t) => !left.includes(t)));
    survivors = left;
  }
  return { subreaper: true, killed: counted(killed), survivors: counted(survivors) };
}

/** Two sweeps as one report: counts added by name. */
export function mergeReports(a: OrphanReport, b: OrphanReport): OrphanReport {
  const add = (x: readonly NamedCount[], y: readonly NamedCount[]) => {
    const counts = new Map<string, number>();
    for (const { name, count } of [...x, ...y]) counts.set(name, (counts.get(name) ?? 0) + count);
    return [...counts].sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)).map(([name, count]) => ({ name, count }));
  };
  return { ...a, ...b, killed: add(a.killed, b.killed), survivors: add(a.survivors, b.survivors) };
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Finds every process that escaped to caplab (see above), SIGTERM, grace,
 * SIGKILL, grace, and reaps each by pid; repeats for what their deaths
 * reparent. Sweeps never overlap: a second waits for the first.
 */
export function reapOrphans(graces: SweepGraces): Promise<OrphanReport> {
  const next = queue.then(() => sweep(graces));
  queue = next.catch(() => undefined);
  return next;
}
