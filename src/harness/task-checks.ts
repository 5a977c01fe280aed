import { codePointLength, isUnknownOutcome, LIMITS } from '../contract/index.ts';
import type { Event, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { isTerminal, TASK_STATUSES, taskIdProblem } from '../mcp/index.ts';
import { eventAt } from './record-checks.ts';

type Call = Event<'call'>;
type Trace = NonNullable<Extract<Call, { task?: unknown }>['task']>;

const KNOWN: ReadonlySet<string> = new Set(TASK_STATUSES);
/** The kinds an outcome with a cancel may have: the engine's deadline or interruption, or the handler's deadline that overtook it. */
const CANCELLED_UNDER: ReadonlySet<string> = new Set(['task_deadline', 'aborted', 'handler_timeout']);
/** `excerpt`'s cut: the first `evidenceChars` code points, then how many there were. */
const CUT = /^([\s\S]*)… \((\d+) chars\)$/;
const named = (call: Call): string => (call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}`);

/**
 * A call's task (record format 12) must tell one story with its binding and
 * its outcome, as the host's task engine makes them: a task only on a call
 * of a binding that completes in the background, over MCP, and on every
 * such call that reached its server (but one whose outcome is unknown
 * before the task ended); a receipt naming a usable handle (`taskIdBytes`),
 * taken no later than its first transition, whose status it is; every
 * server string cut as the writer cuts it (`evidenceChars`); every status
 * one the revision has, each transition a change, in time order, never out
 * of a terminal status (but the last, under `protocol/task_transition`,
 * which needs one), the first `working` (but under
 * `protocol/task_first_status`: then the receipt alone, unpolled); an `ok`
 * outcome only after `completed`, a poll per status after the first and the
 * closing one, a `tasks/result` exchange of its own id and no cancel, its
 * bytes the protocol's; a `tasks/result` only after `completed` or
 * `failed`; a cancel only after the last status, while it was not terminal,
 * under the deadline or an interruption, and those with their cancel; a
 * server's `cancelled` an unknown outcome too.
 */
export function checkTasks(events: readonly Event[]): VerifyFailure | undefined {
  const start = events.find((e) => e.type === 'run_start');
  if (!start) return undefined;
  const background = new Set(start.bindings.filter((b) => 'completion' in b.contract && b.contract.completion !== undefined).map((b) => b.id));
  for (const event of events) {
    if (event.type !== 'call') continue;
    const wrong = taskProblem(event, background);
    if (wrong) return failAt('task_inconsistent', wrong, eventAt(event));
  }
  return undefined;
}

function taskProblem(call: Call, background: ReadonlySet<string>): string | undefined {
  const id = call.tool_call_id;
  const task = 'task' in call ? call.task : undefined;
  const inBackground = call.binding_id !== null && background.has(call.binding_id);
  if (task === undefined) {
    // A call the host stopped waiting for before its task ended (the handler's deadline) has an exchange but no trace yet: unknown, never ok.
    const unknown = !call.outcome.ok && isUnknownOutcome(call.outcome);
    return inBackground && call.via === 'mcp' && !unknown ? `call ${id} reached the server of a binding that completes in the background, but records no task` : undefined;
  }
  if (!inBackground) return `call ${id} records a task, but its binding completes synchronously`;
  if (call.via !== 'mcp') return `call ${id} records a task, but did not run over MCP`;
  return receiptProblem(call, task) ?? cutProblem(id, task) ?? transitionsProblem(call, task) ?? endProblem(call, task);
}

/** A receipt names a usable handle, no later than its first transition, whose status it is; without one there is neither. */
function receiptProblem(call: Call, task: Trace): string | undefined {
  const id = call.tool_call_id;
  if (task.receipt === null) return task.taskId !== null || task.transitions.length > 0 || task.polls > 0 || task.cancel !== null ? `call ${id}'s task has no receipt, but a taskId, a status, a poll or a cancel` : undefined;
  if (task.taskId === null) return `call ${id}'s task has a receipt but no taskId`;
  const unusable = taskIdProblem(task.taskId);
  if (unusable) return `call ${id}'s task is named by a handle the host refuses: ${unusable}`;
  const first = task.transitions[0];
  if (first?.status !== task.receipt.status) return `call ${id}'s task receipt says ${task.receipt.status}, but its first transition is ${first?.status ?? 'missing'}`;
  if (task.receipt.ms > first.ms) return `call ${id}'s task receipt came at ${task.receipt.ms} ms, after its first transition at ${first.ms} ms`;
  if (task.result !== null && task.result.jsonrpcId === call.jsonrpc_id) return `call ${id}'s tasks/result has the tools/call's own JSON-RPC id ${JSON.stringify(call.jsonrpc_id)}`;
  return undefined;
}

