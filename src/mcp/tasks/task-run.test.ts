import { describe, expect, test } from 'bun:test';
import { Correlator, memoryTransportPair } from '../wire/index.ts';
import { runTask, TASK_TTL_MARGIN_MS, type TaskOptions } from './task-run.ts';
import { taskAnswer, type TaskPeerLog, type TaskScript } from './testing/task-peer.ts';

/** A correlator on the in-memory pair, a scripted task server on the other end. */
function session(script: TaskScript): { correlator: Correlator<void>; log: TaskPeerLog } {
  const [client, server] = memoryTransportPair();
  const log: TaskPeerLog = { methods: [], params: [] };
  server.onmessage = (message) => {
    const answer = taskAnswer(script, log, message);
    if (answer) server.send(answer);
  };
  return { correlator: new Correlator(client), log };
}

const CALL = { name: 'slow', arguments: { topic: 'x' } };
// A logical clock: each reading is 10 ms later, so deadlines pass after a known number of steps and no test waits on wall time.
const ticking = (): (() => number) => {
  let t = 0;
  return () => (t += 10);
};
const fast = (deadlineMs: number, extra: Partial<TaskOptions> = {}): TaskOptions => ({ deadlineMs, pollFloorMs: 1, now: ticking(), clock: () => 'T', ...extra });

