/**
 * The client's task engine (MCP 2025-11-25): one `tools/call` sent as a task
 * (`params.task {ttl}`), its `CreateTaskResult` taken as the receipt, then
 * `tasks/get` at the server's `pollInterval` (never faster than
 * `taskPollFloorMs`) until a terminal status or the deadline, then
 * `tasks/result` on `completed`/`failed`. `input_required` is waited out
 * like `working` (caplab declares no elicitation); status notifications are
 * never relied on — only what `tasks/get` answers counts.
 *
 * At the deadline or on the signal: one `tasks/cancel`, its answer recorded,
 * the outcome unknown (`timeout/task_deadline`, or `timeout/aborted`) with
 * the taskId. The `tools/call` is never sent again, whatever happens.
 */
import { fail, LIMITS, refusal, type Failure, type Outcome } from '../../contract/index.ts';
import type { ErrorObject, Reply } from '../wire/index.ts';
import { readTask, relatesTo, transitionProblem, type TaskState, type TaskStatus } from './task-shape.ts';

/** What the engine sends on: a Correlator (or anything that requests like one). */
export interface TaskSession {
  request(method: string, params: Record<string, unknown>, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): { readonly reply: Promise<Outcome<Reply>> };
}

/** The ttl asked for beyond the deadline, so the task stays queryable after caplab gave up on it (`probe --task-status`). */
export const TASK_TTL_MARGIN_MS = 10 * 60 * 1000;

export interface TaskOptions {
  /** Milliseconds from sending `tools/call` to the result; past it, one cancel and the outcome unknown. */
  readonly deadlineMs: number;
  /** Aborted (SIGINT/SIGTERM): one cancel, the outcome unknown (interrupted). */
  readonly signal?: AbortSignal;
  /** Milliseconds, monotonic (default `performance.now`). */
  readonly now?: () => number;
  /** The wall clock for transition times (default ISO now). */
  readonly clock?: () => string;
  /** The floor between two polls (default `LIMITS.taskPollFloorMs`; a mutation turns it off). */
  readonly pollFloorMs?: number;
}

/** The receipt: the handle the server gave (it names work, it grants nothing), and when it was accepted. */
export interface TaskReceipt {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly createdAt: string;
  readonly ttl: number | null;
  readonly pollInterval?: number;
  /** Our clock when the receipt arrived, and its ms after the tools/call was sent. */
  readonly acceptedAt: string;
  readonly ms: number;
}

/** One status as first seen: the server's status and version, our time. */
export interface TaskTransition {
  readonly status: TaskStatus;
  readonly lastUpdatedAt: string;
  readonly statusMessage?: string;
  readonly at: string;
  readonly ms: number;
}

/** The one cancel sent: when, and what came back (the task as the server then stated it, an error, or nothing). */
export interface TaskCancel {
  readonly at: string;
  readonly ms: number;
  readonly answer: { readonly status: string } | { readonly error: { readonly code: number; readonly message: string } } | { readonly failure: string };
}

/** How the task ended for caplab. Only `answered` knows what the tool did; `unknown` carries why it does not. */
export type TaskEnd =
  | { readonly kind: 'answered'; readonly answer: { readonly result: Record<string, unknown> } | { readonly error: ErrorObject } }
  | { readonly kind: 'refused'; readonly error: ErrorObject }
  | { readonly kind: 'unknown'; readonly failure: Failure };

export interface TaskRun {
  /** Absent when no CreateTaskResult came (refused, unanswered, malformed). */
  readonly receipt?: TaskReceipt;
  /** Each status as it was first seen, the receipt's first. */
  readonly transitions: readonly TaskTransition[];
  /** `tasks/get` requests sent. */
  readonly polls: number;
  readonly cancel?: TaskCancel;
  /** Whether `tasks/result` was sent (and answered: `end.kind === 'answered'`). */
  readonly resultAsked: boolean;
  readonly end: TaskEnd;
  /** Problems that did not end the task (a poll interval below the floor, no related-task `_meta`). */
  readonly findings: readonly Failure[];
}

/** A wait that ends early on the signal. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The mutable state of one task as the engine follows it. */
class Follow {
  readonly transitions: TaskTransition[] = [];
  readonly findings: Failure[] = [];
  polls = 0;
  receipt: TaskReceipt | undefined;
  cancel: TaskCancel | undefined;
  resultAsked = false;
  last: TaskState | undefined;
  readonly #started: number;

  constructor(
    readonly session: TaskSession,
    readonly options: Required<Pick<TaskOptions, 'now' | 'clock' | 'pollFloorMs' | 'deadlineMs'>> & Pick<TaskOptions, 'signal'>,
  ) {
    this.#started = options.now();
  }

