import { afterEach, describe, expect, test } from 'bun:test';
import { isUnknownOutcome, LIMITS } from '../../contract/index.ts';
import { taskAnswer, type TaskPeerLog, type TaskScript } from '../tasks/testing/task-peer.ts';
import { memoryTransportPair } from '../wire/index.ts';
import { startHostSession, type HostSession } from './host-session.ts';

/**
 * The host session's task calls (W10) against a scripted 2025-11-25 task
 * server on the in-memory pair: each end a run can meet — completed,
 * failed, cancelled by the server, never terminal, and a server breaking
 * the revision — its outcome, its exchange and the trace the record keeps.
 */
const sessions: HostSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function open(script: TaskScript, callMs = 5_000): Promise<{ session: HostSession; log: TaskPeerLog }> {
  const [client, server] = memoryTransportPair();
  const log: TaskPeerLog = { methods: [], params: [] };
  server.onmessage = (message) => {
    const answer = taskAnswer(script, log, message);
    if (answer) server.send(answer);
  };
  const session = await startHostSession(client, { timeouts: { handshakeMs: 5_000, callMs } });
  if (!session.ok) throw new Error(`${session.class}/${session.kind}: ${session.message}`);
  sessions.push(session.value);
  return { session: session.value, log };
}

const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };
const SLOW = { name: 'slow', task: true };
const calls = (log: TaskPeerLog) => log.methods.filter((m) => m === 'tools/call').length;

describe('a host session call made as a task', () => {
  test('working → completed: ok with the tasks/result answer, its exchange ok and its trace: receipt, transitions, polls, the result exchange', async () => {
    const { session, log } = await open({ statuses: ['working', 'completed'] });
    const called = await session.callTool(SLOW, { n: 1 }, ids);
    if (!called.ok) throw new Error(called.message);
    expect(called.value.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(log.params[log.methods.indexOf('tools/call')]).toMatchObject({ name: 'slow', arguments: { n: 1 }, task: { ttl: expect.any(Number) } });
    const [exchange] = session.exchanges();
    expect(exchange).toMatchObject({ method: 'tools/call', tool: 'slow', outcome: 'ok', isError: false, actionId: 'act-1' });
    const task = exchange!.task!;
    expect(task).toMatchObject({ taskId: 'task-1', receipt: { status: 'working', ttl: 60_000 }, cancel: null, result: { related: true } });
    expect(task.transitions.map((t) => t.status)).toEqual(['working', 'completed']);
    expect(task.result!.responseBytes).toBe(exchange!.responseBytes);
    expect(task.result!.responseBytes).toBeGreaterThan(0);
    expect(calls(log)).toBe(1);
  });

  test('a plain tool on the same session is a plain tools/call (no params.task, no trace)', async () => {
    const { session, log } = await open({});
    const called = await session.callTool({ name: 'slow' }, { n: 1 }, ids);
    // The scripted server answers every tools/call with a task: read as a plain result, it has no content.
    expect(called.ok).toBe(false);
    expect(log.params[log.methods.indexOf('tools/call')]).not.toHaveProperty('task');
    expect(session.exchanges()[0]!.task).toBeUndefined();
  });

  test('ended failed: business/tool_error even when tasks/result answers no isError (the server stated the tool failed)', async () => {
    const { session } = await open({ statuses: ['working', 'failed'] });
    const called = await session.callTool(SLOW, {}, ids);
    expect(called).toMatchObject({ ok: false, class: 'business', kind: 'tool_error' });
    expect(session.exchanges()[0]).toMatchObject({ outcome: 'business/tool_error', isError: true });
    expect(session.exchanges()[0]!.task!.result).not.toBeNull();
  });

  test('never terminal: timeout/task_deadline at the call timeout, one tasks/cancel recorded, the tools/call sent once; outcome unknown', async () => {
    const { session, log } = await open({ statuses: ['working'] }, 400);
    const called = await session.callTool(SLOW, {}, ids);
    expect(called).toMatchObject({ ok: false, class: 'timeout', kind: 'task_deadline', issues: ['taskId task-1'] });
    if (called.ok) throw new Error('unreachable');
    expect(isUnknownOutcome(called)).toBe(true);
    const task = session.exchanges()[0]!.task!;
    expect(task.cancel).toMatchObject({ answer: { status: 'cancelled' } });
    expect(task.result).toBeNull();
    expect([calls(log), log.methods.filter((m) => m === 'tasks/cancel').length]).toEqual([1, 1]);
    // Polled at the floor at most: within 400 ms, no more than 400 / taskPollFloorMs gets.
    expect(task.polls).toBeLessThanOrEqual(400 / LIMITS.taskPollFloorMs);
  });

  test.each<[string, TaskScript, string]>([
    ['cancelled by the server', { statuses: ['working', 'cancelled'] }, 'closed/task_cancelled'],
    ['terminal → working', { statuses: ['completed', 'working'] }, 'protocol/task_transition'],
    ['first status completed', { first: 'completed' }, 'protocol/task_first_status'],
    ['a status tasks do not have', { statuses: ['done'] }, 'protocol/task_status'],
    ['a taskId over taskIdBytes', { taskId: 'x'.repeat(LIMITS.taskIdBytes + 1) }, 'protocol/task_id'],
    ['a taskId not a string', { taskId: 7 }, 'protocol/task_id'],
  ])('%s: its kind, the outcome unknown, the tools/call sent once', async (_, script, named) => {
    const { session, log } = await open(script);
    const called = await session.callTool(SLOW, {}, ids);
    if (called.ok) throw new Error('a misbehaving task server was taken at its word');
    expect(`${called.class}/${called.kind}`).toBe(named);
    expect(isUnknownOutcome(called)).toBe(true);
    expect(session.exchanges()[0]!.outcome).toBe(named);
    expect(calls(log)).toBe(1);
  });

  test('server strings in the trace are cut at evidenceChars; the result naming no task is recorded as such', async () => {
    const { session } = await open({ statusMessage: 'm'.repeat(5_000), relatedMeta: false });
    const called = await session.callTool(SLOW, {}, ids);
    expect(called.ok).toBe(true);
    const task = session.exchanges()[0]!.task!;
    for (const t of task.transitions) expect(t.statusMessage!.length).toBeLessThan(LIMITS.evidenceChars + 40);
    expect(task.result!.related).toBe(false);
  });
});

test('isUnknownOutcome: a task that broke the revision after its receipt is unknown; other protocol refusals are not', () => {
  for (const kind of ['task_malformed', 'task_id', 'task_status', 'task_first_status', 'task_transition']) expect(isUnknownOutcome({ class: 'protocol', kind })).toBe(true);
  for (const kind of ['jsonrpc_error', 'output_invalid', 'task_related_meta', 'task_poll_interval']) expect(isUnknownOutcome({ class: 'protocol', kind })).toBe(false);
});
