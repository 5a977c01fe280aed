import type { ServerIdentity } from '../../binding/index.ts';
import { clip } from '../../base/index.ts';
import { fail, LIMITS, ok, type Failure, type Outcome } from '../../contract/index.ts';
import type { ExpectedTool } from './call.ts';
import { openStdioTransport, stdioEndpoint, type CloseReport, type ConnectionLimits, type Graces, type Launch, type ServerInfo, type SpawnFn } from '../wire/index.ts';
import { startStrictSession, type SessionTimeouts, type StrictSession } from './strict-session.ts';

export type { CallOptions, Exchange } from './strict-session.ts';

/** Every wait the client makes; injectable so tests stay fast. */
export interface Timeouts extends Graces, SessionTimeouts {}

export const DEFAULT_TIMEOUTS: Timeouts = { handshakeMs: 10_000, callMs: 10_000, exitMs: 1_000, termMs: 1_000, killMs: 1_000 };

export interface ClientOptions {
  /** The name the host gives this server (its tools are `mcp__<key>__<tool>`); never the self-reported serverInfo.name. */
  readonly key: string;
  readonly launch: Launch;
  /** Exactly the tools the server must list, pinned to their contracts. */
  readonly tools: readonly ExpectedTool[];
  /** Names this server instance in bindings and records (derive it from the run id for reproducible runs). */
  readonly instanceId?: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
}

/** A handshaken session with one stdio server under the fixed profile. */
export interface StrictClient extends StrictSession<CloseReport> {
  readonly identity: ServerIdentity;
  /** The server's pid (also the process group id). */
  readonly pid: number;
  stderr(): string;
}

/** The failure with the end of the server's stderr (at most `LIMITS.serverStderrBytes`) as one more issue. */
export function withStderr(failure: Failure, stderr: string): Failure {
  const tail = stderr.trim();
  if (!tail) return failure;
  return { ...failure, issues: [...(failure.issues ?? []), `server stderr (tail): ${clip(tail, LIMITS.serverStderrBytes, 'tail')}`] };
}

/** A failed handshake over stdio, with the server's stderr tail: a server that died before its first answer could not be started (spawn/exited_early). */
export function startFailure(failure: Failure, stderr: string): Failure {
  const early = failure.class === 'closed' && failure.kind === 'connection_lost';
  return withStderr(early ? fail('spawn', 'exited_early', `server ended before completing the handshake: ${failure.message}`) : failure, stderr);
}

/**
 * Spawns the server, connects the strict session to its stdio and runs the
 * fixed-profile handshake. On any failure the server's process group is
 * stopped before the failure is returned, with the server's stderr tail.
 */
export async function openStrictClient(options: ClientOptions): Promise<Outcome<StrictClient>> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const opened = openStdioTransport(options.launch, {
    graces: timeouts,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.spawn ? { spawn: options.spawn } : {}),
  });
  if (!opened.ok) return opened;
  const transport = opened.value;
  const session = await startStrictSession(transport, {
    tools: options.tools,
    timeouts,
    explainClosed: (failure) => withStderr(failure, transport.stderr()),
  });
  if (!session.ok) return startFailure(session, transport.stderr());
  return ok({ ...session.value, identity: identityOf(options, session.value), pid: transport.pid, stderr: () => transport.stderr() });
}

/** A spawned server's identity: the key and instance the host gives it, what it says of itself, how it was launched. */
export function identityOf(options: Pick<ClientOptions, 'key' | 'launch' | 'instanceId'>, session: { readonly serverInfo: ServerInfo; readonly protocolVersion: string }): ServerIdentity {
  return identityAt(options, session, stdioEndpoint(options.launch));
}

/** A server's identity at an endpoint (stdio: how it was launched; HTTP: its url and header names, never their values). */
export function identityAt(options: Pick<ClientOptions, 'key' | 'instanceId'>, session: { readonly serverInfo: ServerInfo; readonly protocolVersion: string }, endpoint: ServerIdentity['endpoint']): ServerIdentity {
  return {
    key: options.key,
    name: session.serverInfo.name,
    version: session.serverInfo.version,
    protocolVersion: session.protocolVersion,
    endpoint,
    instanceId: options.instanceId ?? crypto.randomUUID(),
  };
}
