/**
 * MCP over stdio (SPEC F-MCP), in layers, each usable alone and each behind
 * its own index.ts:
 *
 * - `wire/`: JSON-RPC framing and messages, the `Transport` seam (stdio and
 *   in-memory here, HTTP later), the spawned child, and the `Correlator` (ids,
 *   deadlines, cancellation, notifications) over any transport;
 * - `client/`: the strict fixed-profile session (handshake, list, call) over a
 *   correlator, `openStrictClient` over a spawned server's stdio, and the tool
 *   session that wraps a server's tools as ordinary runtime tools; beside it
 *   the host profile for servers users configure (`startHostSession`,
 *   `openHostClient`, `openHttpHostClient`);
 * - `server/`: a tools-only server engine (a task's fixture server runs on it
 *   as `caplab serve`), apart from the client: the two meet only on the wire;
 * - `probe/`: the prober, on the client's checks and the wire;
 * - `config/`: `.mcp.json` as Claude Code writes it (`loadMcpConfig`).
 *
 * This file is the folder's surface for the rest of caplab and for library
 * users (`caplab/mcp`). Test kits live in each layer's `testing/` and are
 * never imported from here. The client, the tool session and the prober load
 * on first use (see client/index.ts and probe/index.ts).
 */
export {
  Correlator,
  buildEnv,
  DEFAULT_CONNECTION_LIMITS,
  envNameAllowed,
  isCompiled,
  MCP_KINDS,
  memoryTransportPair,
  openStdioTransport,
  PROTOCOL_VERSION,
  spawnChild,
  StdioTransport,
  terminate,
} from './wire/index.ts';
export type {
  ChildProcess,
  CloseReport,
  ConnectionLimits,
  CorrelatorOptions,
  ErrorObject,
  Graces,
  HttpCloseReport,
  InboundMessage,
  JsonRpcId,
  Launch,
  MemoryPeer,
  MessageInfo,
  NotificationPolicy,
  OutboundMessage,
  Reply,
  RequestObserver,
  RequestOptions,
  Sent,
  SpawnFn,
  StdioOptions,
  Transport,
  Written,
} from './wire/index.ts';
export {
  CLIENT_INFO,
  exchangeTransport,
  HOST_ADAPTER_VERSION,
  HOST_CLIENT_INFO,
  MCP_ADAPTER_VERSION,
  MCP_GAPS,
  MCP_HTTP_GAPS,
  mcpGapsOf,
  openHostClient,
  openHttpHostClient,
  openStrictClient,
  openToolSession,
  protocolExchange,
  startHostSession,
  startStrictSession,
  versionProfile,
} from './client/index.ts';
export type {
  CallOptions,
  CallResult,
  ClientOptions,
  Exchange,
  ExpectedTool,
  HostCallResult,
  HostClient,
  HostClientOptions,
  HostSession,
  HostSessionOptions,
  HostTool,
  HttpHostClient,
  HttpHostClientOptions,
  ListChanged,
  FailureRecord,
  RelistRecord,
  SessionOptions,
  SessionTimeouts,
  StrictClient,
  StrictSession,
  TextAgreement,
  Timeouts,
  ToolSession,
  ToolSessionOptions,
  VersionProfile,
} from './client/index.ts';
export { serializeResult, serveTools, serveToolsHttp, toolServerMethods } from './server/index.ts';
export type { HttpServeIo, HttpServeOptions, Methods, SerializedResult, ServedTool, ServeStreams, ToolServer } from './server/index.ts';
// MCP 2025-11-25 tasks: the task id rule (`probe --task-status`), the engine (the host session's task calls).
export { isTerminal, runTask, TASK_STATUSES, taskIdProblem } from './tasks/index.ts';
export type { TaskCancel, TaskEnd, TaskReceipt, TaskRun, TaskTransition } from './tasks/index.ts';
export { isClipped, listedValidator, loadListedValidator, probe, PROBE_ENV_ALLOW, PROBE_MODERN, PROBE_OFFERED, PROBE_VERSIONS, probeEnv, probeTarget } from './probe/index.ts';
export type { Basis, Bounded, CallRequest, Clipped, HttpReached, ListedValidator, Negotiation, ProbedCall, ProtocolChoice, ProbedTool, ProbeFinding, ProbeOptions, ProbeReport, ProbeTarget, ProbeTimeouts, StdioReached, ReportedCall, ReportedServer, ReportedTool } from './probe/index.ts';
// W11: probe as a gate (levels, pins, reports).
export { allFindings, atLeast, basesOf, LEVELS, levelOf, parseLevelOverride, PIN_KINDS, PROBE_RULES, reachesFailOn, withLevels } from './probe/index.ts';
export type { Level, LevelOverrides, ProbeRule } from './probe/index.ts';
export { comparePins, EMPTY_PINS, pinEntry, PINS_FORMAT, pinsText, readPins } from './probe/index.ts';
export type { PinEntry, PinFile, ProbeWire, ServerWire } from './probe/index.ts';
export { FUZZ_ENDED_KIND, FUZZ_UNKNOWN_KINDS, replayFuzz, runFuzz } from './probe/index.ts';
export type { FuzzedTool, FuzzFinding, FuzzListing, FuzzPlan, FuzzSection, FuzzSession, FuzzStart, ReplayItem, ReplayResult } from './probe/index.ts';
export { ENV_NAME, ENV_NAME_RULE, httpTarget, isLoopbackHost, loadMcpConfig, RESERVED_HEADERS } from './config/index.ts';
export type { HttpConfigEntry, HttpTarget, InvalidConfigEntry, McpConfig, McpConfigEntry, McpConfigOptions, StdioConfigEntry, UnsupportedConfigEntry } from './config/index.ts';
export { entryArgv, resolveCommand, resolvePaths, serverKey, serverKeys } from './config/index.ts';
export type { ServerKey } from './config/index.ts';
