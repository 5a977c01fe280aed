import { fail, LIMITS, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { Correlator, type InitializeResult, type ServerInfo, type Transport } from '../wire/index.ts';
import { interpretHostCall, type HostCallResult, type HostTool } from './host-call.ts';
import { hostHandshake } from './host-handshake.ts';
import { listingNotices } from './host-listing.ts';
import { ToolDrift, type ListChanged } from './host-relist.ts';
import { listPages, type Pages } from './list-pages.ts';
import { loggedCall } from './logged-call.ts';
import type { CallOptions, Exchange, SessionTimeouts } from './strict-session.ts';
import type { VersionProfile } from './versions.ts';

export interface HostSessionOptions {
  /** `handshakeMs` bounds initialize and each page of the first listing; `callMs` each call and each page of a re-list. */
  readonly timeouts: SessionTimeouts;
  /** Pages a listing follows at most (default `LIMITS.probePages`). */
  readonly maxPages?: number;
  /** Adds what the transport knows to a call that failed because the session ended (class `closed`), such as a server's stderr tail. */
  readonly explainClosed?: (failure: Failure) => Failure;
  /** Aborted while the handshake or first listing waits: that request stops waiting and the session closes (`timeout/aborted`). */
  readonly signal?: AbortSignal;
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
   * it throws). Before the call, a `list_changed` since the last re-list is
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
 * (`ToolDrift`).
 *
 * @example
 * const [transport, server] = memoryTransportPair();
 * … wire `server` to an in-process server …
 * const session = await startHostSession(transport, { timeouts: { handshakeMs: 5_000, callMs: 5_000 } });
 */
export async function startHostSession<Closed>(transport: Transport<Closed>, options: HostSessionOptions): Promise<Outcome<HostSession<Closed>>> {
  const { timeouts } = options;
  const maxPages = options.maxPages ?? LIMITS.probePages;
  const explainClosed = options.explainClosed ?? ((failure: Failure) => failure);
  // Counted from the first message: a change announced during the first listing is answered before the first call.
  let seen = 0;
  const correlator = new Correlator(transport, {
    onNotification: (method) => void (method === 'notifications/tools/list_changed' && seen++),
  });
  const shaken = await hostHandshake(correlator, { timeoutMs: timeouts.handshakeMs, maxPages, maxEntries: LIMITS.probeTools, ...(options.signal ? { signal: options.signal } : {}) });
  if (!shaken.ok) {
    await correlator.close();
    return shaken;
  }
  const { initialize, profile, pages } = shaken.value;
  const notices = listingNotices(pages, maxPages);
  const drift = new ToolDrift(pages.entries, {
    seen: () => seen,
    relist: () => listPages(correlator, { maxPages, maxEntries: LIMITS.probeTools, timeoutMs: timeouts.callMs }),
    maxPages,
    notice: (text) => notices.push(text),
  });
  const exchanges: Exchange[] = [];
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
      if (correlator.failure) return serverClosed(tool.name, correlator.failure);
      const allowed = await drift.before(tool.name);
      // A re-list that failed fails this call with its own failure; a session that ended while re-listing sends nothing.
      if (!allowed.ok) return closedOr(allowed);
      if (correlator.failure) return serverClosed(tool.name, correlator.failure);
      const result = await loggedCall(correlator, exchanges, { name: tool.name, args }, { ...call, timeoutMs: call.timeoutMs ?? timeouts.callMs }, (reply) => interpretHostCall(tool, reply));
      return result.ok ? result : closedOr(result);
    },
    listChanged: () => drift.report(),
    exchanges: () => exchanges.slice(),
    failure: () => correlator.failure,
    close: () => correlator.close(),
  });
}
