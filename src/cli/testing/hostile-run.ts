/**
 * TEST ONLY — runs the real program (`bun src/main.ts probe …`) against a
 * hostile server (src/mcp/probe/testing/hostile.ts) in a private TMPDIR, and checks
 * what every hostile case must hold: no stack trace, with `--json` exactly
 * one JSON document on stdout, the process exit equal to the report's, no
 * `caplab-probe-*` folder and no server process left.
 */
import { expect, onTestFinished } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../test/scratch.ts';
import { until } from '../../../test/until.ts';
import type { HostileMode } from '../../mcp/probe/testing/hostile-server.ts';
import type { ReaderMode } from '../../mcp/probe/testing/hostile-values.ts';
import { isRunning } from '../../mcp/wire/testing/processes.ts';

const MAIN = join(import.meta.dir, '../../main.ts');
const HOSTILE = join(import.meta.dir, '../../mcp/probe/testing/hostile.ts');

export interface HostileRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The `--json` document, parsed (undefined in text mode). */
  readonly report?: Record<string, any>;
}

export interface HostileOptions {
  readonly json?: boolean;
  /** Probe flags before `--`. */
  readonly flags?: readonly string[];
  /** The server's size argument: nesting depth (20,000 by default), or for a bounds mode, tools listed or levels. */
  readonly depth?: number;
  /** `bun` options before the entry (`--preload FILE`). */
  readonly bun?: readonly string[];
  /** Extra environment for caplab. */
  readonly env?: Readonly<Record<string, string>>;
  /** Acts on caplab's pid while it runs (a signal); the output is awaited after it. */
  readonly during?: (pid: number) => Promise<void>;
}

/** Whether text carries a stack trace as Bun prints one (frames, or the source excerpt of an uncaught error). */
export function hasStackTrace(text: string): boolean {
  return /^\s+at .+:\d+:\d+\)?$/m.test(text) || /^\d+ \| /m.test(text) || /^Bun v\d/m.test(text);
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids.filter(isRunning)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone since it was seen.
    }
  }
}

/** Runs one probe of a hostile server and holds it to the hostile-case invariants. */
export async function probeHostile(mode: HostileMode | ReaderMode, options: HostileOptions = {}): Promise<HostileRun> {
  let child: Bun.Subprocess | undefined;
  let pids: string | undefined;
  // Whatever a failing case leaves running — caplab, or a server that outlives SIGTERM (`silent`) — is
  // killed when the test ends, even past its timeout; registered first, so it runs before the
  // scratch folder (and the pids file in it) is removed.
  onTestFinished(() => {
    child?.kill('SIGKILL');
    if (pids && existsSync(pids)) killAll(readFileSync(pids, 'utf8').trim().split('\n').map(Number));
  });
  const tmp = scratchDir('caplab-hostile-');
  pids = join(tmp, 'pids');
  const argv = [process.execPath, ...(options.bun ?? []), MAIN, 'probe', ...(options.json ? ['--json'] : []), '--env', `HOSTILE_PIDS=${pids}`, ...(options.flags ?? []),
    '--', process.execPath, HOSTILE, mode, String(options.depth ?? 20_000)];
  // HOSTILE_PIDS reaches the server through --env; caplab's own copy is for test/fault-preload.ts.
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmp, HOSTILE_PIDS: pids, ...options.env };
  const spawned = Bun.spawn(argv, { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', cwd: tmp });
  child = spawned;
  const output = Promise.all([new Response(spawned.stdout).text(), new Response(spawned.stderr).text(), spawned.exited]);
  await options.during?.(spawned.pid);
  const [stdout, stderr, code] = await output;

  // Checked the moment caplab is gone: what it removed itself, not what a guard may remove later.
  const folders = readdirSync(tmp).filter((name) => name.startsWith('caplab-probe-'));
  const started = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number) : [];
  await until(() => started.every((pid) => !isRunning(pid)), 2_000);
  const alive = started.filter(isRunning);
  killAll(alive);
  expect({ mode, stackTrace: hasStackTrace(stderr), folders, started: started.length > 0, alive }).toEqual({ mode, stackTrace: false, folders: [], started: true, alive: [] });
  if (!options.json) return { code, stdout, stderr };
  // One document: JSON.parse refuses a second one after the first.
  const report = JSON.parse(stdout) as Record<string, any>;
  expect(stdout.endsWith('}\n')).toBe(true);
  expect(report['exit']).toBe(code);
  return { code, stdout, stderr, report };
}
