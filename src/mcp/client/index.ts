/**
 * The strict fixed-profile client over the wire: the handshake and its
 * checks (one revision, one page, exactly the pinned tools), a call's result
 * read strictly (`interpretCall`), the strict session over any transport,
 * `openStrictClient` over a spawned server's stdio, and the tool session that
 * wraps a server's tools as ordinary runtime tools. The session, the client
 * and the tool session load on first use, so `caplab serve` and `verify`
 * never evaluate them (test/module-graph.test.ts holds this).
 */
import type { Outcome } from '../../contract/index.ts';
import type { Transport } from '../wire/index.ts';
import type { SessionOptions, StrictSession } from './strict-session.ts';

export { MCP_ADAPTER_VERSION, MCP_GAPS, protocolExchange } from './adapter.ts';
export type { CallResult, ExpectedTool, TextAgreement } from './call.ts';
export type { ClientOptions, StrictClient, Timeouts } from './client.ts';
export { CLIENT_INFO, expectResult } from './handshake.ts';
export { nameList } from './name-list.ts';
export type { ToolSession, ToolSessionOptions } from './session.ts';
export type { CallOptions, Exchange, SessionOptions, SessionTimeouts, StrictSession } from './strict-session.ts';

type OpenToolSession = typeof import('./session.ts').openToolSession;
type OpenStrictClient = typeof import('./client.ts').openStrictClient;

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
