import { readdirSync, readlinkSync } from 'node:fs';
// Types only (erased at build): the answers are checked against the SDK's protocol shapes, at no load cost.
import type { CallToolResult, InitializeResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../contract/index.ts';
import { PROTOCOL_VERSION } from '../wire/index.ts';
import { dualEra, MODERN_PROTOCOL_VERSION } from './modern-era.ts';
import { answerLine, isObject, RPC_ERROR, shown, type MethodAnswer, type MethodHandler, type Methods, type SerializedResult } from './serve-rpc.ts';
import { serveStdio, type ServeStreams } from './serve-stdio.ts';

/** Output a server lets pile up unread before it stops reading stdin (backpressure). */
const SERVE_PENDING_OUTPUT_BYTES = 1024 * 1024;

/** One tool a server serves: as `tools/list` shows it, and how it answers a call. */
export interface ServedTool {
  readonly tool: Tool;
  /**
   * Answers one call; invalid arguments are a tool error (`isError`), not a
   * protocol error. A result the tool gives again and again may come serialized
   * ahead (`serializeResult`); the arguments are still checked per call.
   */
  call(args: Readonly<Record<string, unknown>> | undefined): { readonly result: CallToolResult } | { readonly serialized: SerializedResult<CallToolResult> };
}

/** A tools-only MCP server: its serverInfo and its tools. A task builds one for its fixture server. */
export interface ToolServer {
  readonly info: { readonly name: string; readonly version: string };
  readonly tools: readonly ServedTool[];
}

const invalidParams = (message: string): MethodAnswer => ({ error: { code: RPC_ERROR.invalidParams, message: `Invalid params: ${message}` } });

/**
 * A server's methods (tools only; MCP 2025-06-18 after `initialize`, and
 * 2026-07-28 per request, see modern-era.ts, unless `eras` is `legacy`:
 * Streamable HTTP stays 2025-06-18 only); exported for the serve fuzzer.
 */
export function toolServerMethods(server: ToolServer, eras: 'both' | 'legacy' = 'both'): Methods {
  const listed = server.tools.map((served) => served.tool);
  const listTools: MethodHandler = (params) =>
    params['cursor'] !== undefined && typeof params['cursor'] !== 'string' ? invalidParams('cursor must be a string') : { result: { tools: listed } };
  const callTool: MethodHandler = (params) => {
    const name = params['name'];
    if (typeof name !== 'string') return invalidParams('tools/call needs params.name (a string)');
    const args = params['arguments'];
    if (args !== undefined && !isObject(args)) return invalidParams('params.arguments must be an object');
    const served = server.tools.find((s) => s.tool.name === name);
    if (!served) return invalidParams(`Unknown tool: ${shown(name)}`);
    return served.call(args);
  };
  const legacy: Record<string, MethodHandler> = {
    // Speak only 2025-06-18 here: these handlers implement that revision's tool
    // semantics and nothing else, whatever version the client asks for.
    initialize: (params) => {
      const info = params['clientInfo'];
      if (typeof params['protocolVersion'] !== 'string' || !isObject(params['capabilities']) || !isObject(info)) {
        return invalidParams('initialize needs protocolVersion (string), capabilities (object) and clientInfo (object)');
      }
      if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return invalidParams('clientInfo needs name and version (strings)');
      return { result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: server.info } satisfies InitializeResult };
    },
    ping: () => ({ result: {} }),
    'tools/list': listTools,
    'tools/call': callTool,
  };
  const modern: Record<string, MethodHandler> = {
    // No `initialize` and no `ping` in 2026-07-28: discover is how a client learns who answers.
    'server/discover': () => ({ result: { supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: { tools: {} } } }),
    'tools/list': listTools,
    'tools/call': callTool,
  };
  return {
    requests: eras === 'legacy' ? legacy : dualEra(legacy, modern, server.info),
    // Handlers answer synchronously, so a cancellation always arrives too late to act on.
    notifications: new Set(['notifications/initialized', 'notifications/cancelled']),
  };
}

/**
 * Runs a tools-only server on stdio until stdin ends (`caplab serve`).
 * stdout carries protocol only; every log line goes to stderr. Every stdin
 * line gets one answer or one stderr line (see `answerLine`).
 *
 * @returns The exit code: 0 after stdin EOF, 3 after a line over `LIMITS.mcpLineBytes`.
 */
export async function serveTools(io: ServeStreams, server: ToolServer): Promise<number> {
  const methods = toolServerMethods(server);
  io.stderr.write(`caplab serve: ${server.info.name} ${server.info.version} ready (MCP ${PROTOCOL_VERSION}, stdio; pid ${process.pid}; inherited fds ${inheritedFds()})\n`);
  return serveStdio(io, (line) => answerLine(line, methods), {
    maxLineBytes: LIMITS.mcpLineBytes,
    pendingOutputBytes: SERVE_PENDING_OUTPUT_BYTES,
  });
}

/**
 * The descriptors this process holds beyond stdio: every fd that is neither
 * 0–2, a runtime duplicate of them (Bun dups stdout/stderr for its writers),
 * nor Bun's own anon inodes (event loop). Diagnostic only — written to stderr
 * so a run record shows the child held just 0, 1, 2 and nothing else.
 */
function inheritedFds(): string {
  const target = (fd: number) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'utf8' });
    } catch {
      return undefined; // the descriptor readdir itself used, already closed
    }
  };
  try {
    const stdio = new Set([0, 1, 2].map(target));
    const extra = readdirSync('/proc/self/fd')
      .map(Number)
      .filter((fd) => fd > 2)
      .map((fd) => [fd, target(fd)] as const)
      .filter(([, t]) => t !== undefined && !t.startsWith('anon_inode:') && !stdio.has(t))
      .map(([fd, t]) => `${fd}=${t}`);
    return `0,1,2; other descriptors: ${extra.length > 0 ? extra.join(',') : 'none'}`;
  } catch {
    return 'unknown (no /proc)';
  }
}