  elapsed(): number {
    return Math.round(this.options.now() - this.#started);
  }

  left(): number {
    return this.options.deadlineMs - (this.options.now() - this.#started);
  }

  /** Notes a status: a transition when it differs from the last one seen. */
  see(task: TaskState): void {
    this.last = task;
    if (this.transitions.at(-1)?.status === task.status) return;
    this.transitions.push({ status: task.status, lastUpdatedAt: task.lastUpdatedAt, ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}), at: this.options.clock(), ms: this.elapsed() });
  }

  done(end: TaskEnd): TaskRun {
    return { ...(this.receipt ? { receipt: this.receipt } : {}), transitions: this.transitions, polls: this.polls, ...(this.cancel ? { cancel: this.cancel } : {}), resultAsked: this.resultAsked, end, findings: this.findings };
  }
}

/** Sends the one `tasks/cancel` and records its answer; the outcome stays unknown whatever it says. */
async function cancelOnce(follow: Follow, taskId: string): Promise<void> {
  const at = follow.options.clock();
  const ms = follow.elapsed();
  const reply = await follow.session.request('tasks/cancel', { taskId }, { timeoutMs: LIMITS.taskCancelMs }).reply;
  let answer: TaskCancel['answer'];
  if (!reply.ok) answer = { failure: `${reply.class}/${reply.kind}` };
  else if ('error' in reply.value.answer) answer = { error: { code: reply.value.answer.error.code, message: reply.value.answer.error.message } };
  else answer = { status: String(reply.value.answer.result['status']) };
  follow.cancel = { at, ms, answer };
}

/** The deadline passed or the signal came: one cancel, the outcome unknown with the taskId. */
async function giveUp(follow: Follow, taskId: string): Promise<TaskRun> {
  const interrupted = follow.options.signal?.aborted === true;
  await cancelOnce(follow, taskId);
  const status = follow.last?.status ?? 'working';
  const failure = interrupted
    ? fail('timeout', 'aborted', `interrupted while task ${JSON.stringify(taskId)} was ${status}; cancel sent, outcome unknown`, [`taskId ${taskId}`])
    : fail('timeout', 'task_deadline', `task ${JSON.stringify(taskId)} was still ${status} at the deadline (${follow.options.deadlineMs} ms); cancel sent, outcome unknown`, [`taskId ${taskId}`]);
  return follow.done({ kind: 'unknown', failure });
}

/** A failure that ends the task, its outcome unknown (the taskId named when there is one). */
const unknown = (follow: Follow, failure: Failure): TaskRun => follow.done({ kind: 'unknown', failure });

/**
 * Runs one tools/call as a task to its end (see the module's doc). Never
 * throws for anything the server does; every way it ends is a `TaskEnd`.
 */
