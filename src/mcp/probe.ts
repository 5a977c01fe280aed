import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processGuard } from '../platform/index.ts';
import type { CloseReport, Graces, SpawnFn } from './child.ts';
import { buildEnv, PROBE_ENV_ALLOW, type Launch } from './launch.ts';
import type { CallRequest } from './probe-calls.ts';
import { fromFailure, type ProbeFinding } from './probe-finding.ts';
import { runProbe, type ProbeRun } from './probe-run.ts';
import { openStdioTransport, type ConnectionLimits } from './stdio-transport.ts';

export interface ProbeTimeouts extends Graces {
  /** Spawn to initialize answer: generous, a cold `npx` may install first. */
  readonly startupMs: number;
  /** Every later request (tools/list pages, tools/call). */
  readonly requestMs: number;
}

export const PROBE_TIMEOUTS: ProbeTimeouts = { startupMs: 120_000, requestMs: 10_000, exitMs: 1_000, termMs: 1_000, killMs: 1_000 };

export interface ProbeOptions {
  /** The server's cwd; by default a fresh empty directory, removed at close. */
  readonly cwd?: string;
  /** The complete server environment (see `probeEnv`); by default the probe allowlist over `envSource`. */
  readonly env?: Readonly<Record<string, string>>;
  readonly envSource?: Readonly<Record<string, string | undefined>>;
  /** The command as shown (`${VAR}` references unexpanded); by default the command itself. */
  readonly display?: readonly string[];
  readonly calls?: readonly CallRequest[];
  readonly maxPages?: number;
  readonly timeouts?: Partial<ProbeTimeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
  /** Aborted on SIGINT/SIGTERM: the server is closed at once (its group and escaped processes killed). */
  readonly signal?: AbortSignal;
}

/** What the general profile found. Values of the server's environment never appear: only names. */
export interface ProbeReport extends Omit<ProbeRun<CloseReport>, 'started' | 'close'> {
  readonly command: readonly string[];
  readonly cwd: string;
  readonly cwdIsTemp: boolean;
  readonly envNames: readonly string[];
  /** What ended the session early (protocol, transport, spawn); absent when probe closed it itself. */
  readonly failure?: ProbeFinding;
  readonly hint?: string;
  readonly stderr: string;
  readonly close?: CloseReport;
}

/** Resolves argv[0] through the server's PATH, so the launch is absolute. */
function resolveCommand(command: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const [program, ...args] = command;
  if (!program) throw new Error('probe: empty command');
  const resolved = program.includes('/') ? program : Bun.which(program, { PATH: env['PATH'] ?? '' });
  return [resolved ?? program, ...args];
}

/**
 * `caplab probe`: the general profile (see `runProbe`) over a server
 * spawned on stdio, in a fresh empty cwd unless told otherwise, with an
 * allowlisted environment; closing stops the server's whole process group.
 */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<ProbeReport> {
  const timeouts = { ...PROBE_TIMEOUTS, ...options.timeouts };
  const env = options.env ?? buildEnv(PROBE_ENV_ALLOW, options.envSource ?? process.env);
  const cwdIsTemp = options.cwd === undefined;
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'caplab-probe-'));
  // Removed by caplab's guard if caplab dies before it is removed here (registered before the server starts in it).
  const unguard = cwdIsTemp ? processGuard().folder(cwd) : () => undefined;
  const removeTemp = () => {
    if (cwdIsTemp) rmSync(cwd, { recursive: true, force: true });
    unguard();
  };
  const launch: Launch = { command: resolveCommand(command, env), cwd, env };
  const base = { command: [...(options.display ?? command)], cwd, cwdIsTemp, envNames: Object.keys(env).sort() };

  const transport = openStdioTransport(launch, { graces: timeouts, ...(options.limits ? { limits: options.limits } : {}), ...(options.spawn ? { spawn: options.spawn } : {}) });
  if (!transport.ok) {
    removeTemp();
    const listChanged = { declared: false, received: 0, relisted: false, changed: false };
    return { ...base, tools: [], pages: 0, complete: false, listChanged, calls: [], findings: [], failure: fromFailure(transport), stderr: '' };
  }
  const { started, failure, close, ...found } = await runProbe(transport.value, {
    timeouts,
    ...(options.calls ? { calls: options.calls } : {}),
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  removeTemp();
  const report = { ...base, ...found, stderr: transport.value.stderr(), close };
  if (!failure) return report;
  // Only a lost connection (an exit, a closed pipe) says the server stopped; not one that reads nothing, nor a Ctrl-C.
  const hint = !started && cwdIsTemp && failure.kind === 'connection_lost' ? 'the server stopped before answering initialize in an empty temp cwd; if it needs its project files, try --cwd .' : undefined;
  return { ...report, failure, ...(hint ? { hint } : {}) };
}
