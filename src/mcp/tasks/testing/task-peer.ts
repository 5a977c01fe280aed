/**
 * A scripted 2025-11-25 task server for tests, on any message pipe (the
 * in-memory pair, or stdio in probe's misbehaving server): `tools/call` with
 * `params.task` answers a CreateTaskResult, each `tasks/get` the next status
 * of the script (the last one repeats), `tasks/result` the script's result,
 * `tasks/cancel` the task cancelled. Each misbehaviour the engine must catch
 * is one script field.
 */
export interface TaskScript {
  /** The id the server hands out (default `task-1`); any JSON value, for the hostile cases. */
  readonly taskId?: unknown;
  /** The status of the CreateTaskResult (default `working`). */
  readonly first?: string;
  /** What successive `tasks/get` answer (default working, completed); the last repeats. */
  readonly statuses?: readonly string[];
  readonly pollInterval?: number;
  /** A statusMessage on every task object (absent by default). */
  readonly statusMessage?: string;
  /** Whether `tasks/result` names its task in `_meta` (default true). */
  readonly relatedMeta?: boolean;
  /** The CallToolResult `tasks/result` answers (default one text block `done`). */
  readonly result?: Record<string, unknown>;
  /** Every tools/call refused with -32602 (as a server that reports bad arguments on the wrong channel). */
  readonly rejectCalls?: boolean;
}

export interface TaskPeerLog {
  /** Every request method received, in order. */
  readonly methods: string[];
  /** The params of each request received. */
  readonly params: Record<string, unknown>[];
}

const TIME = '2026-01-01T00:00:00.000Z';

/** The answer to one request under the script, or undefined for a notification. */
export function taskAnswer(script: TaskScript, log: TaskPeerLog, message: Record<string, unknown>): Record<string, unknown> | undefined {
  const id = message['id'];
  const method = String(message['method']);
  if (id === undefined) return undefined;
  const params = (message['params'] ?? {}) as Record<string, unknown>;
  log.methods.push(method);
  log.params.push(params);
  const taskId = script.taskId ?? 'task-1';
  const task = (status: string) => ({ taskId, status, ttl: 60_000, createdAt: TIME, lastUpdatedAt: TIME, ...(script.pollInterval !== undefined ? { pollInterval: script.pollInterval } : {}), ...(script.statusMessage !== undefined ? { statusMessage: script.statusMessage } : {}) });
  const gets = log.methods.filter((m) => m === 'tasks/get').length;
  const statuses = script.statuses ?? ['working', 'completed'];
  const answers: Record<string, () => unknown> = {
    initialize: () => ({ protocolVersion: '2025-11-25', capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } }, serverInfo: { name: 'task-peer', version: '1.0.0' } }),
    'tools/list': () => ({ tools: [{ name: 'slow', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } }, execution: { taskSupport: 'optional' } }] }),
    'tools/call': () => ({ task: task(script.first ?? 'working') }),
    'tasks/get': () => task(statuses[Math.min(gets - 1, statuses.length - 1)]!),
    'tasks/result': () => {
      const result = script.result ?? { content: [{ type: 'text', text: 'done' }] };
      return script.relatedMeta === false ? result : { ...result, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
    },
    'tasks/cancel': () => task('cancelled'),
    ping: () => ({}),
  };
  if (method === 'tools/call' && script.rejectCalls) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: n must be an integer' } };
  const answer = answers[method];
  return answer ? { jsonrpc: '2.0', id, result: answer() } : { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
}
