import { NO_REDACTION, redactorFor, type Redactor } from '../../contract/index.ts';
import { atLastResort, freshDir, isGuardableGroup, signalGroup } from '../../platform/index.ts';
import { resolveCommand, type HttpTarget } from '../config/index.ts';
import { buildEnv, type CloseReport, type ConnectionLimits, type Graces, type HttpCloseReport, type Launch, openHttpTransport, openStdioTransport, type SpawnFn, type StdioTransport } from '../wire/index.ts';
import { PROBE_ENV_ALLOW } from './probe-env.ts';
import { notSent, type CallRequest } from './probe-calls.ts';
import { excerpt, fromFailure, type ProbeFinding } from './probe-finding.ts';
import { reportCall, reportFinding, reportServer, reportStderr, reportTool, type ReportedCall, type ReportedServer, type ReportedTool } from './probe-report.ts';
import { runProbe, type ProbeRun, type ProbeRunOptions } from './probe-run.ts';
import { MODERN_VERSION, type ProtocolChoice } from './probe-protocols.ts';
import type { Negotiation } from './probe-open.ts';
import { boundText, type Bounded } from './report-value.ts';
import { boundTaskStatus, type TaskStatusReport } from './probe-task-status.ts';

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
  /** Values redacted from everything the server sent, before it is measured or cut; by default the server environment's. */
  readonly redactor?: Redactor;
  /** How the session opens (see `runProbe`); `auto` and 2026-07-28 over stdio only: an HTTP target always initializes. */
  readonly protocol?: ProtocolChoice;
  /** Keep the listing as listed (`wire`, unbounded, redacted), for `--pins`; not part of what probe prints. */
  readonly keepWire?: boolean;
  /** `--task-status ID`: one tasks/get (+ tasks/result if completed) after the opening, instead of the listing and calls. */
  readonly taskStatus?: string;
  /** Told of each call as judged (`--fuzz`); false: send no more (see `runProbe`). */
  readonly afterCall?: ProbeRunOptions['afterCall'];
}

/** A server probe spawned over stdio, as the report names it: its command, cwd and environment names. */
export interface StdioReached {
  readonly command: readonly string[];
  readonly cwd: string;
  readonly cwdIsTemp: boolean;
  readonly envNames: readonly string[];
}

/** A server probe reached over Streamable HTTP, as the report names it: its URL and the names of the headers sent. */
export interface HttpReached {
  readonly url: string;
  readonly headerNames: readonly string[];
}

/**
 * What probe connects to (its connect step, `probeTarget`): a command it
 * spawns over stdio, or a URL it POSTs to with the given headers (values
 * expanded: secrets, which the caller's redactor holds).
 */
export type ProbeTarget = { readonly kind: 'stdio'; readonly command: readonly string[] } | ({ readonly kind: 'http' } & HttpTarget);

/**
 * What the general profile found, as it leaves probe: every server value
 * redacted and bounded (probe-report.ts). Values of the server's environment
 * and of the headers sent never appear: only names. Over stdio it names the
 * command, cwd and environment (`StdioReached`); over HTTP the URL and header names (`HttpReached`).
 */
export type ProbeReport = (ProbeFindings<CloseReport> & StdioReached) | (ProbeFindings<HttpCloseReport> & HttpReached);
/** A report of a server probe spawned over stdio (what `probe` returns). */
export type StdioProbeReport = ProbeFindings<CloseReport> & StdioReached;