export async function runTask(session: TaskSession, call: { readonly name: string; readonly arguments: Readonly<Record<string, unknown>> }, options: TaskOptions): Promise<TaskRun> {
  const follow = new Follow(session, {
    deadlineMs: options.deadlineMs,
    now: options.now ?? (() => performance.now()),
    clock: options.clock ?? (() => new Date().toISOString()),
    pollFloorMs: options.pollFloorMs ?? LIMITS.taskPollFloorMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const params = { name: call.name, arguments: call.arguments, task: { ttl: options.deadlineMs + TASK_TTL_MARGIN_MS } };
  const sent = await session.request('tools/call', params, { timeoutMs: options.deadlineMs, ...(options.signal ? { signal: options.signal } : {}) }).reply;
  if (!sent.ok) return unknown(follow, sent);
  if ('error' in sent.value.answer) return follow.done({ kind: 'refused', error: sent.value.answer.error });
  const task = readTask(sent.value.answer.result['task'], 'the tools/call result (CreateTaskResult)');
  if (!task.ok) return unknown(follow, task);
  const first = task.value;
  follow.receipt = { taskId: first.taskId, status: first.status, createdAt: first.createdAt, ttl: first.ttl, ...(first.pollInterval !== undefined ? { pollInterval: first.pollInterval } : {}), acceptedAt: options.clock?.() ?? new Date().toISOString(), ms: follow.elapsed() };
  follow.see(first);
  if (first.status !== 'working') {
    return unknown(follow, refusal('protocol', 'task_first_status', 'spec MUST', `task ${JSON.stringify(first.taskId)} was created ${first.status}; a task MUST begin working`, [`taskId ${first.taskId}`, `status ${first.status}`]));
  }
  return poll(follow, first.taskId);
}

/** The wait before the next poll: the server's interval, held to the floor (a lower one is a finding, once). */
function interval(follow: Follow): number {
  const asked = follow.last?.pollInterval;
  const floor = follow.options.pollFloorMs;
  if (asked === undefined) return floor;
  if (asked < floor && !follow.findings.some((f) => f.kind === 'task_poll_interval')) {
    follow.findings.push(refusal('protocol', 'task_poll_interval', 'caplab host rule', `the server asked to be polled every ${asked} ms; caplab polls at most every ${floor} ms (taskPollFloorMs)`, [`pollInterval ${asked}`]));
  }
  return Math.max(asked, floor);
}

/** tasks/get until terminal, the deadline, or the signal; then the result or the cancel. */
async function poll(follow: Follow, taskId: string): Promise<TaskRun> {
  const signal = follow.options.signal;
  for (;;) {
    await pause(Math.min(interval(follow), follow.left()), signal);
    // Under a millisecond left is none: a timer that fired early sends no poll that cannot be answered.
    if (signal?.aborted || follow.left() < 1) return giveUp(follow, taskId);
    follow.polls += 1;
    const got = await follow.session.request('tasks/get', { taskId }, { timeoutMs: Math.ceil(follow.left()), ...(signal ? { signal } : {}) }).reply;
    if (!got.ok) return got.class === 'timeout' ? giveUp(follow, taskId) : unknown(follow, withTaskId(got, taskId));
    if ('error' in got.value.answer) {
      const { code, message } = got.value.answer.error;
      return unknown(follow, refusal('protocol', 'task_malformed', 'spec MUST', `tasks/get for task ${JSON.stringify(taskId)} refused with ${code}; outcome unknown`, [message.slice(0, 120)]));
    }
    const task = readTask(got.value.answer.result, 'the tasks/get result');
    if (!task.ok) return unknown(follow, withTaskId(task, taskId));
    if (task.value.taskId !== taskId) return unknown(follow, refusal('protocol', 'task_id', 'spec MUST', `tasks/get for ${JSON.stringify(taskId)} answered task ${JSON.stringify(task.value.taskId)}`, [`taskId ${taskId}`]));
    const broken = transitionProblem(follow.last!.status, task.value.status, taskId);
    if (broken) return unknown(follow, broken);
    follow.see(task.value);
    const status = task.value.status;
    if (status === 'cancelled') return unknown(follow, fail('closed', 'task_cancelled', `task ${JSON.stringify(taskId)} was cancelled by the server; whether the work stopped is unknown`, [`taskId ${taskId}`]));
    if (status === 'completed' || status === 'failed') return fetchResult(follow, taskId);
    // working, input_required: wait on (no elicitation is declared, so input_required is the server's to resolve).
  }
}

/** tasks/result after completed/failed: the original request's answer, which MUST name its task. */
async function fetchResult(follow: Follow, taskId: string): Promise<TaskRun> {
  follow.resultAsked = true;
  const signal = follow.options.signal;
  // A terminal task's answer is due at once; the floor is the least it gets, even right at the deadline.
  const timeoutMs = Math.ceil(Math.max(follow.left(), follow.options.pollFloorMs));
  const got = await follow.session.request('tasks/result', { taskId }, { timeoutMs, ...(signal ? { signal } : {}) }).reply;
  if (!got.ok) return unknown(follow, withTaskId(got, taskId));
  const { answer } = got.value;
  if ('result' in answer && !relatesTo(answer.result, taskId)) {
    follow.findings.push(refusal('protocol', 'task_related_meta', 'spec MUST', `the tasks/result answer does not name its task (_meta io.modelcontextprotocol/related-task)`, [`taskId ${taskId}`]));
  }
  const kept: TaskEnd = { kind: 'answered', answer: 'result' in answer ? { result: answer.result } : { error: answer.error } };
  return confirm(follow, taskId, kept);
}

/**
 * One closing `tasks/get`: the answer is final only while its task stays in
 * the terminal status it reached. A status other than that one is a
 * transition out of a terminal status (recorded, then refused); a get that
 * fails (the task already expired, say) leaves the answer as it was.
 */
async function confirm(follow: Follow, taskId: string, kept: TaskEnd): Promise<TaskRun> {
  const timeoutMs = Math.ceil(Math.max(follow.left(), follow.options.pollFloorMs));
  follow.polls += 1;
  const got = await follow.session.request('tasks/get', { taskId }, { timeoutMs }).reply;
  if (!got.ok || 'error' in got.value.answer) return follow.done(kept);
  const task = readTask(got.value.answer.result, 'the tasks/get result');
  if (!task.ok || task.value.taskId !== taskId) return follow.done(kept);
  const broken = transitionProblem(follow.last!.status, task.value.status, taskId);
  if (!broken) return follow.done(kept);
  follow.see(task.value);
  return unknown(follow, broken);
}

/**
 * A failure naming the task's id in its message and first among its issues,
 * so an unknown outcome always names the handle — in the record and in what
 * the model is told.
 */
function withTaskId(failure: Failure, taskId: string): Failure {
  const issues = [`taskId ${taskId}`, ...(failure.issues ?? [])];
  return { ...failure, message: `task ${JSON.stringify(taskId)}: ${failure.message}`, issues };
}
