import type { ServerEndpoint } from '../../binding/index.ts';
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

/** What the host cannot know about an MCP server it reaches over Streamable HTTP, stated in every binding. */
export const MCP_HTTP_GAPS: readonly string[] = [
  'remote build unknown: the server is identified only by serverInfo, its URL and tool schemas',
  'server-side state unverified: results are checked against the host snapshot, never trusted on their own',
  'effects after a dropped connection unknown: a call whose connection or stream dropped may have run on the server; its outcome is unknown and it is never re-sent',
  'host name resolved at connect time: the URL names a host, not an address; which machine answered is not recorded',
];

/** The gaps of a server reached at `endpoint`: `MCP_GAPS` over stdio, `MCP_HTTP_GAPS` over HTTP. */
export function mcpGapsOf(endpoint: Pick<ServerEndpoint, 'kind'>): readonly string[] {
  return endpoint.kind === 'http' ? MCP_HTTP_GAPS : MCP_GAPS;
}

/** The exchange's transport as the record names it: `mcp-stdio` or `mcp-http`, by how the server is reached. */
export function exchangeTransport(endpoint: Pick<ServerEndpoint, 'kind'>): ProtocolExchange['transport'] {
  return endpoint.kind === 'http' ? 'mcp-http' : 'mcp-stdio';
}

/** One logged tools/call as the pipeline and the record summarise it: transport, server, correlated id, sizes. */
export function protocolExchange(client: Pick<StrictClient, 'identity'>, exchange: Pick<Exchange, 'method' | 'jsonrpcId' | 'requestBytes' | 'responseBytes' | 'isError' | 'task'>): ProtocolExchange {
  return {
    transport: exchangeTransport(client.identity.endpoint),
    server: client.identity.key,
    method: exchange.method,
    jsonrpcId: exchange.jsonrpcId,
    requestBytes: exchange.requestBytes,
    responseBytes: exchange.responseBytes,
    isError: exchange.isError,
    ...(exchange.task ? { task: exchange.task } : {}),
  };
}
