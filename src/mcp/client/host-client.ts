import type { ServerIdentity } from '../../binding/index.ts';
import { ok, type Outcome } from '../../contract/index.ts';
import { openStdioTransport, type CloseReport, type ConnectionLimits, type Launch, type SpawnFn } from '../wire/index.ts';
import { DEFAULT_TIMEOUTS, identityOf, startFailure, withStderr, type Timeouts } from './client.ts';
import { startHostSession, type HostSession } from './host-session.ts';

export interface HostClientOptions {
  /** The name the host gives this server (its tools are `mcp__<key>__<tool>`); never the self-reported serverInfo.name. */
  readonly key: string;
  readonly launch: Launch;
  /** Names this server instance in bindings and records (derive it from the run id for reproducible runs). */
  readonly instanceId?: string;
  readonly timeouts?: Partial<Timeouts>;
  /** Pages a listing follows at most (default `LIMITS.probePages`). */
  readonly maxPages?: number;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
  /** Aborted (SIGINT/SIGTERM) while the server starts: the handshake stops waiting and the server is stopped, not after `handshakeMs`. */
  readonly signal?: AbortSignal;
}

/** A handshaken host session with one stdio server a user configured. */
export interface HostClient extends HostSession<CloseReport> {
  readonly identity: ServerIdentity;
  /** The server's pid (also the process group id). */
  readonly pid: number;
  stderr(): string;
}

/**
 * Spawns the server, connects the host session to its stdio, runs the host
 * handshake and lists its tools. On any failure the server's process group
 * is stopped before the failure is returned, with the server's stderr tail;
 * a server that ends before its first answer is spawn/exited_early. A call
 * that fails because the server died carries the stderr tail too.
 *
 * @example
 * const client = await openHostClient({ key: 'everything', launch });
 * if (!client.ok) return client;
 * try { … client.value.callTool({ name: 'get-sum' }, { a: 1, b: 2 }, ids) … } finally { await client.value.close(); }
 */
export async function openHostClient(options: HostClientOptions): Promise<Outcome<HostClient>> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const opened = openStdioTransport(options.launch, {
    graces: timeouts,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.spawn ? { spawn: options.spawn } : {}),
  });
  if (!opened.ok) return opened;
  const transport = opened.value;
  const session = await startHostSession(transport, {
    timeouts,
    ...(options.maxPages !== undefined ? { maxPages: options.maxPages } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    explainClosed: (failure) => withStderr(failure, transport.stderr()),
  });
  if (!session.ok) return startFailure(session, transport.stderr());
  return ok({ ...session.value, identity: identityOf(options, session.value), pid: transport.pid, stderr: () => transport.stderr() });
}
