import type { ServerIdentity } from '../../binding/index.ts';
import { ok, type Outcome } from '../../contract/index.ts';
import { openHttpTransport, type FetchFn, type HttpCloseReport, type HttpLimits } from '../wire/index.ts';
import { DEFAULT_TIMEOUTS, identityAt } from './client.ts';
import { startHostSession, type HostSession } from './host-session.ts';
import type { SessionTimeouts } from './strict-session.ts';

export interface HttpHostClientOptions {
  /** The name the host gives this server (its tools are `mcp__<key>__<tool>`); never the self-reported serverInfo.name. */
  readonly key: string;
  /** The server's Streamable HTTP endpoint, as the user pinned it. */
  readonly url: string;
  /** Headers sent with every request (values are credentials: never recorded, only their names). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Names this server instance in bindings and records (derive it from the run id for reproducible runs). */
  readonly instanceId?: string;
  readonly timeouts?: Partial<SessionTimeouts>;
  /** Pages a listing follows at most (default `LIMITS.probePages`). */
  readonly maxPages?: number;
  readonly limits?: Partial<HttpLimits>;
  readonly fetch?: FetchFn;
  /** Aborted (SIGINT/SIGTERM) while the session starts: the handshake stops waiting and the session is closed, not after `handshakeMs`. */
  readonly signal?: AbortSignal;
}

/** A handshaken host session with one Streamable HTTP server a user configured. */
export interface HttpHostClient extends HostSession<HttpCloseReport> {
  /** Its endpoint is `{ kind: 'http', url, headerNames }`: header names, never values. */
  readonly identity: ServerIdentity;
  /** The sha256 of the `Mcp-Session-Id` the server issued at initialize (never the id); absent when it issued none. */
  readonly sessionSha256?: string;
}

/**
 * Connects to a Streamable HTTP server (`openHttpTransport`: the pinned URL
 * only, no redirect followed, no proxy), runs the host handshake and lists
 * its tools. When the server ends the session (HTTP 404), the next call
 * first initializes one new session over a fresh transport with the same
 * URL and headers (`HostSessionOptions.reopen`). On a failed start the
 * transport is closed (its session DELETEd if one was issued) before the
 * failure is returned.
 *
 * @example
 * const client = await openHttpHostClient({ key: 'remote', url: 'http://127.0.0.1:8080/mcp', headers: { Authorization: `Bearer ${token}` } });
 * if (!client.ok) return client;
 * try { … client.value.callTool(tool, args, ids) … } finally { await client.value.close(); }
 */
export async function openHttpHostClient(options: HttpHostClientOptions): Promise<Outcome<HttpHostClient>> {
  const timeouts = { handshakeMs: DEFAULT_TIMEOUTS.handshakeMs, callMs: DEFAULT_TIMEOUTS.callMs, ...options.timeouts };
  const open = () =>
    openHttpTransport({
      url: options.url,
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const opened = open();
  if (!opened.ok) return opened;
  const transport = opened.value;
  const session = await startHostSession(transport, {
    timeouts,
    reopen: open,
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!session.ok) return session;
  const identity = identityAt(options, session.value, transport.endpoint);
  const sessionSha256 = transport.sessionIdSha256;
  return ok({ ...session.value, identity, ...(sessionSha256 !== undefined ? { sessionSha256 } : {}) });
}
