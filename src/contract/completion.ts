/**
 * How a tool's work completes (SPEC F-RESULT, seed §5.3). Absent on a
 * contract: synchronously — the answer to the call is the result (every
 * contract before this one, so no binding id changes). `background`: the call
 * is answered by a receipt, not the result; receipt ≠ completion. The
 * receipt's handle names the work and grants nothing; a query states the
 * work's status, whether it is final, and its version, or that the handle is
 * unknown; a cancel is a stop request only — `cancelled` does not prove the
 * work stopped. After a deadline the outcome is unknown, and the call is
 * never sent again.
 */

/** The statuses a background query may state, and which are final. */
export interface CompletionStatuses {
  readonly all: readonly string[];
  readonly final: readonly string[];
}

export interface BackgroundCompletion {
  readonly mode: 'background';
  /** `required`: the call is only ever made in the background; `optional`: it may be made plainly too. */
  readonly support: 'required' | 'optional';
  /** What the receipt carries: the handle (naming the work, granting nothing), and what it is recorded with. */
  readonly receipt: { readonly handle: string; readonly recordedWith: readonly string[] };
  /** How the work is asked about: the request, its statuses, the version a status carries, what an unknown handle is. */
  readonly query: { readonly request: string; readonly statuses: CompletionStatuses; readonly version: string; readonly unknown: string };
  /** How the result is fetched once final, and how a stop is asked for (and what it does not prove). */
  readonly result: { readonly request: string };
  readonly cancel: { readonly request: string; readonly proves: string };
}

/** A contract's completion: absent is synchronous. */
export type Completion = BackgroundCompletion;

/** MCP 2025-11-25 tasks as a background completion: the shape every MCP tool with `taskSupport` binds. */
export function mcpTaskCompletion(support: 'required' | 'optional'): BackgroundCompletion {
  return {
    mode: 'background',
    support,
    receipt: { handle: 'the taskId of the CreateTaskResult (it names the work; it grants nothing)', recordedWith: ['action', 'tool call', 'accepted at'] },
    query: {
      request: 'tasks/get',
      statuses: { all: ['working', 'input_required', 'completed', 'failed', 'cancelled'], final: ['completed', 'failed', 'cancelled'] },
      version: 'lastUpdatedAt',
      unknown: 'a tasks/get refused (the server does not know the taskId, or it expired)',
    },
    result: { request: 'tasks/result (once completed or failed)' },
    cancel: { request: 'tasks/cancel', proves: 'nothing about the work: cancelled does not prove it stopped' },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * An MCP tool's completion: background when it lists `execution.taskSupport`
 * `required` or `optional` on a server, speaking 2025-11-25, that declares
 * `tasks.requests.tools.call`; else synchronous (undefined). A `required`
 * tool on a server without the capability cannot be called at all: the
 * caller refuses it (`precondition/task_unsupported`), not this.
 */
export function mcpCompletion(taskSupport: unknown, serverCapabilities: unknown, version: string): Completion | undefined {
  if (version !== '2025-11-25' || (taskSupport !== 'required' && taskSupport !== 'optional')) return undefined;
  const tasks = isObject(serverCapabilities) ? serverCapabilities['tasks'] : undefined;
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return isObject(tools) && isObject(tools['call']) ? mcpTaskCompletion(taskSupport) : undefined;
}
