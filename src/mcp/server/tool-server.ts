import { readdirSync, readlinkSync } from 'node:fs';
// Types only (erased at build): the answers are checked against the SDK's protocol shapes, at no load cost.
import type { CallToolResult, InitializeResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../contract/index.ts';
import { PROTOCOL_VERSION } from '../wire/index.ts';
import { dualEra, MODERN_PROTOCOL_VERSION } from './modern-era.ts';
import { answerLine, isObject, RPC_ERROR, shown, type MethodAnswer, type MethodHandler, type Methods, type SerializedResult, type ServeSession } from './serve-rpc.ts';
import { ServeTasks } from './serve-tasks.ts';
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
  /** The first revision a session must speak to see it (absent: every session). A session below it is never shown it, nor may call it. */
  readonly since?: string;
  /**
   * 2025-11-25: the tool may run as a task (`execution.taskSupport`, listed
   * only in a 2025-11-25 session); `workMs` is how long its work takes for
   * these arguments (a plain call answers at once).
   */
  readonly task?: { readonly support: 'optional'; readonly workMs: (args: Readonly<Record<string, unknown>> | undefined) => number };
}

/** A tools-only MCP server: its serverInfo and its tools. A task builds one for its fixture server. */
export interface ToolServer {
  readonly info: { readonly name: string; readonly version: string };
  readonly tools: readonly ServedTool[];
}

const invalidParams = (message: string): MethodAnswer => ({ error: { code: RPC_ERROR.invalidParams, message: `Invalid params: ${message}` } });

/** The revision whose sessions see tasks (`execution`, the `tasks` capability) and tools listed `since` it. */
export const TASKS_PROTOCOL_VERSION = '2025-11-25';

/** Whether a session speaking `version` sees a tool (a session that negotiated nothing speaks 2025-06-18's default). */
const sees = (served: ServedTool, version: string | undefined): boolean => served.since === undefined || (version ?? PROTOCOL_VERSION) >= served.since;

/** A tool as a session speaking `version` lists it: `execution` only at 2025-11-25 (the modern era has no such member). */
function listedAs(served: ServedTool, version: string | undefined): Tool {
  return version === TASKS_PROTOCOL_VERSION && served.task ? { ...served.tool, execution: { taskSupport: served.task.support } } : served.tool;
}

/** What `initialize` answers: 2025-11-25 (with tasks, if a tool runs as one) when offered, else 2025-06-18 as always. */
function initializeAnswer(server: ToolServer, offered: string, session: ServeSession | undefined): MethodAnswer {
  const version = offered === TASKS_PROTOCOL_VERSION ? TASKS_PROTOCOL_VERSION : PROTOCOL_VERSION;
  if (session) session.version = version;
  // No tasks/list: serve cannot tell requestors apart, so it lists nobody's tasks.
  const tasks = version === TASKS_PROTOCOL_VERSION && server.tools.some((served) => served.task) ? { tasks: { cancel: {}, requests: { tools: { call: {} } } } } : {};
  return { result: { protocolVersion: version, capabilities: { tools: {}, ...tasks }, serverInfo: server.info } satisfies InitializeResult };
}

/**
 * A server's methods (tools only; MCP 2025-06-18 after `initialize` — or
 * 2025-11-25 when offered, with its tasks — and 2026-07-28 per request, see
 * modern-era.ts, unless `eras` is `legacy`: Streamable HTTP has no modern
 * era); exported for the serve fuzzer. Tasks are kept in `tasks`.
 */
export function toolServerMethods(server: ToolServer, eras: 'both' | 'legacy' = 'both', tasks: ServeTasks = new ServeTasks()): Methods {
  const listTools: MethodHandler = (params, session) => {
    if (params['cursor'] !== undefined && typeof params['cursor'] !== 'string') return invalidParams('cursor must be a string');
    return { result: { tools: server.tools.filter((served) => sees(served, session?.version)).map((served) => listedAs(served, session?.version)) } };
  };
  const callTool: MethodHandler = (params, session) => {
    const name = params['name'];
    if (typeof name !== 'string') return invalidParams('tools/call needs params.name (a string)');
    const args = params['arguments'];
    if (args !== undefined && !isObject(args)) return invalidParams('params.arguments must be an object');
    const served = server.tools.find((s) => s.tool.name === name && sees(s, session?.version));
    if (!served) return invalidParams(`Unknown tool: ${shown(name)}`);
    // `task` means something only in a 2025-11-25 session; before it, it is an unknown member, ignored.
    if (session?.version !== TASKS_PROTOCOL_VERSION || params['task'] === undefined) return served.call(args);
    const task = params['task'];
    if (!isObject(task)) return invalidParams('params.task must be an object');
    if (!served.task) return invalidParams(`${shown(name)} does not run as a task (taskSupport forbidden)`);
    const run = () => {
      const answered = served.call(args);
      return 'serialized' in answered ? answered.serialized.result : answered.result;
    };
    return tasks.start(task['ttl'], served.task.workMs(args), run);
  };
  const inTasks = (handler: MethodHandler): MethodHandler => (params, session) =>
    session?.version === TASKS_PROTOCOL_VERSION ? handler(params, session) : { error: { code: RPC_ERROR.methodNotFound, message: 'Method not found: tasks are served in a 2025-11-25 session only' } };
  const legacy: Record<string, MethodHandler> = {
    // 2025-06-18, or 2025-11-25 when offered: these handlers implement those revisions' tool semantics and nothing else.
    initialize: (params, session) => {
      const info = params['clientInfo'];
      if (typeof params['protocolVersion'] !== 'string' || !isObject(params['capabilities']) || !isObject(info)) {
        return invalidParams('initialize needs protocolVersion (string), capabilities (object) and clientInfo (object)');
      }
      if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return invalidParams('clientInfo needs name and version (strings)');
      return initializeAnswer(server, params['protocolVersion'], session);
    },
    ping: () => ({ result: {} }),
    'tools/list': listTools,
    'tools/call': callTool,
    'tasks/get': inTasks((params) => tasks.get(params)),
    'tasks/result': inTasks((params) => tasks.result(params)),
    'tasks/cancel': inTasks((params) => tasks.cancel(params)),
  };
  const modern: Record<string, MethodHandler> = {
    // No `initialize` and no `ping` in 2026-07-28: discover is how a client learns who answers.
    'server/discover': () => ({ result: { supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: { tools: {} } } }),
    'tools/list': listTools,
    'tools/call': callTool,
  };
  return {
    requests: eras === 'legacy' ? legacy : dualEra(legacy, modern, server.info),
    // Plain calls answer synchronously, so a cancellation always arrives too late to act on; a task is stopped by tasks/cancel.
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
  const tasks = new ServeTasks();
  const methods = toolServerMethods(server, 'both', tasks);
  // One stdio process is one session: what its initialize negotiated holds for every later line.
  const session: ServeSession = {};
  io.stderr.write(`caplab serve: ${server.info.name} ${server.info.version} ready (MCP ${PROTOCOL_VERSION}, stdio; pid ${process.pid}; inherited fds ${inheritedFds()})\n`);
  try {
    return await serveStdio(io, (line) => answerLine(line, methods, session), {
      maxLineBytes: LIMITS.mcpLineBytes,
      pendingOutputBytes: SERVE_PENDING_OUTPUT_BYTES,
    });
  } finally {
    tasks.close();
  }
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
