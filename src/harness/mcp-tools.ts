import { localCreateCard } from '../excerpt/index.ts';
import { MCP_GAPS, fixtureLaunch, openFixtureSession, type FixtureSessionOptions } from '../mcp/index.ts';
import type { ToolProvider } from './tools.ts';

/**
 * read_source over the fixture MCP server (spawned from this program with a
 * cleaned environment), create_card local: the demo's default. The instance
 * id derives from the run id so that same-id runs bind identically.
 */
export function mcpTools(options: { readonly envSource: Readonly<Record<string, string | undefined>> } & Partial<FixtureSessionOptions>): ToolProvider {
  return async (snapshot, runId) => {
    const session = await openFixtureSession({
      launch: fixtureLaunch({ envSource: options.envSource }),
      instanceId: `${runId}/fixture-1`,
      ...options,
      snapshot,
    });
    if (!session.ok) return session;
    const { identity } = session.value;
    return {
      ok: true,
      value: {
        transport: 'mcp',
        tools: [...session.value.tools, localCreateCard(snapshot, runId)],
        server: {
          serverInfo: { name: identity.name, version: identity.version },
          protocolVersion: identity.protocolVersion,
          launch: identity.launch,
          cwd: identity.cwd,
          envNames: identity.envNames,
          instanceId: identity.instanceId,
          gaps: MCP_GAPS,
        },
        // The server's stderr is diagnostics, never parsed; it is recorded with the close report.
        // Every tools/call exchange (failed ones too) keeps its three correlated ids in the record.
        close: async () => ({
          ...(await session.value.close()),
          exchanges: session.value.exchanges(),
          server_stderr: session.value.client.stderr().slice(-4096),
        }),
      },
    };
  };
}
