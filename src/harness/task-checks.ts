import { isUnknownOutcome } from '../contract/index.ts';
import type { Event, VerifyFailure } from '../ledger/index.ts';
import { failAt } from '../ledger/index.ts';
import { isTerminal, TASK_STATUSES } from '../mcp/index.ts';
import { eventAt } from './record-checks.ts';

type Call = Event<'call'>;
type Trace = NonNullable<Extract<Call, { task?: unknown }>['task']>;

const KNOWN: ReadonlySet<string> = new Set(TASK_STATUSES);
const named = (call: Call): string => (call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}`);

/**
 * A call's task (record format 12) must tell one story with its binding and
 * its outcome, as the host's task engine makes them: a task only on a call
 * of a binding that completes in the background, over MCP, and on every
 * such call that reached its server (but one whose outcome is unknown
 * before the task ended); a receipt naming the handle, its status the first transition;
 * every status one the revision has, each transition a change, in time
 * order, never out of a terminal status (but the one that ended the call
 * `protocol/task_transition`), the first `working` (but under
 * `protocol/task_first_status`); an `ok` outcome only after `completed`, a
 * `tasks/result` exchange and no cancel, its bytes the protocol's; a
 * `tasks/result` only after a terminal `completed` or `failed`; a cancel
 * only with an outcome unknown, and the deadline's outcome with its cancel;
 * a server's `cancelled` an unknown outcome too.
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
  return receiptProblem(id, task) ?? transitionsProblem(call, task) ?? endProblem(call, task);
}

/** A receipt names the handle, and its status is the first transition; without one there is neither. */
function receiptProblem(id: string, task: Trace): string | undefined {
  if (task.receipt === null) return task.taskId !== null || task.transitions.length > 0 || task.polls > 0 || task.cancel !== null ? `call ${id}'s task has no receipt, but a taskId, a status, a poll or a cancel` : undefined;
  if (task.taskId === null) return `call ${id}'s task has a receipt but no taskId`;
  if (task.transitions[0]?.status !== task.receipt.status) return `call ${id}'s task receipt says ${task.receipt.status}, but its first transition is ${task.transitions[0]?.status ?? 'missing'}`;
  return undefined;
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
    if (call.protocol && call.protocol.responseBytes !== task.result.responseBytes) return `call ${id}'s protocol says ${call.protocol.responseBytes} response bytes, its tasks/result ${task.result.responseBytes}`;
    return undefined;
  }
  if (task.result !== null && !statuses.some((s) => s === 'completed' || s === 'failed')) return `call ${id}'s task records a tasks/result, but never completed nor failed`;
  if (task.cancel !== null && outcome.class !== 'timeout') return `call ${id}'s task records a cancel, but its outcome ${named(call)} is not an unknown one after a deadline or an interruption`;
  if (outcome.kind === 'task_deadline' && task.cancel === null) return `call ${id} passed its task's deadline, but records no cancel`;
  if (outcome.kind === 'task_cancelled' && last !== 'cancelled') return `call ${id}'s task was cancelled by its server, but its last status is ${last ?? 'none'}`;
  return undefined;
}
