/**
 * A `--call` run as a 2025-11-25 task (see src/mcp/tasks): the engine's run
 * as probe reports it — the receipt's taskId, each transition with its time,
 * the polls, the one cancel — and its end judged: a `tasks/result` result
 * like any tools/call result, a JSON-RPC error as one, anything else
 * (deadline, signal, a task breaking the revision) outcome unknown, with the
 * taskId. The tools/call is sent once, whatever happens.
 */
import type { Redactor } from '../../contract/index.ts';
import type { VersionProfile } from '../client/index.ts';
import { runTask, type TaskRun, type TaskSession } from '../tasks/index.ts';
import { judgeResult, probeCall, type CallRequest, type Judging, type ProbedCall } from './probe-calls.ts';
import type { Correlator, ServerInfo } from '../wire/index.ts';
import { excerpt, finding, fromFailure, type ProbeFinding } from './probe-finding.ts';
import type { ToolRuntime } from './probe-tools.ts';
import { boundText, type Bounded } from './report-value.ts';
import { runsAsTask, TASKS_VERSION, type Tasking } from './probe-task-listing.ts';

/** A call's task as probe's report keeps it: server values bounded (and redacted in the report). */
export interface ProbedTask {
  readonly taskId?: Bounded<string>;
  readonly transitions: readonly { readonly status: string; readonly at: string; readonly ms: number; readonly lastUpdatedAt: Bounded<string>; readonly statusMessage?: Bounded<string> }[];
  readonly polls: number;
  readonly cancel?: { readonly at: string; readonly ms: number; readonly answer: unknown };
  readonly resultAsked: boolean;
}

function taskOf(run: TaskRun): ProbedTask {
  return {
    ...(run.receipt ? { taskId: run.receipt.taskId } : {}),
    transitions: run.transitions.map((t) => ({ status: t.status, at: t.at, ms: t.ms, lastUpdatedAt: t.lastUpdatedAt, ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}) })),
    polls: run.polls,
    ...(run.cancel ? { cancel: run.cancel } : {}),
    resultAsked: run.resultAsked,
  };
}

/** Runs one `--call` as a task and judges how it ended (see the module's doc). */
export async function probeTaskCall(session: TaskSession, request: CallRequest, runtime: ToolRuntime | undefined, profile: VersionProfile, timeoutMs: number, judging: Judging): Promise<ProbedCall> {
  const now = judging.now ?? (() => performance.now());
  const started = now();
  const run = await runTask(session, request, { deadlineMs: timeoutMs, ...(judging.signal ? { signal: judging.signal } : {}) });
  const ms = Math.round(now() - started);
  const tool = request.name;
  const task = taskOf(run);
  const kept: ProbeFinding[] = run.findings.map((f) => fromFailure(f, tool));
  const { end } = run;
  if (end.kind === 'unknown') return { tool, outcome: 'unknown', ms, task, findings: [...kept, fromFailure(end.failure, tool)] };
  if (end.kind === 'refused' || 'error' in end.answer) {
    const error = end.kind === 'refused' ? end.error : (end.answer as { error: { code: number; message: string } }).error;
    const which = end.kind === 'refused' ? 'tools/call (as a task)' : 'tasks/result';
    const rejected = finding('protocol', 'jsonrpc_error', 'caplab host rule', `${which} refused with JSON-RPC error ${error.code}`, { tool, evidence: excerpt(error.message) });
    return { tool, outcome: 'rpc_error', ms, task, findings: [...kept, rejected] };
  }
  const judged = await judgeResult(tool, end.answer.result, runtime, profile, ms, judging);
  return { ...judged, task, findings: [...kept, ...judged.findings] };
}

