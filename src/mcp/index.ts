/**
 * MCP over stdio (SPEC F-MCP): the fixture server (`caplab serve`), the
 * strict fixed-profile client, and the adapter that makes an MCP tool an
 * ordinary runtime tool. Test servers live in `testing/` and are never
 * imported from here.
 */
export { serve } from './server.ts';
export { FIXTURE_SERVER_INFO } from './fixture-info.ts';
export type { ServeIo } from './server.ts';
export type { FixtureSession, FixtureSessionOptions } from './session.ts';
export type { CallOptions, ClientOptions, Exchange, StrictClient, Timeouts } from './client.ts';
export { checkAgainstSnapshot, MCP_ADAPTER_VERSION, MCP_GAPS, mcpReadSource, READ_SOURCE_EXPECTED } from './adapter.ts';
export type { McpReadSourceOptions } from './adapter.ts';
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

// The client, the fixture session and the prober load on first use, so `caplab serve` and `verify`
// never evaluate the client and only `probe` loads ajv (test/module-graph.test.ts holds this).
type OpenFixtureSession = typeof import('./session.ts').openFixtureSession;
type OpenStrictClient = typeof import('./client.ts').openStrictClient;
type Probe = typeof import('./probe.ts').probe;

/** Opens the fixture server session (see session.ts); loads the strict client on first use. */
export async function openFixtureSession(...args: Parameters<OpenFixtureSession>): ReturnType<OpenFixtureSession> {
  return (await import('./session.ts')).openFixtureSession(...args);
}

/** Opens a strict fixed-profile client (see client.ts); loads it on first use. */
export async function openStrictClient(...args: Parameters<OpenStrictClient>): ReturnType<OpenStrictClient> {
  return (await import('./client.ts')).openStrictClient(...args);
}

/** Probes any stdio MCP server (see probe.ts); loads it, and ajv with it, on first use. */
export async function probe(...args: Parameters<Probe>): ReturnType<Probe> {
  return (await import('./probe.ts')).probe(...args);
}