describe('runTask', () => {
  test('working → completed: the receipt, each transition, then tasks/result with its related-task _meta; the ttl is the deadline + 10 min', async () => {
    const { correlator, log } = session({ statuses: ['working', 'working', 'completed'] });
    const run = await runTask(correlator, CALL, fast(10_000));
    expect(run.receipt).toMatchObject({ taskId: 'task-1', status: 'working' });
    expect(run.transitions.map((t) => t.status)).toEqual(['working', 'completed']);
    expect(run.end).toEqual({ kind: 'answered', answer: { result: { content: [{ type: 'text', text: 'done' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } } } } });
    expect(log.methods).toEqual(['tools/call', 'tasks/get', 'tasks/get', 'tasks/get', 'tasks/result', 'tasks/get']);
    expect(log.params[0]).toEqual({ name: 'slow', arguments: { topic: 'x' }, task: { ttl: 10_000 + TASK_TTL_MARGIN_MS } });
    // The closing get confirms the task stayed completed: the answer is final.
    expect([run.polls, run.resultAsked, run.cancel, run.findings]).toEqual([4, true, undefined, []]);
    await correlator.close();
  });

  test('cancelled by the server: closed/task_cancelled, outcome unknown with the taskId; no tasks/result, no cancel of ours, tools/call sent once', async () => {
    const { correlator, log } = session({ statuses: ['working', 'cancelled'] });
    const run = await runTask(correlator, CALL, fast(10_000));
    expect(run.transitions.map((t) => t.status)).toEqual(['working', 'cancelled']);
    expect(run.end).toMatchObject({ kind: 'unknown', failure: { class: 'closed', kind: 'task_cancelled', issues: ['taskId task-1'] } });
    expect([run.resultAsked, run.cancel]).toEqual([false, undefined]);
    expect(log.methods).toEqual(['tools/call', 'tasks/get', 'tasks/get']);
    await correlator.close();
  });

  test('input_required is waited out like working; failed still fetches the result', async () => {
    const { correlator, log } = session({ statuses: ['input_required', 'working', 'failed'], result: { content: [{ type: 'text', text: 'no' }], isError: true } });
    const run = await runTask(correlator, CALL, fast(10_000));
    expect(run.transitions.map((t) => t.status)).toEqual(['working', 'input_required', 'working', 'failed']);
    expect(run.end.kind).toBe('answered');
    expect(log.methods.slice(-2)).toEqual(['tasks/result', 'tasks/get']);
    await correlator.close();
  });

  test('never terminal: one tasks/cancel at the deadline, its answer recorded, outcome unknown with the taskId; tools/call sent once', async () => {
    const { correlator, log } = session({ statuses: ['working'] });
    const run = await runTask(correlator, CALL, fast(200));
    expect(run.end).toMatchObject({ kind: 'unknown', failure: { class: 'timeout', kind: 'task_deadline', issues: ['taskId task-1'] } });
    expect(run.cancel?.answer).toEqual({ status: 'cancelled' });
    expect(log.methods.filter((m) => m === 'tasks/cancel')).toHaveLength(1);
    expect(log.methods.filter((m) => m === 'tools/call')).toHaveLength(1);
    expect(log.methods).not.toContain('tasks/result');
    await correlator.close();
  });

  test('the signal: one cancel, outcome unknown (interrupted)', async () => {
    const { correlator, log } = session({ statuses: ['working'] });
    const abort = new AbortController();
    const running = runTask(correlator, CALL, { deadlineMs: 60_000, pollFloorMs: 1, signal: abort.signal });
    while (log.methods.filter((m) => m === 'tasks/get').length < 2) await Bun.sleep(1);
    abort.abort();
    const run = await running;
    expect(run.end).toMatchObject({ kind: 'unknown', failure: { class: 'timeout', kind: 'aborted', issues: ['taskId task-1'] } });
    expect(run.cancel?.answer).toEqual({ status: 'cancelled' });
    expect(log.methods.filter((m) => m === 'tasks/cancel')).toHaveLength(1);
    await correlator.close();
  });

  test('a poll interval of 0 is held to the floor (one finding), so polling is bounded by the deadline', async () => {
    const { correlator, log } = session({ statuses: ['working'], pollInterval: 0 });
    // Real time here: the floor (20 ms) against a 300 ms deadline bounds the polls at about 15.
    const run = await runTask(correlator, CALL, { deadlineMs: 300, pollFloorMs: 20, clock: () => 'T' });
    expect(run.findings.map((f) => f.kind)).toEqual(['task_poll_interval']);
    expect(run.polls).toBeGreaterThan(0);
    expect(run.polls).toBeLessThanOrEqual(300 / 20 + 1);
    expect(log.methods.filter((m) => m === 'tasks/get')).toHaveLength(run.polls);
    await correlator.close();
  });

  const hostile: [string, TaskScript, string][] = [
    ['a transition out of a terminal status', { statuses: ['completed', 'working'] }, 'task_transition'],
    ['an unknown status', { statuses: ['paused'] }, 'task_status'],
    ['a first status other than working', { first: 'completed' }, 'task_first_status'],
    ['an over-long taskId', { taskId: 'x'.repeat(257) }, 'task_id'],
    ['a taskId that is not a string', { taskId: 7 }, 'task_id'],
  ];
  for (const [name, script, kind] of hostile) {
    test(`${name}: protocol/${kind}, outcome unknown`, async () => {
      const { correlator } = session(script);
      const run = await runTask(correlator, CALL, fast(10_000));
      expect(run.end).toMatchObject({ kind: 'unknown', failure: { class: 'protocol', kind, basis: 'spec MUST' } });
      if (kind === 'task_transition') expect(run.transitions.map((t) => t.status)).toEqual(['working', 'completed', 'working']);
      await correlator.close();
    });
  }

  test('no related-task _meta on tasks/result: a finding, the answer still kept', async () => {
    const { correlator } = session({ relatedMeta: false });
    const run = await runTask(correlator, CALL, fast(10_000));
    expect(run.end.kind).toBe('answered');
    expect(run.findings.map((f) => f.kind)).toEqual(['task_related_meta']);
    await correlator.close();
  });

  test('a JSON-RPC error to tools/call is a refusal: no task, nothing polled', async () => {
    const [client, server] = memoryTransportPair();
    server.onmessage = (m) => server.send({ jsonrpc: '2.0', id: m['id'], error: { code: -32602, message: 'no tasks here' } });
    const correlator = new Correlator(client);
    const run = await runTask(correlator, CALL, fast(1_000));
    expect(run).toMatchObject({ end: { kind: 'refused', error: { code: -32602 } }, polls: 0, transitions: [] });
    await correlator.close();
  });
});