/** A plain call of a tool that needs a task in a session that has none (before 2025-11-25): it is sent as asked, with a note. */
export function plainCallNote(call: ProbedCall, taskSupport: unknown, tasking: Tasking): ProbedCall {
  if (taskSupport !== 'required' || tasking.version >= TASKS_VERSION || call.outcome === 'not_sent') return call;
  const note = `the tool needs task augmentation (execution.taskSupport "required"); MCP ${tasking.version} has no tasks, so it was sent plain (try --protocol ${TASKS_VERSION})`;
  return { ...call, note: call.note ? `${call.note}; ${note}` : note };
}

/** A task as reported: the taskId and every server string bounded and redacted. */
export function reportTask(task: ProbedTask, redactor: Redactor): ProbedTask {
  const text = (value: Bounded<string>): Bounded<string> => (typeof value === 'string' ? boundText(value, redactor) : value);
  return {
    ...task,
    ...(task.taskId !== undefined ? { taskId: text(task.taskId) } : {}),
    transitions: task.transitions.map((t) => ({ ...t, lastUpdatedAt: text(t.lastUpdatedAt), ...(t.statusMessage !== undefined ? { statusMessage: text(t.statusMessage) } : {}) })),
    ...(task.cancel ? { cancel: { ...task.cancel, answer: JSON.parse(redactor.redact(JSON.stringify(task.cancel.answer))) as unknown } } : {}),
  };
}

/** What `callOnce` needs beyond the call: the revision's profile, what tasks the session has, the deadline, judging, and the flag the probe's stop reads. */
export interface CallContext {
  readonly profile: VersionProfile;
  readonly tasking: Tasking;
  readonly timeoutMs: number;
  readonly judging: Judging;
  readonly inTask: { running: boolean };
}

/** One `--call`, sent once: as a task where the session and the tool allow it (2025-11-25), else plain (with a note for a tool that needs a task). */
export async function callOnce(session: Correlator<unknown>, call: CallRequest, runtime: ToolRuntime | undefined, context: CallContext): Promise<ProbedCall> {
  const { profile, tasking, timeoutMs, judging, inTask } = context;
  // Judged before sending: whether probe's Ajv refuses the arguments (they are sent all the same).
  const refusedArgs = runtime?.inputValid !== undefined && !runtime.inputValid(call.arguments);
  if (!runsAsTask(runtime?.taskSupport, tasking)) return inputChannel(plainCallNote(await probeCall(session, call, runtime, profile, timeoutMs, judging), runtime?.taskSupport, tasking), refusedArgs, tasking);
  inTask.running = true;
  try {
    return inputChannel(await probeTaskCall(session, call, runtime, profile, timeoutMs, judging), refusedArgs, tasking);
  } finally {
    inTask.running = false;
  }
}

/**
 * 2025-11-25: arguments that fail the inputSchema SHOULD be answered as a
 * tool execution error (`isError`, which the model can act on), not a
 * JSON-RPC error: one that was is `protocol/input_error_channel`.
 */
function inputChannel(call: ProbedCall, refusedArgs: boolean, tasking: Tasking): ProbedCall {
  if (!refusedArgs || tasking.version !== TASKS_VERSION || call.outcome !== 'rpc_error') return call;
  const channel = finding('protocol', 'input_error_channel', 'spec SHOULD', 'arguments that fail the inputSchema (probe\'s Ajv; sent anyway) were answered by a JSON-RPC error, not a tool execution error (isError)', { tool: call.tool, evidence: call.findings.at(-1)?.evidence ?? 'a JSON-RPC error' });
  return { ...call, findings: [...call.findings, channel] };
}

/** The owners of icons probe checks: each tool that lists some, and the server. */
export function iconOwners(tools: readonly { readonly name: string; readonly icons?: unknown }[], serverInfo: ServerInfo | undefined): { readonly tool?: string; readonly icons: unknown }[] {
  const owners: { tool?: string; icons: unknown }[] = tools.filter((tool) => tool.icons !== undefined).map((tool) => ({ tool: tool.name, icons: tool.icons }));
  if (serverInfo && serverInfo['icons'] !== undefined) owners.push({ icons: serverInfo['icons'] });
  return owners;
}