/** What the general profile found, however the server was reached; `close` is what closing that transport did. */
export interface ProbeFindings<Closed = CloseReport | HttpCloseReport> {
  readonly serverInfo?: ReportedServer;
  readonly protocolVersion?: Bounded<string>;
  readonly instructions?: Bounded<string>;
  readonly versionNotes?: ProbeRun<CloseReport>['versionNotes'];
  /** `--protocol auto` or 2026-07-28: the era chosen and the signal it went by (server values in it cut to `evidenceChars`, then redacted). */
  readonly negotiation?: Negotiation;
  readonly tools: readonly ReportedTool[];
  readonly pages: number;
  readonly complete: boolean;
  readonly listChanged: ProbeRun<CloseReport>['listChanged'];
  readonly calls: readonly ReportedCall[];
  readonly findings: readonly ProbeFinding[];
  /** What ended the session early (protocol, transport, spawn); absent when probe closed it itself. */
  readonly failure?: ProbeFinding;
  readonly hint?: string;
  /** The end of the server's stderr (at most `reportValueBytes`); empty over HTTP. */
  readonly stderr: string;
  /** What closing did: a stdio server's process group stopped, or an HTTP session ended. */
  readonly close?: Closed;
  /** `--task-status ID`: what the server said of that task (server values bounded and redacted). */
  readonly taskStatus?: TaskStatusReport;
  /** With `keepWire`: the first listing's entries and the server's identity as sent, redacted, not bounded. */
  readonly wire?: ProbeWire;
}

/** What `--pins` hashes: the tools/list entries and the handshake as the server sent them. */
export interface ProbeWire {
  readonly entries: readonly unknown[];
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly capabilities: unknown;
  readonly instructions?: string;
}

/**
 * `caplab probe`: the general profile (see `runProbe`) over a server
 * spawned on stdio, in a fresh empty cwd unless told otherwise (`freshDir`:
 * registered with caplab's guard before it is made), with an allowlisted
 * environment; a bare command is found on the server's PATH
 * (`resolveCommand`). However it ends — a report, or an error thrown
 * through it — the server's whole process group is stopped and the temp cwd
 * removed before it returns; and if the process meets an error nothing
 * catches meanwhile, main.ts's last resort kills the group and removes the
 * folder at once (registered with `atLastResort`).
 */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<StdioProbeReport> {
  const timeouts = { ...PROBE_TIMEOUTS, ...options.timeouts };
  const env = options.env ?? buildEnv(PROBE_ENV_ALLOW, options.envSource ?? process.env);
  const redactor = options.redactor ?? redactorFor(env);
  const cwdIsTemp = options.cwd === undefined;
  const temp = cwdIsTemp ? freshDir('caplab-probe-') : undefined;
  const cwd = temp?.path ?? options.cwd!;
  const removeTemp = temp?.remove ?? (() => undefined);
  const base = { command: [...(options.display ?? command)], cwd, cwdIsTemp, envNames: Object.keys(env).sort() };
  try {
    const launch: Launch = { command: resolveCommand(command, env), cwd, env };
    const start = () => openStdioTransport(launch, { graces: timeouts, ...(options.limits ? { limits: options.limits } : {}), ...(options.spawn ? { spawn: options.spawn } : {}) });
    const transport = start();
    if (!transport.ok) return notStarted(base, reportFinding(fromFailure(transport), redactor), options.calls ?? []);
    const report = await probeServer(transport.value, base, { ...options, timeouts }, redactor, removeTemp);
    if (report.restart === undefined) return report.report;
    // `auto`: the server left after discover (one that exits on anything before initialize); started once more, it only initializes.
    const again = start();
    if (!again.ok) return notStarted(base, reportFinding(fromFailure(again), redactor), options.calls ?? []);
    return (await probeServer(again.value, base, { ...options, timeouts, restartedAfter: report.restart }, redactor, removeTemp)).report;
  } finally {
    removeTemp();
  }
}

/**
 * Probe's connect step: spawns a stdio target (`probe`), or reaches an HTTP
 * one: the profile (`runProbe`) over the HTTP client transport on
 * `target.url` with `target.headers` — the pinned URL only (no redirect
 * followed, no proxy), the session DELETEd at close — the report naming
 * `HttpReached`. An HTTP target has no process and no stderr.
 */
