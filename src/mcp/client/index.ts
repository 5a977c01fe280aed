/**
 * The clients over the wire, in two profiles:
 * - the strict fixed profile: the handshake and its checks (one revision,
 *   one page, exactly the pinned tools), a call's result read strictly
 *   (`interpretCall`), the strict session over any transport,
 *   `openStrictClient` over a spawned server's stdio, and the tool session
 *   that wraps a server's tools as ordinary runtime tools;
 * - the host profile, for servers users configure: the revisions of the
 *   version table (`versionProfile`, which probe reads too), tools/list
 *   followed through its pages within bounds (`listPages`, probe's engine
 *   too), `list_changed` answered by a re-list before the next call, results
 *   read by what the tool listed (`startHostSession`, `openHostClient`, and
 *   `openHttpHostClient` over Streamable HTTP).
 * The sessions and clients load on first use, so `caplab serve` and `verify`
 * never evaluate them (test/module-graph.test.ts holds this).
 */
import type { Outcome } from '../../contract/index.ts';
import type { Transport } from '../wire/index.ts';
import type { HostSession, HostSessionOptions } from './host-session.ts';
import type { SessionOptions, StrictSession } from './strict-session.ts';

export { exchangeTransport, MCP_ADAPTER_VERSION, MCP_GAPS, MCP_HTTP_GAPS, mcpGapsOf, protocolExchange } from './adapter.ts';
export type { CallResult, ExpectedTool, TextAgreement } from './call.ts';
export type { ClientOptions, StrictClient, Timeouts } from './client.ts';
export { CLIENT_INFO, expectResult } from './handshake.ts';
export type { HostCallResult, HostTool } from './host-call.ts';
export type { HostClient, HostClientOptions } from './host-client.ts';
export type { HttpHostClient, HttpHostClientOptions } from './host-http-client.ts';
export { HOST_ADAPTER_VERSION, HOST_CLIENT_INFO } from './host-info.ts';
export type { FailureRecord, ListChanged, RelistRecord } from './host-relist.ts';
export type { HostSession, HostSessionOptions } from './host-session.ts';
export { listPages } from './list-pages.ts';
export type { ListPagesOptions, ListStop, Pages } from './list-pages.ts';
export { nameList } from './name-list.ts';
export type { ToolSession, ToolSessionOptions } from './session.ts';
export type { CallOptions, Exchange, SessionOptions, SessionTimeouts, StrictSession } from './strict-session.ts';
export { HOST_OFFERED_VERSION, OFFERED_VERSION, READ_VERSIONS, VERSION_PROFILES, versionProfile } from './versions.ts';
export type { VersionProfile } from './versions.ts';

type OpenToolSession = typeof import('./session.ts').openToolSession;
type OpenStrictClient = typeof import('./client.ts').openStrictClient;
type OpenHostClient = typeof import('./host-client.ts').openHostClient;
type OpenHttpHostClient = typeof import('./host-http-client.ts').openHttpHostClient;

/** Opens a session with one server, its tools wrapped for the pipeline (see session.ts); loads the strict client on first use. */
export async function openToolSession(...args: Parameters<OpenToolSession>): ReturnType<OpenToolSession> {
  return (await import('./session.ts')).openToolSession(...args);
}

/** Opens a strict fixed-profile client (see client.ts); loads it on first use. */
export async function openStrictClient(...args: Parameters<OpenStrictClient>): ReturnType<OpenStrictClient> {
  return (await import('./client.ts')).openStrictClient(...args);
}

/** Runs the fixed-profile handshake over any transport (see strict-session.ts); loads the session on first use. */
export async function startStrictSession<Closed>(transport: Transport<Closed>, options: SessionOptions): Promise<Outcome<StrictSession<Closed>>> {
  return (await import('./strict-session.ts')).startStrictSession(transport, options);
}

/** Opens a host-profile client over a spawned server's stdio (see host-client.ts); loads it on first use. */
export async function openHostClient(...args: Parameters<OpenHostClient>): ReturnType<OpenHostClient> {
  return (await import('./host-client.ts')).openHostClient(...args);
}

/** Opens a host-profile client over Streamable HTTP (see host-http-client.ts); loads it on first use. */
export async function openHttpHostClient(...args: Parameters<OpenHttpHostClient>): ReturnType<OpenHttpHostClient> {
  return (await import('./host-http-client.ts')).openHttpHostClient(...args);
}

/** Runs the host-profile handshake and first listing over any transport (see host-session.ts); loads the session on first use. */
export async function startHostSession<Closed>(transport: Transport<Closed>, options: HostSessionOptions<Closed>): Promise<Outcome<HostSession<Closed>>> {
  return (await import('./host-session.ts')).startHostSession(transport, options);
}
