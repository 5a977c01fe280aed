import type { ProtocolExchange } from '../../pipeline/index.ts';
import type { Exchange, StrictClient } from './client.ts';
import { CLIENT_INFO } from './handshake.ts';

/** The adapter's version, bound as the MCP implementation version of a tool a task wraps over the strict client. */
export const MCP_ADAPTER_VERSION = `${CLIENT_INFO.name}/${CLIENT_INFO.version}`;

/** What the host cannot know about a stdio MCP server, stated in every binding. */
export const MCP_GAPS: readonly string[] = [
  'remote build unknown: the server is identified only by serverInfo, launch command and tool schemas',
  'server-side state unverified: results are checked against the host snapshot, never trusted on their own',
  'processes that leave the server process group (setsid) are found and killed on close only on Linux, where caplab is a child subreaper; elsewhere they are not tracked',
];

/** One logged tools/call as the pipeline and the record summarise it: transport, server, correlated id, sizes. */
export function protocolExchange(client: Pick<StrictClient, 'identity'>, exchange: Pick<Exchange, 'method' | 'jsonrpcId' | 'requestBytes' | 'responseBytes' | 'isError'>): ProtocolExchange {
  return {
    transport: 'mcp-stdio',
    server: client.identity.key,
    method: exchange.method,
    jsonrpcId: exchange.jsonrpcId,
    requestBytes: exchange.requestBytes,
    responseBytes: exchange.responseBytes,
    isError: exchange.isError,
  };
}
