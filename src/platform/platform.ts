/**
 * The operating system as caplab's process teardown sees it: one value,
 * made once from `process.platform` on first use (never at module load), so
 * a test can put another in its place (`usePlatform`) and drive the
 * teardown of a platform it does not run on.
 *
 * What each does:
 * - linux: process groups (`kill(-pgid)`), membership read from /proc, a
 *   child subreaper for processes that left their group (setsid).
 * - darwin (and any other POSIX system): process groups; membership is the
 *   group's existence (no /proc); no subreaper, a gap every close report states.
 * - win32: no process groups: teardown signals the child's own pid, never a
 *   negative one; descendants of a server or hook are neither tracked nor
 *   killed, a gap every close report and `run_end` state; no folder fsync.
 */

export type OsName = 'linux' | 'darwin' | 'win32';

/** The signals teardown sends, and 0 (does the target exist). */
export type TeardownSignal = 'SIGTERM' | 'SIGKILL' | 0;

export interface Platform {
  readonly os: OsName;
  /** Whether processes form groups a negative pid signals (POSIX). */
  readonly groups: boolean;
  /** Whether /proc lists processes with their group and parent (Linux). */
  readonly procfs: boolean;
  /** Whether this OS offers a child subreaper (Linux `prctl(PR_SET_CHILD_SUBREAPER)`). */
  readonly subreaper: boolean;
  /** Whether a folder can be opened and fsynced (POSIX; Windows cannot flush a folder). */
  readonly folderSync: boolean;
  /** kill(2) where it exists, TerminateProcess on Windows: `process.kill` unless injected. */
  kill(pid: number, signal: TeardownSignal): void;
}

/** What a test may replace of a platform: its calls. */
export interface PlatformCalls {
  readonly kill: (pid: number, signal: TeardownSignal) => void;
}

/** The OS `process.platform` names: linux and win32 as they are, any other POSIX system as darwin (groups, no /proc). */
export function osOf(platform: string): OsName {
  return platform === 'linux' || platform === 'win32' ? platform : 'darwin';
}

/** The platform value of an OS, with the real calls unless others are given. */
export function platformFor(os: OsName, calls: Partial<PlatformCalls> = {}): Platform {
  const kill = calls.kill ?? ((pid: number, signal: TeardownSignal) => void process.kill(pid, signal));
  return { os, groups: os !== 'win32', procfs: os === 'linux', subreaper: os === 'linux', folderSync: os !== 'win32', kill };
}

let current: Platform | undefined;

/** The platform this process runs on (or the one a test put in its place), made on first use. */
export function currentPlatform(): Platform {
  current ??= platformFor(osOf(process.platform));
  return current;
}

/**
 * Puts `platform` in place of the real one until the returned function is
 * called. For tests: caplab itself never changes its platform.
 */
export function usePlatform(platform: Platform): () => void {
  const before = current;
  current = platform;
  return () => {
    current = before;
  };
}
