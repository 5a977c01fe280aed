/**
 * MCP 2025-11-25 tasks (experimental), as both sides read them: the `Task`
 * object (`CreateTaskResult.task`, a `tasks/get` or `tasks/cancel` result),
 * its statuses and which of them are terminal, and the related-task `_meta`
 * key a `tasks/result` answer carries. Shapes from the SDK 1.x
 * (`TaskSchema`, `CreateTaskResultSchema`, `RELATED_TASK_META_KEY`).
 */
import { LIMITS, ok, refusal, type Failure, type Outcome } from '../../contract/index.ts';

/** Every status a task may have; the last three are terminal (no transition out of them: spec MUST). */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a status is terminal: completed, failed or cancelled. */
export const isTerminal = (status: string): boolean => TERMINAL.has(status);

/** The `_meta` key naming the task a message belongs to (`tasks/result` answers MUST carry it). */
export const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';

/** A task as a server states it; `lastUpdatedAt` is its version. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly ttl: number | null;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly pollInterval?: number;
  readonly statusMessage?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const encoder = new TextEncoder();
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** Why a task id cannot be used, if it cannot: not a string, empty, or over `taskIdBytes`. */
export function taskIdProblem(taskId: unknown): string | undefined {
  if (typeof taskId !== 'string') return `taskId is not a string: ${shown(taskId)}`;
  if (taskId.length === 0) return 'taskId is empty';
  const bytes = encoder.encode(taskId).byteLength;
  if (bytes > LIMITS.taskIdBytes) return `taskId is ${bytes} bytes, over ${LIMITS.taskIdBytes} (taskIdBytes)`;
  return undefined;
}

/**
 * A server's task object, checked: a usable taskId (`protocol/task_id`), a
 * known status (`protocol/task_status`), and the members the revision
 * requires (`protocol/task_malformed`). `where` names the message it came in.
 */
export function readTask(value: unknown, where: string): Outcome<TaskState> {
  if (!isObject(value)) return refusal('protocol', 'task_malformed', 'spec MUST', `${where} has no task object`, [`task ${shown(value ?? 'absent')}`]);
  const idProblem = taskIdProblem(value['taskId']);
  if (idProblem) return refusal('protocol', 'task_id', 'spec MUST', `${where}: ${idProblem}`, [shown(value['taskId'])]);
  const status = value['status'];
  if (typeof status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(status)) {
    return refusal('protocol', 'task_status', 'spec MUST', `${where}: status ${shown(status)} is not one of ${TASK_STATUSES.join(', ')}`, [`status ${shown(status)}`]);
  }
  const problems: string[] = [];
  const ttl = value['ttl'];
  if (ttl !== null && !(typeof ttl === 'number' && Number.isFinite(ttl))) problems.push(`ttl ${shown(ttl ?? 'absent')} (a number or null)`);
  for (const key of ['createdAt', 'lastUpdatedAt'] as const) if (typeof value[key] !== 'string') problems.push(`${key} ${shown(value[key] ?? 'absent')} (a string)`);
  const poll = value['pollInterval'];
  if (poll !== undefined && !(typeof poll === 'number' && Number.isFinite(poll))) problems.push(`pollInterval ${shown(poll)} (a number)`);
  const message = value['statusMessage'];
  if (message !== undefined && typeof message !== 'string') problems.push(`statusMessage ${shown(message)} (a string)`);
  if (problems.length > 0) return refusal('protocol', 'task_malformed', 'spec MUST', `${where}: the task is not an MCP Task`, problems);
  return ok({
    taskId: value['taskId'] as string,
    status: status as TaskStatus,
    ttl: ttl as number | null,
    createdAt: value['createdAt'] as string,
    lastUpdatedAt: value['lastUpdatedAt'] as string,
    ...(poll !== undefined ? { pollInterval: poll as number } : {}),
    ...(message !== undefined ? { statusMessage: message as string } : {}),
  });
}

/** Whether a result's `_meta` names the task it belongs to (the related-task key with this taskId). */
export function relatesTo(result: Readonly<Record<string, unknown>>, taskId: string): boolean {
  const meta = result['_meta'];
  if (!isObject(meta)) return false;
  const related = meta[RELATED_TASK_KEY];
  return isObject(related) && related['taskId'] === taskId;
}

/** A transition the revision forbids: out of a terminal status (to another status). */
export function transitionProblem(from: TaskStatus, to: TaskStatus, taskId: string): Failure | undefined {
  if (!isTerminal(from) || from === to) return undefined;
  return refusal('protocol', 'task_transition', 'spec MUST', `task ${shown(taskId)} went from ${from} (terminal) to ${to}; a terminal status MUST NOT change`, [`${from} → ${to}`]);
}
