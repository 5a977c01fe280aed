import { LIMITS, type Failure } from '../../contract/index.ts';
import { Correlator, type ServerInfo, type Transport } from '../wire/index.ts';
import { nameList, OFFERED_VERSION, READ_VERSIONS, versionProfile, type VersionProfile } from '../client/index.ts';
import { notSent, unlistedCall, type CallRequest, type ProbedCall } from './probe-calls.ts';
import { callOnce, iconOwners } from './probe-task.ts';
import { iconFindings, taskingOf, taskListingFindings } from './probe-task-listing.ts';
import { queryTaskStatus, type TaskStatusReport } from './probe-task-status.ts';
import { excerpt, finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import { OutputJudge } from './output-judge.ts';
import { SchemaCompilers } from './probe-ajv.ts';
import { listAll } from './probe-list.ts';
import { checkTools, type ProbedTool } from './probe-tools.ts';
import { AUTO_LEGACY_VERSION, MODERN_PROFILE, MODERN_VERSION, modernResultProblem, withEnvelope, type ProtocolChoice } from './probe-era.ts';
import { openAuto, openLegacy, openModern, type EraSwitch, type Negotiation, type Opening } from './probe-open.ts';

export interface ProbeRunOptions<Closed = unknown> {
  readonly calls?: readonly CallRequest[];
  /** Pages of tools/list read; by default `LIMITS.probePages`. */
  readonly maxPages?: number;
  /** Connect to initialize answer; every later request. */
  readonly timeouts: { readonly startupMs: number; readonly requestMs: number };
  /** Aborted: the session is closed at once, and the probe ends at its next step with what it has. */
  readonly signal?: AbortSignal;
  /** What the transport saw of a lost connection, given what closing it reported: that failure's evidence (for stdio: stderr's last line, or the exit). */
  readonly observe?: (closed: Closed) => string | undefined;
  /** Validates structuredContent for judging (default: a worker thread, started on first use). */
  readonly judge?: OutputJudge;
  /**
   * How the session opens: one legacy revision offered in `initialize` (by
   * default 2025-06-18), `2026-07-28` (discover, the modern era pinned), or
   * `auto` (see probe-open.ts; stdio only).
   */
  readonly protocol?: ProtocolChoice;
  /** Set on the one restart `auto` makes after a server left at discover: what it went by; this run only initializes. */
  readonly restartedAfter?: string;
  /** The origin of the URL an HTTP server was reached at (icons off it are findings); undefined for stdio. */
  readonly serverOrigin?: string;
  /** `--task-status ID`: after the opening, that task's status only (probe-task-status.ts); nothing listed or called. */
  readonly taskStatus?: string;
  /** Told of each call as judged (`--fuzz`); false: send no more calls (the rest listed not sent) and close. */
  readonly afterCall?: (call: ProbedCall) => boolean;
}

/** What the general profile found over one transport; `close` is what closing it reported. */
export interface ProbeRun<Closed> {
  readonly serverInfo?: ServerInfo;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  /** For a revision other than the offered one: checks that do not apply, and its features probe does not check. */
  readonly versionNotes?: { readonly notApplicable: readonly string[]; readonly notChecked: readonly string[] };
  readonly tools: readonly ProbedTool[];
  readonly pages: number;
  readonly complete: boolean;
  /** notifications/tools/list_changed received, and whether a re-list differed. */
  readonly listChanged: { readonly declared: boolean; readonly received: number; readonly relisted: boolean; readonly changed: boolean };
  readonly calls: readonly ProbedCall[];
  readonly findings: readonly ProbeFinding[];
  /** What ended the session early; absent when probe closed it itself. */
  readonly failure?: ProbeFinding;
  /** Whether initialize (or, modern, server/discover) was answered. */
  readonly started: boolean;
  /** `auto` or a pinned 2026-07-28: the era chosen and the signal it went by. */
  readonly negotiation?: Negotiation;
  /** `auto`: the server left after discover; probe.ts starts it once more, for initialize (what it went by). */
  readonly restart?: string;
  /** The first listing's entries as listed and the capabilities the server declared, unbounded (what `--pins` hashes). */
  readonly wire?: { readonly entries: readonly unknown[]; readonly capabilities: unknown };
  /** `--task-status ID`: what the server said of that task. */
  readonly taskStatus?: TaskStatusReport;
  readonly close: Closed;
}

/** The opening `options.protocol` asks for (probe-open.ts); a restart after discover only initializes. */
function open(session: Correlator<unknown>, era: EraSwitch, options: Pick<ProbeRunOptions, 'protocol' | 'restartedAfter' | 'timeouts'>): Promise<Opening> {
  const opener = { session, era, timeouts: options.timeouts };
  const protocol = options.protocol ?? OFFERED_VERSION;
  if (options.restartedAfter !== undefined) {
    return openLegacy(opener, AUTO_LEGACY_VERSION, { mode: 'auto', era: 'legacy', signal: `${options.restartedAfter}; started once more for initialize` });
  }
  if (protocol === 'auto') return openAuto(opener);
  if (protocol === MODERN_VERSION) return openModern(opener);
  return openLegacy(opener, protocol);
}

const listKey = (tools: readonly ProbedTool[]): string => JSON.stringify(tools.map((t) => [t.name, t.inputSchemaHash, t.outputSchemaHash]));

/**
 * The general profile over any transport: opens as `options.protocol` says
 * (by default offering 2025-06-18 in initialize, reading any answer in
 * READ_VERSIONS; or in the 2026-07-28 era); lists tools within bounds and checks each; sends
 * each requested tools/call once and judges it; re-lists once if the server
 * said its list changed; then closes the transport. Reports instead of
 * refusing, except that a protocol violation ends the session: after it,
 * nothing the server sends can be read with certainty.
 */
export async function runProbe<Closed>(transport: Transport<Closed>, options: ProbeRunOptions<Closed>): Promise<ProbeRun<Closed>> {
  const { timeouts } = options;
  const findings: ProbeFinding[] = [];
  const calls: ProbedCall[] = [];
  let tools: readonly ProbedTool[] = [];
  let pages = 0;
  let complete = false;
  const listChanged = { declared: false, received: 0, relisted: false, changed: false };
  const serverRequests: string[] = [];
  const onNotification = (method: string): Failure | undefined => {
    if (method === 'notifications/tools/list_changed') listChanged.received += 1;
    return undefined;
  };
  const onRequest = (method: string): void => {
    if (method !== 'ping') serverRequests.push(method);
  };
  const era: EraSwitch = { modern: false, negotiating: false };
  const session = new Correlator(transport, {
    onNotification,
    onRequest,
    // The modern era: the envelope on each request, each result held to the revision (discover, while negotiating, is judged there).
    stamp: (_method, params) => (era.modern ? withEnvelope(params) : params),
    onResult: (method, result) => (era.modern && !(era.negotiating && method === 'server/discover') ? modernResultProblem(method, result) : undefined),
  });
  // Closing settles the pending request as closed, so the probe ends at its next step with what it has;
  // a call running as a task is left to send its one tasks/cancel first (the engine reads the signal too).
  const inTask = { running: false };
  const stop = () => void (inTask.running || session.close());
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  let known: { serverInfo?: ServerInfo; protocolVersion?: string; instructions?: string; versionNotes?: NonNullable<ProbeRun<Closed>['versionNotes']>; negotiation?: Negotiation; wire?: NonNullable<ProbeRun<Closed>['wire']>; taskStatus?: TaskStatusReport } = {};
  let started = false;

  const judge = options.judge ?? new OutputJudge();
  const judging = { judge, timeoutMs: timeouts.requestMs, ...(options.signal ? { signal: options.signal } : {}) };
  // One Ajv per dialect and strictness for the whole probe, the re-listing included.
  const compilers = new SchemaCompilers('listing');
  const called = new Set((options.calls ?? []).map((call) => call.name));

  const finish = async (ended?: Failure, refused?: ProbeFinding): Promise<ProbeRun<Closed>> => {
    // A violation may arrive while probe is between requests; it ended the session all the same.
    const failed = ended ?? session.failure;
    judge.close();
    const close = await session.close();
    const observed = failed?.class === 'closed' ? options.observe?.(close) : undefined;
    const failure = refused ?? (failed ? fromFailure(failed, undefined, observed) : undefined);
    for (const method of new Set(serverRequests)) {
      findings.push(finding('protocol', 'server_request', 'spec MUST', 'server sent a request for a capability this client did not declare (answered "method not found")', { evidence: method }));
    }
    // Every --call not sent yet is listed, with what ended the session (or that probe was interrupted).
    const why = failure ? `the session ended first: ${failure.class}/${failure.kind}` : 'probe was interrupted first';
    for (const call of (options.calls ?? []).slice(calls.length)) calls.push(notSent(call, why));
    return { ...known, tools, pages, complete, listChanged, calls, findings, started, close, ...(failure ? { failure } : {}) };
  };

  const opening = await open(session, era, options);
  if (opening.negotiation) known.negotiation = opening.negotiation;
  if (!opening.ok) {
    if (opening.restart !== undefined) return { ...(await finish()), restart: opening.restart };
    return opening.refused ? finish(undefined, opening.refused) : finish(opening.failure);
  }
  started = true;
  const { serverInfo, protocolVersion, capabilities, instructions } = opening.opened;
  findings.push(...opening.opened.findings);
  const profile: VersionProfile | undefined = opening.opened.era === 'modern' ? MODERN_PROFILE : versionProfile(protocolVersion);
  known = { ...known, ...(serverInfo ? { serverInfo } : {}), protocolVersion, ...(instructions !== undefined ? { instructions } : {}) };
  if (!profile) {
    // "If the client does not support the version in the server's response, it SHOULD disconnect."
    return finish(undefined, finding('protocol', 'version_mismatch', 'spec SHOULD', `server answered a revision probe does not read (it reads ${READ_VERSIONS.join(', ')})`, { evidence: excerpt(protocolVersion) }));
  }
  if (opening.opened.era === 'legacy') {
    // Over HTTP every later message carries the revision read (MCP-Protocol-Version); one probe does not read is never spoken.
    transport.setProtocolVersion?.(protocolVersion);
    const initialized = session.notify('notifications/initialized', {});
    if (!initialized.ok) return finish(initialized);
  }
  if (protocolVersion !== OFFERED_VERSION) known.versionNotes = { notApplicable: profile.notApplicable, notChecked: profile.notChecked };
  listChanged.declared = capabilities.tools?.listChanged === true;
  if (!capabilities.tools) findings.push(finding('protocol', 'no_tools_capability', 'spec MUST', 'server does not declare the tools capability', { evidence: `capabilities ${excerpt(capabilities)}` }));

  if (options.taskStatus !== undefined) {
    known.taskStatus = await queryTaskStatus(session, options.taskStatus, timeouts.requestMs);
    return finish();
  }
  const maxPages = options.maxPages ?? LIMITS.probePages;
  const listing = await listAll(session, maxPages, timeouts.requestMs);
  pages = listing.pages;
  complete = listing.complete;
  known.wire = { entries: listing.entries, capabilities };
  findings.push(...listing.findings);
  const checked = await checkTools(listing.entries, profile, { called, compilers, ...(options.signal ? { signal: options.signal } : {}) });
  tools = checked.tools;
  findings.push(...checked.findings);
  const tasking = taskingOf(opening.opened.era === 'modern' ? MODERN_VERSION : protocolVersion, capabilities);
  findings.push(...taskListingFindings(tools, tasking), ...iconFindings(iconOwners(tools, serverInfo), options.serverOrigin));
  if (listing.failure) return finish(listing.failure);

  const listed = new Set(tools.map((tool) => tool.name));
  for (const call of options.calls ?? []) {
    // Interrupted (while checking the listing, or judging a call): nothing more is sent.
    if (options.signal?.aborted) return finish();
    const result = await callOnce(session, call, checked.runtimes.get(call.name), { profile, tasking, timeoutMs: timeouts.requestMs, judging, inTask });
    calls.push(listed.has(call.name) ? result : unlistedCall(result, complete));
    if (session.failure || options.signal?.aborted) return finish();
    if (options.afterCall?.(calls.at(-1)!) === false) return finish();
  }

  if (listChanged.received > 0) {
    if (!listChanged.declared) {
      findings.push(finding('protocol', 'list_changed_undeclared', 'spec MUST', 'server sent notifications/tools/list_changed without declaring tools.listChanged', { evidence: `${listChanged.received} notification(s)` }));
    }
    const again = await listAll(session, maxPages, timeouts.requestMs);
    listChanged.relisted = true;
    if (again.failure) return finish(again.failure);
    const relisted = (await checkTools(again.entries, profile, { compilers, ...(options.signal ? { signal: options.signal } : {}) })).tools;
    if (listKey(relisted) !== listKey(tools)) {
      listChanged.changed = true;
      const before = new Set(tools.map((t) => t.name));
      const after = new Set(relisted.map((t) => t.name));
      const added = [...after].filter((n) => !before.has(n));
      const removed = [...before].filter((n) => !after.has(n));
      findings.push(finding('protocol', 'tools_changed', 'caplab host rule', 'the tool list changed during the session (a host pins what it listed)', { evidence: `added ${added.length} [${nameList(added)}], removed ${removed.length} [${nameList(removed)}], others may differ in schema` }));
    }
  }
  // A barrier: the server answers in order, so anything it wrote before this answer (a second
  // response, a stray line) has been read by the time it arrives.
  // 2026-07-28 has no ping: server/discover (which servers MUST implement) is the barrier there.
  const barrierMethod = era.modern ? 'server/discover' : 'ping';
  const barrier = await session.request(barrierMethod, {}, { timeoutMs: timeouts.requestMs }).reply;
  if (!barrier.ok && barrier.class === 'timeout') {
    findings.push(finding('timeout', `${era.modern ? 'discover' : 'ping'}_unanswered`, 'spec MUST', `no answer to ${barrierMethod} within ${timeouts.requestMs} ms (the receiver MUST respond promptly)`, { evidence: barrier.message }));
  }
  return finish();
}
