import type { Outcome } from '../contract/index.ts';
import { openToolSession, type Launch, type ToolSession, type ToolSessionOptions } from '../mcp/index.ts';
import { mcpReadSource, READ_SOURCE_EXPECTED, type McpReadSourceOptions } from './mcp-read-source.ts';
import { FIXTURE_KEY } from './fixture-launch.ts';
import type { Snapshot } from './snapshot.ts';

export interface FixtureSessionOptions extends McpReadSourceOptions, Partial<Omit<ToolSessionOptions, 'tools' | 'adapt' | 'key'>> {
  /** The host's startup snapshot: every result is compared with it. */
  readonly snapshot: Snapshot;
  /** How the server is started (see `fixtureLaunch`). */
  readonly launch: Launch;
}

/** An open session with the fixture server: `read_source` as a runtime tool. */
export type FixtureSession = ToolSession;

/**
 * Starts the fixture server (`fixtureLaunch`: this binary with `serve`, or
 * Bun with the dev entry) and returns `read_source` as a runtime tool.
 *
 * @example
 * const session = await openFixtureSession({ snapshot: fixtureSnapshot(), launch: fixtureLaunch({ devEntry: DEV_SERVE_ENTRY }) });
 */
export function openFixtureSession(options: FixtureSessionOptions): Promise<Outcome<FixtureSession>> {
  const { snapshot, toolName, launch, ...rest } = options;
  return openToolSession({
    ...rest,
    key: FIXTURE_KEY,
    launch,
    tools: [READ_SOURCE_EXPECTED],
    adapt: (client) => [mcpReadSource(client, snapshot, toolName ? { toolName } : {})],
  });
}