export async function probeTarget(target: ProbeTarget, options: ProbeOptions = {}): Promise<ProbeReport> {
  if (target.kind === 'stdio') return probe(target.command, options);
  const timeouts = { ...PROBE_TIMEOUTS, ...options.timeouts };
  const redactor = options.redactor ?? redactorFor(target.headers);
  const base: HttpReached = { url: target.url, headerNames: target.headerNames };
  const transport = openHttpTransport({ url: target.url, headers: target.headers, closeMs: timeouts.exitMs });
  if (!transport.ok) return notStarted(base, reportFinding(fromFailure(transport), redactor), options.calls ?? []);
  try {
    const run = await runProbe(transport.value, {
      timeouts,
      serverOrigin: new URL(target.url).origin,
      // Over HTTP the modern era is not built: auto and 2026-07-28 open as the default does.
      ...(options.protocol !== undefined && options.protocol !== 'auto' && options.protocol !== MODERN_VERSION ? { protocol: options.protocol } : {}),
      ...(options.calls ? { calls: options.calls } : {}),
      ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.taskStatus !== undefined ? { taskStatus: options.taskStatus } : {}),
      ...(options.afterCall ? { afterCall: options.afterCall } : {}),
    });
    return { ...base, ...findingsOf(run, '', redactor, options.keepWire) };
  } finally {
    // After runProbe this is the report it already had; after a throw, it aborts what is in flight and ends the session here.
    await transport.value.close();
  }
}

/** A server that could not be spawned (or reached): nothing listed, every call not sent. */
function notStarted<B extends StdioReached | HttpReached>(base: B, failure: ProbeFinding, calls: readonly CallRequest[]): ProbeFindings<never> & B {
  const listChanged = { declared: false, received: 0, relisted: false, changed: false };
  // Only the user's names are in these: nothing of the server's to redact.
  const notSentCalls = calls.map((call) => reportCall(notSent(call, `the server did not start: ${failure.class}/${failure.kind}`), NO_REDACTION));
  return { ...base, tools: [], pages: 0, complete: false, listChanged, calls: notSentCalls, findings: [], failure, stderr: '' };
}

/** Runs the profile over a spawned server; the server is closed however this ends. */
async function probeServer(
  server: StdioTransport,
  base: StdioReached,
  options: ProbeOptions & { readonly timeouts: ProbeTimeouts; readonly restartedAfter?: string },
  redactor: Redactor,
  removeTemp: () => void,
): Promise<{ readonly report: StdioProbeReport; readonly restart?: string }> {
  const release = atLastResort(() => {
    if (isGuardableGroup(server.pid)) signalGroup(server.pid, 'SIGKILL');
    removeTemp();
  });
  try {
    const run = await runProbe(server, {
      timeouts: options.timeouts,
      observe: (closed) => lastLine(server.stderr()) ?? `nothing on stderr; server exit ${closed.exitCode === null ? 'by signal' : `code ${closed.exitCode}`}`,
      ...(options.calls ? { calls: options.calls } : {}),
      ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.taskStatus !== undefined ? { taskStatus: options.taskStatus } : {}),
      ...(options.afterCall ? { afterCall: options.afterCall } : {}),
      ...protocolOf(options),
    });
    const report = { ...base, ...findingsOf(run, server.stderr(), redactor, options.keepWire) };
    if (run.restart !== undefined && options.restartedAfter === undefined) return { report, restart: run.restart };
    // Only a lost connection (an exit, a closed pipe) says the server stopped; not one that reads nothing, nor a Ctrl-C.
    const hint = !run.started && base.cwdIsTemp && run.failure?.kind === 'connection_lost' ? 'the server stopped before answering initialize in an empty temp cwd; if it needs its project files, try --cwd .' : undefined;
    return { report: { ...report, ...(hint ? { hint } : {}) } };
  } finally {
    // After runProbe this is the report it already had; after a throw, it stops the group here.
    await server.close();
    release();
  }
}

