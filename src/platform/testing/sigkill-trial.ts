/**
 * TEST ONLY — one trial of caplab SIGKILLed while its children run: start
 * caplab, wait until the processes carrying the trial's marker and its
 * guard run (and, for probe, its temp folder exists), note caplab's descendants, SIGKILL
 * caplab, then poll with a deadline until none of them, no marker process
 * and no `caplab-probe-*` folder in the trial's TMPDIR is left. Every wait
 * is polled and bounded; nothing is looked at only once.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { GUARD_ARG } from '../guard-protocol.ts';
import { descendants, killAllWith, killStillRunning, livingWith, stillRuns, type Seen } from './find.ts';

export interface SigkillTrial {
  /** caplab's command line (the executable and its arguments). */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The trial's own TMPDIR (caplab's temp folders go there; checked for `caplab-probe-*`). */
  readonly tmp: string;
  /** An argument of the processes caplab's children start (a sleep duration no other process uses). */
  readonly marker: string;
  /** How many marker processes run once the children are all up. */
  readonly markerCount: number;
  /** Whether the trial waits for a `caplab-probe-*` folder before the kill. */
  readonly probeFolder: boolean;
}

export interface TrialOutcome {
  /** Why the trial could not reach the kill (its children, its guard or probe's folder never came up), if it could not. */
  readonly notStarted?: string;
  /** Marker processes holding a descriptor other than 0–2 before the kill (pid: fds). */
  readonly extraFds: readonly string[];
  /** What was left after the deadline: processes (command lines) and temp folders. */
  readonly left: { readonly processes: readonly string[]; readonly folders: readonly string[] };
}

const START_WITHIN_MS = 30_000;
const GONE_WITHIN_MS = 10_000;
/** How long after its children are up a trial waits before the kill: past the documented spawn window. */
const SPAWN_WINDOW_MS = 250;

const probeFolders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('caplab-probe-'));

async function poll(done: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (!done() && performance.now() < deadline) await Bun.sleep(10);
  return done();
}

/** Descriptors of `pid` other than 0–2, with their targets (a closing one reads as gone). */
function extraFds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`)
      .filter((fd) => !['0', '1', '2'].includes(fd))
      .map((fd) => {
        try {
          return `${fd}:${readlinkSync(`/proc/${pid}/fd/${fd}`)}`;
        } catch {
          return `${fd}:gone`;
        }
      });
  } catch {
    return [];
  }
}

/** Runs one trial; never throws for what it observes (the test asserts on the outcome), and leaves nothing running. */
export async function sigkillTrial(trial: SigkillTrial): Promise<TrialOutcome> {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: trial.tmp };
  const caplab = Bun.spawn([...trial.argv], { cwd: trial.cwd, env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const stderr = new Response(caplab.stderr).text();
  let family: Seen[] = [];
  try {
    // The guard among caplab's descendants once it has exec'd (a fresh fork still shows caplab's command line).
    const guarded = () => descendants(caplab.pid).some((p) => p.cmdline.split('\0').includes(GUARD_ARG));
    const children = () => livingWith(trial.marker).length === trial.markerCount && (!trial.probeFolder || probeFolders(trial.tmp).length === 1);
    if (!(await poll(() => children() && guarded(), START_WITHIN_MS)) || caplab.exitCode !== null) {
      const seen = `children up: ${children()}, guard running: ${guarded()}`;
      caplab.kill('SIGKILL');
      await caplab.exited;
      return { notStarted: `${seen}; exit ${caplab.exitCode}; stderr: ${(await stderr).slice(-500)}`, extraFds: [], left: { processes: [], folders: [] } };
    }
    // The window README names: a child is registered with the guard only once Bun.spawn has returned
    // in caplab, which a loaded machine may not have scheduled yet although the child already runs.
    // The trial is about a hung child, so it kills after that window, not inside it.
    await Bun.sleep(SPAWN_WINDOW_MS);
    family = descendants(caplab.pid);
    const fds = livingWith(trial.marker).flatMap((pid) => extraFds(pid).map((fd) => `${pid}: ${fd}`));
    caplab.kill('SIGKILL');
    await caplab.exited;
    const gone = () => livingWith(trial.marker).length === 0 && !family.some(stillRuns) && probeFolders(trial.tmp).length === 0;
    await poll(gone, GONE_WITHIN_MS);
    const processes = [...new Set([...family.filter(stillRuns).map((p) => p.cmdline.replaceAll('\0', ' ').trim()), ...livingWith(trial.marker).map((pid) => `marker process ${pid}`)])];
    return { extraFds: fds, left: { processes, folders: probeFolders(trial.tmp) } };
  } finally {
    caplab.kill('SIGKILL');
    killStillRunning(family);
    killAllWith(trial.marker);
  }
}
