/**
 * A tools/call the host session makes as an MCP 2025-11-25 task, for a tool
 * whose contract completes in the background (`Contract.completion`): the
 * task engine (src/mcp/tasks) runs it to its end, and its trace — receipt,
 * each status, the one cancel, the `tasks/result` exchange — is logged with
 * the call's exchange, pending from the moment the tools/call is sent (so a
 * call given up on still names its request and its taskId). The answer
 * `tasks/result` gives is read as any tools/call reply (`interpretHostCall`);
 * every other end leaves the outcome unknown. The tools/call is sent once.
 */
import { fail, LIMITS, ok, type Outcome } from '../../contract/index.ts';
import type { TaskTrace } from '../../pipeline/index.ts';
import { runTask, type TaskRun, type TaskSession } from '../tasks/index.ts';
import { refuse, type Correlator, type JsonRpcId, type Reply } from '../wire/index.ts';
import { excerpt } from './call.ts';
import { interpretHostCall, type HostCallResult, type HostTool } from './host-call.ts';
import type { CallOptions, Exchange } from './strict-session.ts';

/** A server string as the record keeps it: cut at `evidenceChars`. */
const cut = (text: string): string => excerpt(text, LIMITS.evidenceChars);

/** What the wrapper saw of the two requests the trace names: the tools/call as sent, the tasks/result as answered. */
interface Seen {
  call?: { readonly id: JsonRpcId; readonly requestBytes: number };
  result?: { readonly id: JsonRpcId; readonly responseBytes: number };
}

/** The correlator as the engine's session, noting the tools/call when it is sent and the tasks/result answer when it comes. */
function watched(correlator: Correlator<unknown>, seen: Seen, onSent: () => void): TaskSession {
  return {
    request(method, params, options) {
      const sent = correlator.request(method, params, options);
      if (method === 'tools/call') {
        seen.call = { id: sent.id, requestBytes: sent.requestBytes };
        onSent();
      }
      if (method !== 'tasks/result') return sent;
      const reply = sent.reply.then((answer) => {
        if (answer.ok) seen.result = { id: answer.value.id, responseBytes: answer.value.responseBytes };
        return answer;
      });
      return { reply };
    },
  };
}

/** The engine's run as the record keeps it (see `TaskTrace`). */
export function traceOf(run: TaskRun, seen: Pick<Seen, 'result'>): TaskTrace {
  const { receipt, cancel } = run;
  const related = !run.findings.some((f) => f.kind === 'task_related_meta');
  return {
    taskId: receipt?.taskId ?? null,
    receipt: receipt
      ? { status: receipt.status, createdAt: cut(receipt.createdAt), ttl: receipt.ttl, ...(receipt.pollInterval !== undefined ? { pollInterval: receipt.pollInterval } : {}), acceptedAt: receipt.acceptedAt, ms: receipt.ms }
      : null,
    transitions: run.transitions.map((t) => ({ status: t.status, lastUpdatedAt: cut(t.lastUpdatedAt), ...(t.statusMessage !== undefined ? { statusMessage: cut(t.statusMessage) } : {}), at: t.at, ms: t.ms })),
    polls: run.polls,
    cancel: cancel ? { at: cancel.at, ms: cancel.ms, answer: 'error' in cancel.answer ? { error: { code: cancel.answer.error.code, message: cut(cancel.answer.error.message) } } : 'status' in cancel.answer ? { status: cut(cancel.answer.status) } : cancel.answer } : null,
    // An answered tasks/result is on record whatever came after it (a closing get out of the terminal status).
    result: seen.result ? { jsonrpcId: seen.result.id, responseBytes: seen.result.responseBytes, related } : null,
  };
}

/**
 * How a task ended, as the call's outcome: `tasks/result`'s answer read as a
 * tools/call reply (a task that ended `failed` is `business/tool_error`
 * whatever the answer says: the server stated the tool failed); a refused
 * tools/call is protocol/jsonrpc_error; every other end is the engine's
 * failure, its outcome unknown, naming the taskId.
 */
function outcomeOf(tool: HostTool, run: TaskRun, seen: Seen): Outcome<HostCallResult> {
  const { end } = run;
  const { name } = tool;
  if (end.kind === 'unknown') return end.failure;
  if (end.kind === 'refused') return refuse('protocol', 'jsonrpc_error', `${name}: tools/call (as a task) refused with JSON-RPC error ${end.error.code}: ${excerpt(end.error.message)}`);
  const reply: Reply = { id: seen.call!.id, answer: end.answer, requestBytes: seen.call!.requestBytes, responseBytes: seen.result?.responseBytes ?? 0 };
  const read = interpretHostCall(tool, reply);
  const status = run.transitions.at(-1)?.status;
  if (status === 'failed' && read.ok) return fail('business', 'tool_error', `${name}: task ${JSON.stringify(run.receipt?.taskId)} ended failed`);
  return read;
}

/**
 * Sends one tools/call as a task and logs its exchange twice, as `loggedCall`
 * does — when sent (pending, with no trace yet) and when settled, with the
 * task's trace, the answer's size, `isError` and the outcome.
 */
export async function taskCall(
  correlator: Correlator<unknown>,
  exchanges: Exchange[],
  request: { readonly name: string; readonly args: unknown },
  call: CallOptions & { readonly timeoutMs: number },
  tool: HostTool,
): Promise<Outcome<HostCallResult & { readonly exchange: Exchange }>> {
  const seen: Seen = {};
  let index = -1;
  const session = watched(correlator, seen, () => {
    index = exchanges.push({ method: 'tools/call', tool: request.name, jsonrpcId: seen.call!.id, toolCallId: call.toolCallId, actionId: call.actionId, requestBytes: seen.call!.requestBytes, responseBytes: 0, isError: false, outcome: 'pending' }) - 1;
  });
  const args = (request.args ?? {}) as Readonly<Record<string, unknown>>;
  const run = await runTask(session, { name: request.name, arguments: args }, { deadlineMs: call.timeoutMs, ...(call.signal ? { signal: call.signal } : {}) });
  const result = outcomeOf(tool, run, seen);
  const exchange: Exchange = {
    ...exchanges[index]!,
    responseBytes: seen.result?.responseBytes ?? 0,
    isError: !result.ok && result.class === 'business' && result.kind === 'tool_error',
    outcome: result.ok ? 'ok' : `${result.class}/${result.kind}`,
    task: traceOf(run, seen),
  };
  exchanges[index] = exchange;
  return result.ok ? ok({ ...result.value, exchange }) : result;
}
