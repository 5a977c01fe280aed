/**
 * `caplab probe --task-status ID`: after the opening, one `tasks/get` for a
 * task id the user names (and, if it is `completed`, one `tasks/result`),
 * instead of the listing and calls. A new stdio process knows no earlier
 * task (it is a new server); an HTTP server may, across sessions.
 */
import { isTerminal, readTask, relatesTo, type TaskSession } from '../tasks/index.ts';
import { clipChars } from '../../base/index.ts';
import { LIMITS, type Redactor } from '../../contract/index.ts';
import { excerpt, finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import { reportFinding } from './probe-report.ts';

/** What the server said of the task: its status (terminal or not), or why it does not know it. */
export interface TaskStatusReport {
  readonly taskId: string;
  readonly status?: string;
  readonly terminal?: boolean;
  /** The task's version (the server's `lastUpdatedAt`). */
  readonly lastUpdatedAt?: string;
  readonly statusMessage?: string;
  /** The server's refusal of tasks/get (the task is unknown to it, or expired). */
  readonly unknownToServer?: { readonly code: number; readonly message: string };
  /** For a completed task: the first text block of its result, and whether it was an error. */
  readonly result?: { readonly text?: string; readonly isError: boolean };
  readonly findings: readonly ProbeFinding[];
}

const firstText = (result: Readonly<Record<string, unknown>>): string | undefined => {
  const content = Array.isArray(result['content']) ? (result['content'] as unknown[]) : [];
  const block = content.find((b) => b !== null && typeof b === 'object' && (b as Record<string, unknown>)['type'] === 'text') as { text?: unknown } | undefined;
  return typeof block?.text === 'string' ? block.text : undefined;
};

/** One tasks/get (+ tasks/result when completed), each within `timeoutMs`; never more. */
export async function queryTaskStatus(session: TaskSession, taskId: string, timeoutMs: number): Promise<TaskStatusReport> {
  const got = await session.request('tasks/get', { taskId }, { timeoutMs }).reply;
  if (!got.ok) return { taskId, findings: [fromFailure(got)] };
  if ('error' in got.value.answer) return { taskId, unknownToServer: { code: got.value.answer.error.code, message: got.value.answer.error.message }, findings: [] };
  const task = readTask(got.value.answer.result, 'the tasks/get result');
  if (!task.ok) return { taskId, findings: [fromFailure(task)] };
  const { status, lastUpdatedAt, statusMessage } = task.value;
  const stated = { taskId, status, terminal: isTerminal(status), lastUpdatedAt, ...(statusMessage !== undefined ? { statusMessage } : {}) };
  if (task.value.taskId !== taskId) return { ...stated, findings: [finding('protocol', 'task_id', 'spec MUST', 'tasks/get answered another task', { evidence: excerpt(task.value.taskId) })] };
  if (status !== 'completed') return { ...stated, findings: [] };
  const fetched = await session.request('tasks/result', { taskId }, { timeoutMs }).reply;
  if (!fetched.ok) return { ...stated, findings: [fromFailure(fetched)] };
  if ('error' in fetched.value.answer) return { ...stated, findings: [finding('protocol', 'jsonrpc_error', 'caplab host rule', `tasks/result refused with JSON-RPC error ${fetched.value.answer.error.code}`, { evidence: excerpt(fetched.value.answer.error.message) })] };
  const { result } = fetched.value.answer;
  const text = firstText(result);
  const related = relatesTo(result, taskId) ? [] : [finding('protocol', 'task_related_meta', 'spec MUST', 'the tasks/result answer does not name its task (_meta io.modelcontextprotocol/related-task)', { evidence: `taskId ${excerpt(taskId)}` })];
  return { ...stated, result: { ...(text !== undefined ? { text } : {}), isError: result['isError'] === true }, findings: related };
}

/** The report as it leaves probe: each server string redacted and cut (`reportValueBytes` of text, `evidenceChars` of the rest). */
export function boundTaskStatus(report: TaskStatusReport, redactor: Redactor): TaskStatusReport {
  const short = (value: string): string => clipChars(redactor.redact(value), LIMITS.evidenceChars);
  return {
    taskId: short(report.taskId),
    ...(report.status !== undefined ? { status: short(report.status), terminal: report.terminal === true } : {}),
    ...(report.lastUpdatedAt !== undefined ? { lastUpdatedAt: short(report.lastUpdatedAt) } : {}),
    ...(report.statusMessage !== undefined ? { statusMessage: short(report.statusMessage) } : {}),
    ...(report.unknownToServer ? { unknownToServer: { code: report.unknownToServer.code, message: short(report.unknownToServer.message) } } : {}),
    ...(report.result ? { result: { ...(report.result.text !== undefined ? { text: clipChars(redactor.redact(report.result.text), LIMITS.reportValueBytes) } : {}), isError: report.result.isError } } : {}),
    findings: report.findings.map((f) => reportFinding(f, redactor)),
  };
}
