/**
 * MCP over stdio (SPEC F-MCP): a tools-only server engine (a task's fixture
 * server runs on it as `caplab serve`), the strict fixed-profile client, a
 * session that wraps a server's tools as ordinary runtime tools, and the
 * prober. Test servers live in `testing/` and are never imported from here.
 */
export { serveTools, toolServerMethods } from './tool-server.ts';
export type { ServedTool, ToolServer } from './tool-server.ts';
export type { Methods } from './serve-rpc.ts';
export type { ServeStreams } from './serve-stdio.ts';
export type { Session, SessionOptions } from './session.ts';
export type { CallOptions, ClientOptions, Exchange, StrictClient, Timeouts } from './client.ts';
export { MCP_ADAPTER_VERSION, MCP_GAPS, protocolExchange } from './adapter.ts';
export type { CallResult, ExpectedTool, TextAgreement } from './call.ts';
export { spawnChild, terminate } from './child.ts';
export type { ChildProcess, CloseReport, Graces, SpawnFn } from './child.ts';
export { DEFAULT_CONNECTION_LIMITS } from './connection.ts';
export type { ConnectionLimits } from './connection.ts';
export { CLIENT_INFO } from './handshake.ts';
export { buildEnv, DEV_SERVE_ENTRY, envNameAllowed, FIXTURE_ENV_ALLOW, fixtureLaunch, isCompiled, PROBE_ENV_ALLOW, probeEnv } from './launch.ts';
export type { DefaultLaunchOptions, Launch } from './launch.ts';
export { PROTOCOL_VERSION } from './results.ts';
export type { ProbeOptions, ProbeReport, ProbeTimeouts } from './probe.ts';
export { PROBE_OFFERED, PROBE_VERSIONS } from './probe-versions.ts';
export type { Basis } from './probe-versions.ts';
export type { ProbeFinding } from './probe-finding.ts';
export type { ProbedTool } from './probe-tools.ts';
export type { CallRequest, ProbedCall } from './probe-calls.ts';

// The client, the session and the prober load on first use, so `caplab serve` and `verify`
// never evaluate the client and only `probe` loads ajv (test/module-graph.test.ts holds this).
type OpenSession = typeof import('./session.ts').openSession;
type OpenStrictClient = typeof import('./client.ts').openStrictClient;
type Probe = typeof import('./probe.ts').probe;

/** Opens a session with one server (see session.ts); loads the strict client on first use. */
export async function openSession(...args: Parameters<OpenSession>): ReturnType<OpenSession> {
  return (await import('./session.ts')).openSession(...args);
}

/** Opens a strict fixed-profile client (see client.ts); loads it on first use. */
export async function openStrictClient(...args: Parameters<OpenStrictClient>): ReturnType<OpenStrictClient> {
  return (await import('./client.ts')).openStrictClient(...args);
}

/** Probes any stdio MCP server (see probe.ts); loads it, and ajv with it, on first use. */
export async function probe(...args: Parameters<Probe>): ReturnType<Probe> {
  return (await import('./probe.ts')).probe(...args);
}