/** Every string the server stated, as the writer keeps it: at most `evidenceChars` code points, or `excerpt`'s cut of a longer one. */
function cutProblem(id: string, task: Trace): string | undefined {
  const cancel = task.cancel?.answer;
  const stated = [
    task.receipt?.createdAt,
    ...task.transitions.flatMap((t) => [t.lastUpdatedAt, t.statusMessage]),
    cancel && 'status' in cancel ? cancel.status : undefined,
    cancel && 'error' in cancel ? cancel.error.message : undefined,
  ];
  const long = stated.find((text) => text !== undefined && !isCut(text));
  return long === undefined ? undefined : `call ${id}'s task keeps a server string of ${codePointLength(long)} code points, uncut (evidenceChars ${LIMITS.evidenceChars})`;
}

function isCut(text: string): boolean {
  if (codePointLength(text) <= LIMITS.evidenceChars) return true;
  const cut = CUT.exec(text);
  return cut !== null && codePointLength(cut[1]!) === LIMITS.evidenceChars && Number(cut[2]) > LIMITS.evidenceChars;
}

/** Known statuses, each a change, in time order, none out of a terminal one (but the failure that said so), the first working (likewise). */
function transitionsProblem(call: Call, task: Trace): string | undefined {
  const id = call.tool_call_id;
  const { transitions } = task;
  const kind = call.outcome.ok ? undefined : call.outcome.kind;
  for (const [i, t] of transitions.entries()) {
    if (!KNOWN.has(t.status)) return `call ${id}'s task records status ${JSON.stringify(t.status)}, which MCP tasks do not have`;
    const before = transitions[i - 1];
    if (!before) continue;
    if (before.status === t.status) return `call ${id}'s task records ${t.status} twice in a row (a transition is a change)`;
    if (t.ms < before.ms) return `call ${id}'s task records ${t.status} at ${t.ms} ms, before ${before.status} at ${before.ms} ms`;
    const last = i === transitions.length - 1;
    if (isTerminal(before.status) && !(last && kind === 'task_transition')) return `call ${id}'s task goes from ${before.status} (terminal) to ${t.status}, and its outcome does not say so`;
  }
  const first = transitions[0];
  if (first && first.status !== 'working' && kind !== 'task_first_status') return `call ${id}'s task begins ${first.status}, and its outcome does not say so (a task begins working)`;
  if (kind === 'task_first_status' && (first === undefined || first.status === 'working' || transitions.length > 1 || task.polls > 0)) {
    return `call ${id} says its task began other than working, but its task records ${transitions.map((t) => t.status).join(', ') || 'no status'} after ${task.polls} polls (the receipt alone)`;
  }
  const [from, to] = transitions.slice(-2);
  if (kind === 'task_transition' && !(from && to && isTerminal(from.status) && from.status !== to.status)) return `call ${id} says its task left a terminal status, but its last transitions show none`;
  if (transitions.length > task.polls + 1) return `call ${id}'s task records ${transitions.length} statuses from ${task.polls} polls`;
  return undefined;
}

/** The outcome agrees with how the task ended: ok only after completed and its result, a cancel only when the outcome is unknown. */
function endProblem(call: Call, task: Trace): string | undefined {
  const id = call.tool_call_id;
  const statuses = task.transitions.map((t) => t.status);
  const last = statuses.at(-1);
  const { outcome } = call;
  if (outcome.ok) {
    if (last !== 'completed') return `call ${id} is ok, but its task's last status is ${last ?? 'none'}, not completed`;
    if (task.result === null) return `call ${id} is ok, but its task records no tasks/result exchange`;
    if (task.cancel !== null) return `call ${id} is ok, but its task records a cancel`;
    if (task.polls < task.transitions.length) return `call ${id} is ok after ${task.polls} polls, but ${task.transitions.length} statuses and the closing get need ${task.transitions.length}`;
    if (call.protocol && call.protocol.responseBytes !== task.result.responseBytes) return `call ${id}'s protocol says ${call.protocol.responseBytes} response bytes, its tasks/result ${task.result.responseBytes}`;
    return undefined;
  }
  if (task.result !== null && !statuses.some((s) => s === 'completed' || s === 'failed')) return `call ${id}'s task records a tasks/result, but never completed nor failed`;
  if (task.cancel !== null) {
    if (outcome.class !== 'timeout' || !CANCELLED_UNDER.has(outcome.kind)) return `call ${id}'s task records a cancel, but its outcome ${named(call)} is not an unknown one after a deadline or an interruption`;
    if (last !== undefined && isTerminal(last)) return `call ${id}'s task records a cancel after its task ended ${last}`;
    const after = task.transitions.at(-1);
    if (after && task.cancel.ms < after.ms) return `call ${id}'s task records its cancel at ${task.cancel.ms} ms, before its last status (${after.status} at ${after.ms} ms)`;
  }
  const stillOpen = task.receipt !== null && last !== undefined && !isTerminal(last);
  if ((outcome.kind === 'task_deadline' || (outcome.kind === 'aborted' && stillOpen)) && task.cancel === null) return `call ${id}'s task was given up on (${named(call)}) while ${last ?? 'unreceived'}, but records no cancel`;
  if (outcome.kind === 'task_cancelled' && last !== 'cancelled') return `call ${id}'s task was cancelled by its server, but its last status is ${last ?? 'none'}`;
  return undefined;
}
