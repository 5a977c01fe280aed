/**
 * The tasks `caplab serve` keeps (MCP 2025-11-25, experimental): a
 * `tools/call` with `params.task` starts one (a UUID id, status `working`),
 * its work ends after the tool's delay with the call's result (`completed`,
 * or `failed` for an `isError` result), `tasks/get` states it, `tasks/result`
 * answers the result with the related-task `_meta` — deferred until the task
 * ends — and `tasks/cancel` stops a task not yet ended. At most `serveTasks`
 * are kept; each is dropped at its ttl (reclaimed before a new one is
 * refused). Requestors are not told apart (no `tasks/list`): a task id is the
 * only handle, so it is 122 random bits.
 */
import { LIMITS } from '../../contract/index.ts';
import { isTerminal, RELATED_TASK_KEY, type TaskState, type TaskStatus } from '../tasks/index.ts';
import { RPC_ERROR, shown, type MethodAnswer } from './serve-rpc.ts';

/** The poll interval serve suggests (the client's floor may be higher). */
export const SERVE_POLL_INTERVAL_MS = 100;
/** The ttl given when the request names none, and the most any task is kept. */
const DEFAULT_TTL_MS = 60_000;
const MAX_TTL_MS = 60 * 60 * 1000;

interface Entry {
  task: TaskState;
  result?: Record<string, unknown>;
  timer?: ReturnType<typeof setTimeout>;
  readonly waiters: ((answer: MethodAnswer) => void)[];
  readonly expiresAt: number;
}

const invalid = (message: string): MethodAnswer => ({ error: { code: RPC_ERROR.invalidParams, message: `Invalid params: ${message}` } });

export class ServeTasks {
  readonly #tasks = new Map<string, Entry>();
  readonly #now: () => number;
  readonly #max: number;

  constructor(now: () => number = Date.now, max: number = LIMITS.serveTasks) {
    this.#now = now;
    this.#max = max;
  }

  /** Starts a task whose work is `work`, done after `delayMs`; its CreateTaskResult, or -32603 when `serveTasks` are kept. */
  start(ttl: unknown, delayMs: number, work: () => Record<string, unknown>): MethodAnswer {
    this.#reclaim();
    if (this.#tasks.size >= this.#max) return { error: { code: RPC_ERROR.internal, message: `Internal error: ${this.#max} tasks are kept (serveTasks); try again after one expires` } };
    const kept = typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? Math.min(Math.floor(ttl), MAX_TTL_MS) : DEFAULT_TTL_MS;
    const now = this.#now();
    const at = new Date(now).toISOString();
    const task: TaskState = { taskId: crypto.randomUUID(), status: 'working', ttl: kept, createdAt: at, lastUpdatedAt: at, pollInterval: SERVE_POLL_INTERVAL_MS };
    const entry: Entry = { task, waiters: [], expiresAt: now + kept };
    entry.timer = setTimeout(() => {
      const result = work();
      this.#end(entry, result['isError'] === true ? 'failed' : 'completed', result);
    }, delayMs);
    this.#tasks.set(task.taskId, entry);
    return { result: { task } };
  }

  /** `tasks/get`: the task as it stands. */
  get(params: Readonly<Record<string, unknown>>): MethodAnswer {
    const entry = this.#find(params);
    return 'error' in entry ? entry : { result: { ...entry.task } };
  }

  /** `tasks/result`: the call's result once the task ended (deferred until then); a cancelled task has none. */
  result(params: Readonly<Record<string, unknown>>): MethodAnswer {
    const entry = this.#find(params);
    if ('error' in entry) return entry;
    if (isTerminal(entry.task.status)) return this.#answer(entry);
    return { deferred: new Promise<MethodAnswer>((resolve) => entry.waiters.push(resolve)) };
  }

  /** `tasks/cancel`: a task not yet ended is cancelled (its work stopped); an ended one is -32602, as the revision says. */
  cancel(params: Readonly<Record<string, unknown>>): MethodAnswer {
    const entry = this.#find(params);
    if ('error' in entry) return entry;
    if (isTerminal(entry.task.status)) return invalid(`task ${shown(entry.task.taskId)} already ended (${entry.task.status}); it cannot be cancelled`);
    this.#end(entry, 'cancelled');
    return { result: { ...entry.task } };
  }

  /** Stops every task's work (the server is stopping); answers still deferred are dropped with their session. */
  close(): void {
    for (const entry of this.#tasks.values()) clearTimeout(entry.timer);
    this.#tasks.clear();
  }

  #answer(entry: Entry): MethodAnswer {
    if (!entry.result) return invalid(`task ${shown(entry.task.taskId)} was cancelled: it has no result`);
    const meta = typeof entry.result['_meta'] === 'object' && entry.result['_meta'] !== null ? entry.result['_meta'] : {};
    return { result: { ...entry.result, _meta: { ...meta, [RELATED_TASK_KEY]: { taskId: entry.task.taskId } } } };
  }

  #end(entry: Entry, status: TaskStatus, result?: Record<string, unknown>): void {
    clearTimeout(entry.timer);
    entry.task = { ...entry.task, status, lastUpdatedAt: new Date(this.#now()).toISOString() };
    if (result) entry.result = result;
    for (const waiter of entry.waiters.splice(0)) waiter(this.#answer(entry));
  }

  #find(params: Readonly<Record<string, unknown>>): Entry | { readonly error: { readonly code: number; readonly message: string } } {
    this.#reclaim();
    const taskId = params['taskId'];
    if (typeof taskId !== 'string') return invalid('taskId must be a string') as { error: { code: number; message: string } };
    const entry = this.#tasks.get(taskId);
    return entry ?? (invalid(`no task ${shown(taskId)} (never made here, or expired)`) as { error: { code: number; message: string } });
  }

  /** Drops tasks past their ttl (their work stopped, their waiters answered with what there is). */
  #reclaim(): void {
    const now = this.#now();
    for (const [id, entry] of this.#tasks) {
      if (entry.expiresAt > now) continue;
      clearTimeout(entry.timer);
      this.#tasks.delete(id);
      for (const waiter of entry.waiters.splice(0)) waiter(invalid(`task ${shown(id)} expired (its ttl passed)`));
    }
  }
}
