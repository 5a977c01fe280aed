/**
 * TEST ONLY — a hostile 2025-11-25 task server on stdio for `caplab run
 * --mcp-config` (`bun task-server.ts MODE METHODS_LOG`): it lists one tool,
 * `slow` (`execution.taskSupport` optional, or required in
 * `required_no_cap`), declares `tasks.requests.tools.call` (but in
 * `required_no_cap`), and misbehaves as MODE says. Every request's method is
 * appended to METHODS_LOG as it arrives, so a test counts what the host sent
 * (one tools/call, at most one tasks/cancel) even after the server is gone.
 *
 * Modes: `ok`; `never_terminal`; `terminal_to_working`; `first_completed`;
 * `huge_strings` (a 10 KB statusMessage and lastUpdatedAt); `long_task_id`
 * (300 bytes); `result_hangs` (tasks/result never answered); `get_error`
 * (tasks/get answers a JSON-RPC error); `exit_mid_poll` (exits on the second
 * tasks/get, unanswered); `no_task` (a CreateTaskResult without `task`);
 * `cancel_hangs` (never terminal, tasks/cancel never answered);
 * `failed_plain` (ends `failed`, its result not isError); `poll_zero`
 * (pollInterval 0); `poll_huge` (pollInterval 1e12, never terminal);
 * `required_no_cap` (taskSupport required, no tasks capability).
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';
const log = process.argv[3];
const TIME = '2026-01-01T00:00:00.000Z';
const BIG = 'x'.repeat(10 * 1024);

const taskId = mode === 'long_task_id' ? 't'.repeat(300) : 'task-1';
const pollInterval = mode === 'poll_zero' ? 0 : mode === 'poll_huge' ? 1e12 : 20;
let gets = 0;

/** The task object in `status`, as this mode states it. */
function task(status: string): Record<string, unknown> {
  const huge = mode === 'huge_strings';
  return { taskId, status, ttl: 600_000, createdAt: TIME, lastUpdatedAt: huge ? `${TIME}${BIG}` : TIME, pollInterval, ...(huge ? { statusMessage: BIG } : {}) };
}

/** What the n-th tasks/get (1-based) answers in this mode. */
function statusAt(n: number): string {
  if (mode === 'never_terminal' || mode === 'cancel_hangs' || mode === 'poll_huge') return 'working';
  if (mode === 'terminal_to_working') return n === 1 ? 'completed' : 'working';
  if (mode === 'failed_plain') return n === 1 ? 'working' : 'failed';
  if (mode === 'poll_zero') return n < 4 ? 'working' : 'completed';
  return n === 1 ? 'working' : 'completed';
}

const send = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const result = (id: unknown, value: unknown): void => send({ jsonrpc: '2.0', id, result: value });

function answer(id: unknown, method: string): void {
  if (method === 'initialize') {
    const tasks = mode === 'required_no_cap' ? {} : { tasks: { cancel: {}, requests: { tools: { call: {} } } } };
    return result(id, { protocolVersion: '2025-11-25', capabilities: { tools: {}, ...tasks }, serverInfo: { name: 'task-server', version: '1.0.0' } });
  }
  if (method === 'tools/list') {
    const taskSupport = mode === 'required_no_cap' ? 'required' : 'optional';
    return result(id, { tools: [{ name: 'slow', description: 'Works in the background.', inputSchema: { type: 'object' }, execution: { taskSupport } }] });
  }
  if (method === 'tools/call') {
    if (mode === 'required_no_cap') return result(id, { content: [{ type: 'text', text: 'sent anyway' }] });
    if (mode === 'no_task') return result(id, { content: [{ type: 'text', text: 'no task here' }] });
    return result(id, { task: task(mode === 'first_completed' ? 'completed' : 'working') });
  }
  if (method === 'tasks/get') {
    gets += 1;
    if (mode === 'get_error') return send({ jsonrpc: '2.0', id, error: { code: -32603, message: 'internal: the task store is down' } });
    if (mode === 'exit_mid_poll' && gets === 2) process.exit(0);
    return result(id, task(statusAt(gets)));
  }
  if (method === 'tasks/result') {
    if (mode === 'result_hangs') return;
    const meta = { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
    return result(id, { content: [{ type: 'text', text: mode === 'failed_plain' ? 'it went fine, honestly' : 'done' }], ...meta });
  }
  if (method === 'tasks/cancel') {
    if (mode === 'cancel_hangs') return;
    return result(id, task('cancelled'));
  }
  if (method === 'ping') return result(id, {});
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const message = JSON.parse(line) as { id?: unknown; method?: string };
  if (message.id === undefined || message.method === undefined) continue;
  if (log) appendFileSync(log, `${message.method}\n`);
  answer(message.id, message.method);
}
process.exit(0);
