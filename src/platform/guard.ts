import { encodeGuardMessage, GUARD_ARG, isGuardableGroup, type GuardMessage } from './guard-protocol.ts';
import { currentPlatform } from './platform.ts';
import { trackChild } from './subreaper.ts';

/**
 * Hooks, servers and probe's temp folder die with caplab, even when caplab
 * is SIGKILLed and none of its code runs. PR_SET_PDEATHSIG would not do it:
 * it is cleared on fork (a hook's `sleep &` outlives it), it fires when the
 * spawning *thread* exits, and Bun.spawn has no pre-exec hook to set it.
 *
 * Instead a guard process (guard-process.ts: caplab's own executable with
 * `GUARD_ARG`) is started before the first child. Its stdin is one end of a
 * pipe (Bun makes it a socket pair) whose other end only caplab holds:
 * Bun.spawn gives every child fds 0–2 only, so no hook or server inherits
 * it. caplab registers each child's process group and probe's temp folder
 * there, and releases them once the group is ended (so a pgid reused later
 * is never killed); however caplab ends, the kernel closes its end, the
 * guard reads EOF, SIGKILLs the groups still registered, removes the
 * folders and exits.
 *
 * The guard runs in its own session (a Ctrl-C to caplab's group does not
 * reach it; caplab's own teardown handles that), ignores SIGINT, SIGTERM and
 * SIGHUP, has stdout and stderr on /dev/null (`caplab … | cat` ends when
 * caplab does), cwd `/` and an empty environment, and is unref'd: caplab
 * never waits for it.
 *
 * Gaps: no guard on Windows; a process that left its group (setsid) before
 * caplab died is in no registered group and is not killed; a child Bun.spawn
 * had forked but not yet returned when caplab was SIGKILLed is not
 * registered yet, so not guarded (the window is one spawn: milliseconds
 * under load). Probe's temp folder has no such gap: it is registered
 * before it is made.
 * Process-wide, like the subreaper: only the program entry enables it.
 */

/** caplab's end of the guard's input. */
export interface GuardLink {
  readonly pid: number;
  /** Writes one line into the pipe now, flushed: a SIGKILL right after it cannot lose it. */
  send(line: string): void;
  /** Ends the pipe, as caplab's exit does: the guard ends what is registered and exits. */
  close(): void;
}

/** Starts a guard process, or undefined when none can run here. */
export type StartGuard = () => GuardLink | undefined;

/** Tells the guard a registration is over (idempotent). */
export type Release = () => void;

const released: Release = () => undefined;

/** The registry caplab's spawners use; the process is started on first use, once. */
export class ProcessGuard {
  readonly #start: StartGuard;
  #link: GuardLink | undefined;
  #started = false;

  constructor(start: StartGuard) {
    this.#start = start;
  }

  /**
   * Starts the guard if it is not running yet. Call it before spawning a
   * child, so that every child is spawned while the guard's pipe is open.
   * @returns Whether a guard runs.
   */
  start(): boolean {
    if (!this.#started) {
      this.#started = true;
      this.#link = this.#start();
    }
    return this.#link !== undefined;
  }

  /** The guard's pid, once started. */
  get pid(): number | undefined {
    return this.#link?.pid;
  }

  /** Registers a process group (a child spawned with `detached: true`: pgid = pid) to be SIGKILLed if caplab dies. */
  group(pgid: number): Release {
    // kill(-1) would signal every process: refuse anything but a real group id.
    if (!isGuardableGroup(pgid)) return released;
    return this.#register({ kind: 'group', add: true, pgid });
  }

  /** Registers a folder to be removed (recursively) if caplab dies. */
  folder(path: string): Release {
    return this.#register({ kind: 'folder', add: true, path });
  }

  #register(message: GuardMessage): Release {
    if (!this.start()) return released;
    const link = this.#link!;
    link.send(encodeGuardMessage(message));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      link.send(encodeGuardMessage({ ...message, add: false }));
    };
  }
}

/** Ignores a rejected flush or end: a gone guard cannot be told anything, and the child still runs. */
function settle(result: unknown): void {
  if (result instanceof Promise) result.catch(() => undefined);
}

/** Spawns the guard: own session, stdin a pipe, stdout/stderr /dev/null, cwd `/`, empty env, unref'd. None where there are no process groups to guard (Windows). */
export function spawnGuard(command: readonly string[]): GuardLink | undefined {
  if (!currentPlatform().groups) return undefined;
  let proc: Bun.Subprocess<'pipe', 'ignore', 'ignore'>;
  try {
    proc = Bun.spawn([...command], { stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', detached: true, cwd: '/', env: {} });
  } catch {
    return undefined;
  }
  proc.unref();
  // caplab's own child: the subreaper's sweep must not take it for an escaped process.
  trackChild(proc.pid, proc.exited);
  const stdin = proc.stdin;
  return {
    pid: proc.pid,
    send(line) {
      try {
        stdin.write(line);
        settle(stdin.flush());
      } catch {
        // The guard is gone (EPIPE): nothing guards the children any more, and nothing else breaks.
      }
    },
    close() {
      try {
        settle(stdin.end());
      } catch {
        // Already closed.
      }
    },
  };
}

/**
 * How caplab's executable is started as the guard: compiled, itself with
 * `GUARD_ARG`; in development, Bun with the entry `main`. Compiled means the
 * entry lives in Bun's embedded filesystem (the test of mcp/wire/launch.ts `isCompiled`).
 */
export function guardCommand(main: string, execPath: string = process.execPath): string[] {
  const compiled = main.startsWith('/$bunfs/') || main.includes('~BUN');
  return compiled ? [execPath, GUARD_ARG] : [execPath, main, GUARD_ARG];
}

let command: readonly string[] | undefined;
const shared = new ProcessGuard(() => (command ? spawnGuard(command) : undefined));

/** The process-wide guard every spawner registers with; inert until `enableGuard`. */
export function processGuard(): ProcessGuard {
  return shared;
}

/**
 * Lets the shared guard start (lazily, with the first child). Called by the
 * program entry with its own path; a library embedding caplab keeps it off.
 */
export function enableGuard(main: string): void {
  command = guardCommand(main);
}