/** The opening the options ask for, as `runProbe` takes it. */
function protocolOf(options: ProbeOptions & { readonly restartedAfter?: string }): Pick<ProbeRunOptions, 'protocol' | 'restartedAfter'> {
  return { ...(options.protocol !== undefined ? { protocol: options.protocol } : {}), ...(options.restartedAfter !== undefined ? { restartedAfter: options.restartedAfter } : {}) };
}

/** The run as reported: every server value redacted and bounded. */
function findingsOf<Closed>(run: ProbeRun<Closed>, stderr: string, redactor: Redactor, keepWire = false): ProbeFindings<Closed> {
  return {
    ...(keepWire ? wireOf(run, redactor) : {}),
    ...(run.serverInfo ? { serverInfo: reportServer(run.serverInfo, redactor) } : {}),
    ...(run.protocolVersion !== undefined ? { protocolVersion: boundText(run.protocolVersion, redactor) } : {}),
    ...(run.instructions !== undefined ? { instructions: boundText(run.instructions, redactor) } : {}),
    ...(run.versionNotes ? { versionNotes: run.versionNotes } : {}),
    ...(run.negotiation ? { negotiation: { ...run.negotiation, signal: redactor.redact(run.negotiation.signal) } } : {}),
    tools: run.tools.map((tool) => reportTool(tool, redactor)),
    pages: run.pages,
    complete: run.complete,
    listChanged: run.listChanged,
    calls: run.calls.map((call) => reportCall(call, redactor)),
    findings: run.findings.map((f) => reportFinding(f, redactor)),
    ...(run.failure ? { failure: reportFinding(run.failure, redactor) } : {}),
    stderr: reportStderr(stderr, redactor),
    close: run.close,
    ...(run.taskStatus ? { taskStatus: boundTaskStatus(run.taskStatus, redactor) } : {}),
  };
}

/** The listing and the handshake as sent, every string redacted (`redactDeep`-like, without recursion: a schema may nest deeply). */
function wireOf<Closed>(run: ProbeRun<Closed>, redactor: Redactor): { wire?: ProbeWire } {
  if (!run.wire || run.protocolVersion === undefined) return {};
  const wire: ProbeWire = {
    entries: run.wire.entries,
    ...(run.serverInfo ? { serverInfo: run.serverInfo as Readonly<Record<string, unknown>> } : {}),
    protocolVersion: run.protocolVersion,
    capabilities: run.wire.capabilities,
    ...(run.instructions !== undefined ? { instructions: run.instructions } : {}),
  };
  return { wire: redactAll(wire, redactor) };
}

/** A copy with every string and key redacted, built without recursion. */
function redactAll<T>(value: T, redactor: Redactor): T {
  const root: Record<string | number, unknown> = {};
  const stack: { from: unknown; into: Record<string | number, unknown>; key: string | number }[] = [{ from: value, into: root, key: 'v' }];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop()!;
    if (typeof from === 'string') into[key] = redactor.redact(from);
    else if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      into[key] = copy;
      from.forEach((item, index) => stack.push({ from: item, into: copy as unknown as Record<number, unknown>, key: index }));
    } else if (from !== null && typeof from === 'object') {
      const copy: Record<string, unknown> = {};
      into[key] = copy;
      for (const [name, inner] of Object.entries(from)) {
        const redacted = redactor.redact(name);
        Object.defineProperty(copy, redacted, { value: undefined, writable: true, enumerable: true, configurable: true });
        stack.push({ from: inner, into: copy, key: redacted });
      }
    } else into[key] = from;
  }
  return root['v'] as T;
}

/** The last non-empty line of a server's stderr, quoted, as evidence of how it went. */
function lastLine(stderr: string): string | undefined {
  const line = stderr.trimEnd().split('\n').at(-1)?.trim();
  return line ? `stderr ends ${excerpt(line)}` : undefined;
}
