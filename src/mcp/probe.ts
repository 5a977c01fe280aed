import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Failure } from '../contract/index.ts';
import type { CloseReport, Graces, SpawnFn } from './child.ts';
import { Correlator } from './correlator.ts';
import { CLIENT_INFO, expectResult } from './handshake.ts';
import { buildEnv, PROBE_ENV_ALLOW, type Launch } from './launch.ts';
import { probeCall, unlistedCall, type CallRequest, type ProbedCall } from './probe-calls.ts';
import { finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import { listAll } from './probe-list.ts';
import { checkTools, type ProbedTool } from './probe-tools.ts';
import { PROBE_OFFERED, PROBE_VERSIONS, versionProfile } from './probe-versions.ts';
import { InitializeResult, type Implementation } from './results.ts';
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
export interface ProbeReport {
  readonly command: readonly string[];
  readonly cwd: string;
  readonly cwdIsTemp: boolean;
  readonly envNames: readonly string[];
  readonly serverInfo?: Implementation;
  readonly protocolVersion?: string;
  /** For a revision other than the offered one: checks that do not apply, and its features probe does not check. */
  readonly versionNotes?: { readonly notApplicable: readonly string[]; readonly notChecked: readonly string[] };
  readonly tools: readonly ProbedTool[];
  readonly pages: number;
  readonly complete: boolean;
  /** notifications/tools/list_changed received, and whether a re-list differed. */
  readonly listChanged: { readonly declared: boolean; readonly received: number; readonly relisted: boolean; readonly changed: boolean };
  readonly calls: readonly ProbedCall[];
  readonly findings: readonly ProbeFinding[];
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

const listKey = (tools: readonly ProbedTool[]): string => JSON.stringify(tools.map((t) => [t.name, t.inputSchemaHash, t.outputSchemaHash]));

/**
 * `caplab probe`: the general profile. Offers 2025-06-18 and reads any
 * answer in PROBE_VERSIONS; lists tools within bounds and checks each; sends
 * each requested tools/call once and judges it; re-lists once if the server
 * said its list changed; closes the server's whole process group. Reports
 * instead of refusing, except that a protocol violation ends the session:
 * after it, nothing the server sends can be read with certainty.
 */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<ProbeReport> {
  const timeouts = { ...PROBE_TIMEOUTS, ...options.timeouts };
  const env = options.env ?? buildEnv(PROBE_ENV_ALLOW, options.envSource ?? process.env);
  const cwdIsTemp = options.cwd === undefined;
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'caplab-probe-'));
  const launch: Launch = { command: resolveCommand(command, env), cwd, env };
  const base = { command: [...(options.display ?? command)], cwd, cwdIsTemp, envNames: Object.keys(env).sort() };
  const findings: ProbeFinding[] = [];
  const calls: ProbedCall[] = [];
  let tools: ProbedTool[] = [];
  let pages = 0;
  let complete = false;
  const listChanged = { declared: false, received: 0, relisted: false, changed: false };
  const serverRequests: string[] = [];

  const transport = openStdioTransport(launch, { graces: timeouts, ...(options.limits ? { limits: options.limits } : {}), ...(options.spawn ? { spawn: options.spawn } : {}) });
  if (!transport.ok) {
    if (cwdIsTemp) rmSync(cwd, { recursive: true, force: true });
    return { ...base, tools, pages, complete, listChanged, calls, findings, failure: fromFailure(transport), stderr: '' };
  }
  const onNotification = (method: string): Failure | undefined => {
    if (method === 'notifications/tools/list_changed') listChanged.received += 1;
    return undefined;
  };
  const onRequest = (method: string): void => {
    if (method !== 'ping') serverRequests.push(method);
  };
  const session = new Correlator(transport.value, { onNotification, onRequest });
  // Closing settles the pending request as closed, so the probe ends at its next step with what it has.
  const stop = () => void session.close();
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  let known: { serverInfo?: Implementation; protocolVersion?: string; versionNotes?: NonNullable<ProbeReport['versionNotes']> } = {};
  let started = false;

  const finish = async (ended?: Failure): Promise<ProbeReport> => {
    // A violation may arrive while probe is between requests; it ended the session all the same.
    const failure = ended ?? session.failure;
    const close = await session.close();
    if (cwdIsTemp) rmSync(cwd, { recursive: true, force: true });
    for (const method of new Set(serverRequests)) {
      findings.push(finding('protocol', 'server_request', 'spec MUST', `server sent a ${method} request; this client declared no capability for it (answered "method not found")`, { evidence: method }));
    }
    const report = { ...base, ...known, tools, pages, complete, listChanged, calls, findings, stderr: transport.value.stderr(), close };
    if (!failure) return report;
    const hint = !started && cwdIsTemp && failure.class === 'closed' ? 'the server exited before answering initialize in an empty temp cwd; if it needs its project files, try --cwd .' : undefined;
    return { ...report, failure: fromFailure(failure), ...(hint ? { hint } : {}) };
  };

  const params = { protocolVersion: PROBE_OFFERED, capabilities: {}, clientInfo: CLIENT_INFO };
  const initialize = await expectResult(session, 'initialize', params, InitializeResult, timeouts.startupMs);
  if (!initialize.ok) return finish(initialize);
  started = true;
  const { serverInfo, protocolVersion, capabilities } = initialize.value;
  const profile = versionProfile(protocolVersion);
  known = { serverInfo, protocolVersion };
  if (!profile) {
    // "If the client does not support the version in the server's response, it SHOULD disconnect."
    const refused = finding('protocol', 'version_mismatch', 'spec SHOULD', `server answered ${protocolVersion}; probe reads ${PROBE_VERSIONS.join(', ')}`, { evidence: protocolVersion });
    const report = await finish();
    return { ...report, failure: refused };
  }
  if (protocolVersion !== PROBE_OFFERED) known.versionNotes = { notApplicable: profile.notApplicable, notChecked: profile.notChecked };
  listChanged.declared = capabilities.tools?.listChanged === true;
  const initialized = session.notify('notifications/initialized', {});
  if (!initialized.ok) return finish(initialized);
  if (!capabilities.tools) findings.push(finding('protocol', 'no_tools_capability', 'spec MUST', 'server does not declare the tools capability'));

  const maxPages = options.maxPages ?? 20;
  const listing = await listAll(session, maxPages, timeouts.requestMs);
  pages = listing.pages;
  complete = listing.complete;
  findings.push(...listing.findings);
  const checked = checkTools(listing.entries, profile);
  tools = checked.tools;
  findings.push(...checked.findings);
  if (listing.failure) return finish(listing.failure);

  const listed = new Set(tools.map((tool) => tool.name));
  for (const call of options.calls ?? []) {
    const result = await probeCall(session, call, checked.runtimes.get(call.name), profile, timeouts.requestMs);
    calls.push(listed.has(call.name) ? result : unlistedCall(result, complete));
    if (session.failure) return finish();
  }

  if (listChanged.received > 0) {
    if (!listChanged.declared) {
      findings.push(finding('protocol', 'list_changed_undeclared', 'spec MUST', 'server sent notifications/tools/list_changed without declaring tools.listChanged', { evidence: `${listChanged.received} notification(s)` }));
    }
    const again = await listAll(session, maxPages, timeouts.requestMs);
    listChanged.relisted = true;
    if (again.failure) return finish(again.failure);
    const relisted = checkTools(again.entries, profile).tools;
    if (listKey(relisted) !== listKey(tools)) {
      listChanged.changed = true;
      const before = new Set(tools.map((t) => t.name));
      const after = new Set(relisted.map((t) => t.name));
      const added = [...after].filter((n) => !before.has(n));
      const removed = [...before].filter((n) => !after.has(n));
      findings.push(finding('protocol', 'tools_changed', 'caplab host rule', 'the tool list changed during the session (a host pins what it listed)', { evidence: `added [${added.join(', ')}], removed [${removed.join(', ')}], others may differ in schema` }));
    }
  }
  // A barrier: the server answers in order, so anything it wrote before this answer (a second
  // response, a stray line) has been read by the time it arrives.
  const barrier = await session.request('ping', {}, { timeoutMs: timeouts.requestMs }).reply;
  if (!barrier.ok && barrier.class === 'timeout') {
    findings.push(finding('timeout', 'ping_unanswered', 'spec MUST', `no answer to ping within ${timeouts.requestMs} ms (the receiver MUST respond promptly)`));
  }
  return finish();
}
