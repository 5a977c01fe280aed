/**
 * MCP over stdio (SPEC F-MCP): a tools-only server engine (a task's fixture
 * server runs on it as `caplab serve`), the strict fixed-profile client, a
 * tool session that wraps a server's tools as ordinary runtime tools, and the
 * prober. Test servers live in `testing/` and are never imported from here.
 *
 * The client in layers, each usable alone: a `Transport` (the seam; stdio
 * and in-memory here, HTTP later), the `Correlator` (JSON-RPC ids, deadlines,
 * cancellation, notifications) over any transport, and the strict session
 * (handshake, list, call) over a correlator; `openStrictClient` composes
 * them over a spawned server's stdio.
 */
import type { Outcome } from '../contract/index.ts';
import type { SessionOptions, StrictSession } from './client/strict-session.ts';
import type { Transport } from './wire/transport.ts';

export { serveTools, toolServerMethods } from './server/tool-server.ts';
export type { ServedTool, ToolServer } from './server/tool-server.ts';
export { serializeResult } from './server/serve-rpc.ts';
export type { Methods, SerializedResult } from './server/serve-rpc.ts';
export type { ServeStreams } from './server/serve-stdio.ts';
export type { ToolSession, ToolSessionOptions } from './client/session.ts';
export type { ClientOptions, StrictClient, Timeouts } from './client/client.ts';
export type { CallOptions, Exchange, SessionOptions, SessionTimeouts, StrictSession } from './client/strict-session.ts';
export type { MessageInfo, Transport, Written } from './wire/transport.ts';
export { DEFAULT_CONNECTION_LIMITS, openStdioTransport, StdioTransport } from './wire/stdio-transport.ts';
export type { ConnectionLimits, StdioOptions } from './wire/stdio-transport.ts';
export { memoryTransportPair } from './wire/memory-transport.ts';
export type { MemoryPeer } from './wire/memory-transport.ts';
export { Correlator } from './wire/correlator.ts';
export type { CorrelatorOptions, NotificationPolicy, Reply, RequestObserver, RequestOptions, Sent } from './wire/correlator.ts';
export type { ErrorObject, InboundMessage, JsonRpcId, OutboundMessage } from './wire/messages.ts';
export { MCP_ADAPTER_VERSION, MCP_GAPS, protocolExchange } from './client/adapter.ts';
export type { CallResult, ExpectedTool, TextAgreement } from './client/call.ts';
export { spawnChild, terminate } from './wire/child.ts';
export type { ChildProcess, CloseReport, Graces, SpawnFn } from './wire/child.ts';
export { CLIENT_INFO } from './client/handshake.ts';
export { buildEnv, DEV_SERVE_ENTRY, envNameAllowed, FIXTURE_ENV_ALLOW, fixtureLaunch, isCompiled, PROBE_ENV_ALLOW, probeEnv } from './wire/launch.ts';
export type { DefaultLaunchOptions, Launch } from './wire/launch.ts';
export { PROTOCOL_VERSION } from './wire/results.ts';
export type { ProbeOptions, ProbeReport, ProbeTimeouts } from './probe/probe.ts';
export { PROBE_OFFERED, PROBE_VERSIONS } from './probe/probe-versions.ts';
export type { Basis } from './probe/probe-versions.ts';
export type { ProbeFinding } from './probe/probe-finding.ts';
export type { ProbedTool } from './probe/probe-tools.ts';
export type { CallRequest, ProbedCall } from './probe/probe-calls.ts';
export type { ReportedCall, ReportedServer, ReportedTool } from './probe/probe-report.ts';
export { isClipped } from './probe/report-value.ts';
export type { Bounded, Clipped } from './probe/report-value.ts';

// The client, the tool session and the prober load on first use, so `caplab serve` and `verify`
// never evaluate the client and only `probe` loads ajv (test/module-graph.test.ts holds this).
type OpenToolSession = typeof import('./client/session.ts').openToolSession;
type OpenStrictClient = typeof import('./client/client.ts').openStrictClient;
type Probe = typeof import('./probe/probe.ts').probe;

/** Opens a session with one server, its tools wrapped for the pipeline (see session.ts); loads the strict client on first use. */
export async function openToolSession(...args: Parameters<OpenToolSession>): ReturnType<OpenToolSession> {
  return (await import('./client/session.ts')).openToolSession(...args);
}

/** Opens a strict fixed-profile client (see client.ts); loads it on first use. */
export async function openStrictClient(...args: Parameters<OpenStrictClient>): ReturnType<OpenStrictClient> {
  return (await import('./client/client.ts')).openStrictClient(...args);
}

/** Runs the fixed-profile handshake over any transport (see strict-session.ts); loads the session on first use. */
export async function startStrictSession<Closed>(transport: Transport<Closed>, options: SessionOptions): Promise<Outcome<StrictSession<Closed>>> {
  return (await import('./client/strict-session.ts')).startStrictSession(transport, options);
}

/** Probes any stdio MCP server (see probe.ts); loads it, and ajv with it, on first use. */
export async function probe(...args: Parameters<Probe>): ReturnType<Probe> {
  return (await import('./probe/probe.ts')).probe(...args);
}
