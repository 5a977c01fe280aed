/**
 * The wire: what every MCP peer shares, below any role. JSON-RPC messages
 * and their framing (one JSON text per line, no key written twice), the MCP
 * 2025-06-18 result shapes, the `Transport` seam with its stdio, in-memory
 * and Streamable HTTP transports (the last with its bounded SSE reader), the
 * spawned child and its launch, and the `Correlator` (ids,
 * deadlines, cancellation, notifications) over any transport. The strict
 * client's refusals and their basis live here too: the wire refuses first.
 * So does mcp's failure-kind table (`MCP_KINDS`, kinds.ts): every layer
 * builds on the wire, so each raises kinds of the one table.
 */
export { MCP_KINDS } from './kinds.ts';
export { refuse, STRICT_CLIENT_BASIS } from './basis.ts';
export type { StrictKind } from './basis.ts';
export { LineSplitter } from './framing.ts';
export { decodeLine, describeIssues, encodeLine } from './messages.ts';
export type { ErrorObject, InboundMessage, JsonRpcId, OutboundMessage } from './messages.ts';
export { memberKeys, rawFacts } from './raw-json.ts';
export type { RawFacts } from './raw-json.ts';
export { CallToolResult, CONTENT_BLOCKS, InitializeResult, ListToolsResult, PROTOCOL_VERSION, textBlocks } from './results.ts';
export type { ServerInfo, ListedTool } from './results.ts';
export type { MessageInfo, Transport, Written } from './transport.ts';
export { DEFAULT_CONNECTION_LIMITS, openStdioTransport, StdioTransport } from './stdio-transport.ts';
export type { ConnectionLimits, StdioOptions } from './stdio-transport.ts';
export { memoryTransportPair } from './memory-transport.ts';
export type { MemoryPeer } from './memory-transport.ts';
export { Correlator } from './correlator.ts';
export type { CorrelatorOptions, NotificationPolicy, Reply, RequestObserver, RequestOptions, RequestStamp, ResultPolicy, Sent } from './correlator.ts';
export { spawnChild, terminate } from './child.ts';
export type { ChildProcess, CloseReport, Graces, SpawnFn } from './child.ts';
export { buildEnv, envNameAllowed, isCompiled, stdioEndpoint } from './launch.ts';
export { StderrTail } from './stderr.ts';
export type { Launch } from './launch.ts';
export { DEFAULT_HTTP_LIMITS, HttpTransport, openHttpTransport, OWN_HEADERS } from './http-transport.ts';
export type { FetchFn, HttpCloseReport, HttpEndpoint, HttpLimits, HttpOptions } from './http-transport.ts';
