import { fail, ok, redactorFor, type Failure, type Outcome, type Redactor } from '../../contract/index.ts';
import { livingMembers, processGuard, reapOrphans, signalGroup, trackChild, waitGroupGone, type OrphanReport } from '../../platform/index.ts';
import type { Launch } from './launch.ts';
import { StdinWriter } from './stdin-writer.ts';

/**
 * A started server process as the stdio transport sees it (the process
 * seam, beneath the message-level `Transport`). Tests may provide an
 * in-memory one; `spawnChild` provides the real one.
 */
export interface ChildProcess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Writes bytes to the server's stdin after those written before; a failed write means the server stopped reading. */
  write(bytes: Uint8Array): Outcome<void>;
  /** Bytes given to `write` that the server has not taken yet. */
  unsentBytes(): number;
  /** Resolves with closed/connection_lost once a write fails, also one that failed after `write` returned; never rejects. */
  readonly inputLost: Promise<Failure>;
  /** Closes the server's stdin (the polite stop signal of MCP stdio). */
  endInput(): void;
  /** Resolves with the exit code, or null when a signal ended it. */
  readonly exited: Promise<number | null>;
  readonly hasExited: () => boolean;
  signal(signal: 'SIGTERM' | 'SIGKILL'): void;
  /** Living processes of the server's group, leader included. */
  readonly members: () => number[];
  /** Hides the values caplab placed in the server's environment from what its stderr gives out. */
  readonly redactor?: Redactor;
  /** Tells caplab's guard the group is ended (it need not kill it if caplab dies); see platform's guard.ts. */
  readonly unguard?: () => void;
}

/** How long each close step may take before the next, harsher one. */
export interface Graces {
  /** After stdin EOF, before SIGTERM. */
  readonly exitMs: number;
  /** After SIGTERM, before SIGKILL. */
  readonly termMs: number;
  /** After SIGKILL, before giving up and reporting survivors. */
  readonly killMs: number;
}

export type SpawnFn = (launch: Launch) => Outcome<ChildProcess>;

/**
 * Starts a server in its own session and process group (`detached: true`
 * calls setsid, so pgid = pid) with an explicit environment — Bun.spawn would
 * pass all of process.env otherwise — and only fds 0–2. The group is
 * registered with caplab's guard until `terminate` has ended it.
 */
export const spawnChild: SpawnFn = function spawnChild(launch) {
  const guard = processGuard();
  guard.start();
  let proc: Bun.Subprocess<'pipe', 'pipe', 'pipe'>;
  try {
    proc = Bun.spawn([...launch.command], {
      cwd: launch.cwd,
      env: { ...launch.env },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      detached: true,
    });
  } catch (error) {
    return fail('spawn', 'spawn_failed', `cannot start ${launch.command[0] ?? '(empty command)'}: ${(error as Error).message}`);
  }
  trackChild(proc.pid, proc.exited);
  const unguard = guard.group(proc.pid);
  let exited = false;
  const exitedPromise = proc.exited.then((code) => {
    exited = true;
    return proc.signalCode ? null : code;
  });
  const pgid = proc.pid;
  const stdin = new StdinWriter(proc.stdin);
  return ok({
    pid: proc.pid,
    stdout: proc.stdout,
    stderr: proc.stderr,
    write: (bytes) => stdin.write(bytes),
    unsentBytes: () => stdin.unsentBytes,
    inputLost: stdin.lost,
    endInput: () => stdin.end(),
    exited: exitedPromise,
    hasExited: () => exited,
    signal: (signal) => signalGroup(pgid, signal),
    members: () => livingMembers(pgid),
    redactor: redactorFor(launch.env),
    unguard,
  });
};

/** What closing a server took, for the record. */
export interface CloseReport {
  readonly exitCode: number | null;
  readonly steps: readonly ('stdin_end' | 'sigterm' | 'sigkill')[];
  /** Pids of the group still alive after the last step (should be empty). */
  readonly survivors: readonly number[];
  /**
   * Processes that had left the group (setsid) and were found through the
   * child subreaper and killed, by name and count; on a platform without one,
   * the gap instead.
   */
  readonly orphans: OrphanReport;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: Timer | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Stops a server and its whole group: end stdin, grace, SIGTERM to the
 * group, grace, SIGKILL to the group. Members are checked after the leader
 * exits too: a grandchild may outlive a well-behaved leader. Then the
 * processes that left the group (setsid) and were reparented to caplab are
 * killed the same way (see platform's `reapOrphans`).
 */
export async function terminate(child: ChildProcess, graces: Graces): Promise<CloseReport> {
  const steps: CloseReport['steps'][number][] = ['stdin_end'];
  child.endInput();
  await within(child.exited, graces.exitMs);
  let survivors = child.members();
  if (survivors.length > 0) {
    steps.push('sigterm');
    child.signal('SIGTERM');
    survivors = await waitGroupGone(child.pid, graces.termMs);
  }
  if (survivors.length > 0) {
    steps.push('sigkill');
    child.signal('SIGKILL');
    survivors = await waitGroupGone(child.pid, graces.killMs);
  }
  const exitCode = (await within(child.exited, graces.killMs)) ?? null;
  // Ended, or sent SIGKILL: from here the guard need not (and a reused pgid must not be) kill it.
  child.unguard?.();
  const orphans = await reapOrphans(graces);
  return { exitCode, steps, survivors, orphans };
}
