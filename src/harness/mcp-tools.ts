import { LIMITS } from '../contract/index.ts';
import { localCreateCard } from '../excerpt/index.ts';
import { MCP_GAPS, fixtureLaunch, openFixtureSession, type FixtureSessionOptions } from '../mcp/index.ts';
import type { ToolProvider } from './tools.ts';

/** The last `maxBytes` bytes of `text` as UTF-8, starting on a code point boundary. */
export function tailUtf8(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  let start = bytes.byteLength - maxBytes;
  // Step forward over UTF-8 continuation bytes (top bits 0b10) to a code point start.
  while (start < bytes.byteLength && (bytes[start]! & 0xc0) === 0x80) start++;
  return new TextDecoder().decode(bytes.subarray(start));
}

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
          instanceId: identity.instanceId,
          gaps: MCP_GAPS,
        },
        // The server's stderr is diagnostics, never parsed; it is recorded with the close report.
        // Every tools/call exchange (failed ones too) keeps its three correlated ids in the record.
        close: async () => ({
          ...(await session.value.close()),
          exchanges: session.value.exchanges(),
          server_stderr: tailUtf8(session.value.client.stderr(), LIMITS.serverStderrBytes),
        }),
      },
    };
  };
}
