import type { ServerIdentity } from '../binding/index.ts';
import { ok, type Outcome } from '../contract/index.ts';
import type { Snapshot } from '../excerpt/index.ts';
import type { ProtocolExchange, RuntimeTool } from '../pipeline/index.ts';
import { mcpReadSource, protocolExchange, READ_SOURCE_EXPECTED, type McpReadSourceOptions } from './adapter.ts';
import type { SpawnFn } from './child.ts';
import { openStrictClient, type Exchange, type StrictClient, type Timeouts } from './client.ts';
import type { CloseReport } from './child.ts';
import type { ConnectionLimits } from './stdio-transport.ts';
import { fixtureLaunch, type Launch } from './launch.ts';

export interface FixtureSessionOptions extends McpReadSourceOptions {
  /** The host's startup snapshot: every result is compared with it. */
  readonly snapshot: Snapshot;
  /** Default: `fixtureLaunch()` (this binary with `serve`, or Bun with the dev entry). */
  readonly launch?: Launch;
  readonly instanceId?: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
}

/** An open session with the fixture server, its tools wrapped for the pipeline. */
export interface FixtureSession {
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
 * Starts the fixture server and returns `read_source` as a runtime tool.
 *
 * @example
 * const session = await openFixtureSession({ snapshot: fixtureSnapshot() });
 * if (!session.ok) return exitFor(session);
 * try { … run with session.value.tools … } finally { await session.value.close(); }
 */
export async function openFixtureSession(options: FixtureSessionOptions): Promise<Outcome<FixtureSession>> {
  const client = await openStrictClient({
    launch: options.launch ?? fixtureLaunch(),
    tools: [READ_SOURCE_EXPECTED],
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.spawn ? { spawn: options.spawn } : {}),
  });
  if (!client.ok) return client;
  const tool = mcpReadSource(client.value, options.snapshot, options.toolName ? { toolName: options.toolName } : {});
  return ok({
    tools: [tool],
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
