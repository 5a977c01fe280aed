import type { ServerIdentity } from '../../binding/index.ts';
import { ok, type Outcome } from '../../contract/index.ts';
import type { ProtocolExchange, RuntimeTool } from '../../pipeline/index.ts';
import { protocolExchange } from './adapter.ts';
import type { ExpectedTool } from './call.ts';
import type { CloseReport, ConnectionLimits, Launch, SpawnFn } from '../wire/index.ts';
import { openStrictClient, type Exchange, type StrictClient, type Timeouts } from './client.ts';

export interface ToolSessionOptions {
  /** The name the host gives the server (see `ClientOptions.key`). */
  readonly key: string;
  readonly launch: Launch;
  /** The tools the server must list, each pinned to the contract the host validates with. */
  readonly tools: readonly ExpectedTool[];
  /** Wraps the open client's tools for the pipeline (a task's adapter: it checks results against host evidence). */
  readonly adapt: (client: StrictClient) => readonly RuntimeTool[];
  readonly instanceId?: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
  /**
   * Set: `launch` starts a server that serves MCP over Streamable HTTP with
   * a bearer token from this variable (`openHttpServeClient`); unset: the
   * server speaks on its stdio.
   */
  readonly http?: { readonly tokenEnv: string };
}

/** An open session with one server, its tools wrapped for the pipeline (over the strict client). */
export interface ToolSession {
  readonly tools: readonly RuntimeTool[];
  readonly identity: ServerIdentity;
  readonly client: StrictClient;
  /** Every tools/call with its three correlated ids. */
  exchanges(): readonly Exchange[];
  /**
   * The exchange behind an action, failed or not, summarised for the record;
   * undefined if that action sent nothing to the server.
   */
  protocolOf(actionId: string): ProtocolExchange | undefined;
  close(): Promise<CloseReport>;
}

/**
 * Starts a server (over its stdio, or over HTTP with `http`), checks it lists the expected tools, and returns them
 * wrapped as runtime tools. If `adapt` throws, the server is stopped before
 * the error propagates.
 *
 * @example
 * const session = await openToolSession({ key: 'notes', launch, tools: [expected], adapt: (client) => [wrap(client)] });
 * if (!session.ok) return exitFor(session);
 * try { … run with session.value.tools … } finally { await session.value.close(); }
 */
export async function openToolSession(options: ToolSessionOptions): Promise<Outcome<ToolSession>> {
  const common = {
    key: options.key,
    launch: options.launch,
    tools: options.tools,
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.spawn ? { spawn: options.spawn } : {}),
  };
  const client = options.http
    ? await (await import('./http-client.ts')).openHttpServeClient({ ...common, tokenEnv: options.http.tokenEnv })
    : await openStrictClient({ ...common, ...(options.limits ? { limits: options.limits } : {}) });
  if (!client.ok) return client;
  let tools: readonly RuntimeTool[];
  try {
    tools = options.adapt(client.value);
  } catch (error) {
    // A throwing adapter is a programmer error, but the server it was given must not outlive it.
    await client.value.close();
    throw error;
  }
  return ok({
    tools,
    identity: client.value.identity,
    client: client.value,
    exchanges: () => client.value.exchanges(),
    protocolOf: (actionId) => {
      const exchange = client.value.exchanges().find((e) => e.actionId === actionId);
      return exchange ? protocolExchange(client.value, exchange) : undefined;
    },
    close: () => client.value.close(),
  });
}
