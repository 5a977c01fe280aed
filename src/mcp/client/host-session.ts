import { fail, LIMITS, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { Correlator, type InitializeResult, type ServerInfo, type Transport } from '../wire/index.ts';
import { interpretHostCall, type HostCallResult, type HostTool } from './host-call.ts';
import { hostHandshake } from './host-handshake.ts';
import { taskCall } from './host-task-call.ts';
import { listingNotices } from './host-listing.ts';
import { ToolDrift, type ListChanged } from './host-relist.ts';
import { listPages, type Pages } from './list-pages.ts';
import { loggedCall } from './logged-call.ts';
import type { CallOptions, Exchange, SessionTimeouts } from './strict-session.ts';
import type { VersionProfile } from './versions.ts';

export interface HostSessionOptions<Closed = unknown> {
  /** `handshakeMs` bounds initialize and each page of the first listing; `callMs` each call and each page of a re-list. */
  readonly timeouts: SessionTimeouts;
  /** Pages a listing follows at most (default `LIMITS.probePages`). */
  readonly maxPages?: number;
  /** Adds what the transport knows to a call that failed because the session ended (class `closed`), such as a server's stderr tail. */
  readonly explainClosed?: (failure: Failure) => Failure;
  /** Aborted while the handshake or first listing waits: that request stops waiting and the session closes (`timeout/aborted`). */
  readonly signal?: AbortSignal;
  /**
   * A fresh transport to the same server, for the one new session the spec
   * requires after the server ended this one (closed/session_gone, an HTTP
   * 404). Absent (stdio), an ended session stays ended.
   */
  readonly reopen?: () => Outcome<Transport<Closed>>;
}

/** A handshaken session with one server a user configured, over any transport. */
export interface HostSession<Closed = void> {
  readonly serverInfo: ServerInfo;
  readonly protocolVersion: string;
  /** What the answered revision has (structured results, content types…): the caller builds contracts by it. */
  readonly profile: VersionProfile;
  readonly capabilities: InitializeResult['capabilities'];
  /** The server's free-form `instructions` from initialize (never shown to the model by this client). */
  readonly instructions: string | undefined;
  /** The first listing: entries as sent (the caller reads each and decides its contract), pages, whether complete. */
  readonly listing: Omit<Pages, 'failure'>;
  /** What the user is told: a listing stopped or cut, tools a re-list added. */
  notices(): readonly string[];
  /**
   * Calls a tool of the first listing (another name is a programmer error:
   * it throws); a tool marked `task` as a 2025-11-25 task (`taskCall`), its
   * deadline the call's timeout. Before the call, a `list_changed` since the last re-list is
   * answered by re-listing; a tool that drifted is protocol/tool_drift, and a
   * call after the session ended is precondition/server_closed, neither sent.
   */
  callTool(tool: HostTool, args: unknown, options: CallOptions): Promise<Outcome<HostCallResult & { readonly exchange: Exchange }>>;
  listChanged(): ListChanged;
  /** Every tools/call sent, in send order; each is logged when sent, so a call given up on is still there. */
  exchanges(): readonly Exchange[];
  /** The failure that ended the session, if any. */
  failure(): Failure | undefined;
  close(): Promise<Closed>;
}

/** A call after the session ended: nothing is sent, and the failure says what ended it. */
function serverClosed(name: string, ended: Failure): Failure {
  return fail('precondition', 'server_closed', `${name}: not sent; the server's session ended (${ended.class}/${ended.kind}: ${ended.message})`);
}

/**
 * Runs the host handshake over a transport (see `hostHandshake`) and returns
 * the session. On a failed handshake the transport is closed before the
 * failure is returned. A `notifications/tools/list_changed` does not end the
 * session: it is counted, and answered by a re-list before the next call
 * (`ToolDrift`). When the server ends the session (closed/session_gone: the
 * calls then in flight are unknown, never re-sent) and `reopen` is given, the
 * next call first initializes one new session (the spec's MUST), whose
 * listing is compared with the first as a re-list is; if that session ends
 * too, the session stays ended.
 *
 * @example
 * const [transport, server] = memoryTransportPair();
 * … wire `server` to an in-process server …
 * const session = await startHostSession(transport, { timeouts: { handshakeMs: 5_000, callMs: 5_000 } });
 */
export async function startHostSession<Closed>(transport: Transport<Closed>, options: HostSessionOptions<Closed>): Promise<Outcome<HostSession<Closed>>> {
  const { timeouts } = options;
  const maxPages = options.maxPages ?? LIMITS.probePages;
  const explainClosed = options.explainClosed ?? ((failure: Failure) => failure);
  // Counted from the first message: a change announced during the first listing is answered before the first call.
  let seen = 0;
  const shake = async (over: Transport<Closed>) => {
    const opened = new Correlator(over, { onNotification: (method) => void (method === 'notifications/tools/list_changed' && seen++) });
    const negotiated = (version: string): void => over.setProtocolVersion?.(version);
    const shaken = await hostHandshake(opened, { timeoutMs: timeouts.handshakeMs, maxPages, maxEntries: LIMITS.probeTools, negotiated, ...(options.signal ? { signal: options.signal } : {}) });
    if (!shaken.ok) await opened.close();
    return { correlator: opened, shaken };
  };
  const first = await shake(transport);
  if (!first.shaken.ok) return first.shaken;
  let correlator = first.correlator;
  const { initialize, profile, pages } = first.shaken.value;
  const notices = listingNotices(pages, maxPages);
  const drift = new ToolDrift(pages.entries, {
    seen: () => seen,
    relist: () => listPages(correlator, { maxPages, maxEntries: LIMITS.probeTools, timeoutMs: timeouts.callMs }),
    maxPages,
    notice: (text) => notices.push(text),
  });
  /** What ended the session for good: a renewal that failed; else the current correlator's failure. */
  let ended: Failure | undefined;
  let renewal: Promise<void> | undefined;
  const renew = async (): Promise<void> => {
    const reopened = options.reopen?.();
    if (!reopened) return;
    if (!reopened.ok) return void (ended = reopened);
    const again = await shake(reopened.value);
    if (!again.shaken.ok) return void (ended = again.shaken);
    correlator = again.correlator;
    drift.adopt(again.shaken.value.pages);
    notices.push('the server ended the session (HTTP 404); one new session was initialized, its listing compared with the first');
  };
  const failure = (): Failure | undefined => ended ?? correlator.failure;
  const exchanges: Exchange[] = [];
  const tasks = new LiveTasks();
  const closedOr = (failure: Failure): Failure => (failure.class === 'closed' ? explainClosed(failure) : failure);

  return ok({
    serverInfo: initialize.serverInfo,
    protocolVersion: initialize.protocolVersion,
    profile,
    capabilities: initialize.capabilities,
    instructions: initialize.instructions,
    listing: pages,
    notices: () => notices.slice(),
    async callTool(tool, args, call) {
      if (!drift.listed(tool.name)) throw new Error(`callTool: ${tool.name} is not a tool this server listed first`);
      // Once per session: a second session_gone finds the renewal done and ends the session.
      if (correlator.failure?.kind === 'session_gone') await (renewal ??= renew());
      if (failure()) return serverClosed(tool.name, failure()!);
      const allowed = await drift.before(tool.name);
      // A re-list that failed fails this call with its own failure; a session that ended while re-listing sends nothing.
      if (!allowed.ok) return closedOr(allowed);
      if (correlator.failure) return serverClosed(tool.name, correlator.failure);
      const request = { name: tool.name, args };
      const options = { ...call, timeoutMs: call.timeoutMs ?? timeouts.callMs };
      const result = tool.task ? await tasks.track(taskCall(correlator, exchanges, request, options, tool)) : await loggedCall(correlator, exchanges, request, options, (reply) => interpretHostCall(tool, reply));
      return result.ok ? result : closedOr(result);
    },
    listChanged: () => drift.report(),
    exchanges: () => exchanges.slice(),
    failure,
    // A task call in flight (an interruption is giving it up) gets its one tasks/cancel out before the session closes.
    close: async () => {
      await tasks.settled();
      return correlator.close();
    },
  });
}

/**
 * The task calls of a session still in flight. On an interruption the run
 * closes its servers at once, while each task call is giving up: `settled`
 * waits for them — each sends its one `tasks/cancel` and waits at most
 * `taskCancelMs` for the answer — so the cancel reaches the server before
 * the session closes, never after; past that wait, the close goes on.
 */
class LiveTasks {
  readonly #live = new Set<Promise<unknown>>();

  track<T>(call: Promise<T>): Promise<T> {
    this.#live.add(call);
    void call.finally(() => this.#live.delete(call));
    return call;
  }

  async settled(): Promise<void> {
    if (this.#live.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, LIMITS.taskCancelMs + LIMITS.taskPollFloorMs)));
    await Promise.race([Promise.allSettled([...this.#live]), cap]);
    clearTimeout(timer);
  }
}
