/**
 * Task calls in runs (W10, MCP 2025-11-25): `caplab run --mcp-config` with
 * `caplab serve` as a configured server (the host session offers
 * 2025-11-25, so it lists `count_words`, `taskSupport: "optional"`, and
 * declares tasks). A call of it is made as a task: the record names format
 * 12, the binding's contract states its background completion, the call
 * event its task — receipt, each transition, the tasks/result exchange —
 * and verify re-checks them; a re-chained forgery of an ok call without
 * `completed` does not verify; so in a subagent's loop. Over `serve --http`, a call cut by
 * `--timeout-ms` is unknown with its taskId, the tools/call sent once, and
 * `probe --task-status` of that id later exits 0.
 */
import { describe, expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { events } from './testing/configured-kit.ts';
import { MAIN, ROOT, startServe } from './testing/serve-http.ts';
import { rechain, verifyJson, type Event } from './verify-test-kit.ts';
import { probeJson } from './testing/probe-json.ts';

const usage = { input_tokens: 0, output_tokens: 0 };

/** The scripted model's steps: one count_words call (`delay_ms` of work), then a final answer. */
const countSteps = (delayMs: number) => [{ tool_calls: [{ id: 'count', name: 'mcp__serve__count_words', arguments: { source_id: 'alpha', delay_ms: delayMs } }], usage }, { text: 'Counted.', usage }];

/** An expectations scenario on the server `serve`, count_words allowed; `fields` are its model steps and expectations. */
function writeScenario(dir: string, name: string, fields: Record<string, unknown>): string {
  const path = join(dir, `${name}.scenario.json`);
  writeFileSync(path, JSON.stringify({ task: 'expectations', name, description: `Counts words as a task (${name}).`, servers: ['serve'], permissions: { allow: ['mcp__serve__count_words'] }, ...fields }));
  return path;
}

/** count_words called by the run itself; `ok` or a timeout as expected. */
function writeCount(dir: string, delayMs: number, ok: boolean): string {
  const expected = ok ? { ok: true } : { error: { class: 'timeout', kind: 'task_deadline' } };
  return writeScenario(dir, 'count', { responses: countSteps(delayMs), expect: { calls: { count: expected }, end: { calls: 1, stop: 'final_answer' } } });
}

async function run(dir: string, config: Record<string, unknown>, scenario: string, more: readonly string[] = []) {
  const path = join(dir, 'servers.mcp.json');
  writeFileSync(path, JSON.stringify({ mcpServers: { serve: config } }));
  const out = join(dir, 'run');
  const io = testIo(dir, { PATH: process.env['PATH'], HOME: process.env['HOME'] });
  const code = await cli(['run', '--scenario', scenario, '--mcp-config', path, '--out', out, ...more], io);
  return { code, out, stdout: io.out(), stderr: io.err() };
}

const STDIO = { command: process.execPath, args: [MAIN, 'serve'], cwd: ROOT };

describe('a task call in a run over --mcp-config (caplab serve, stdio)', () => {
  test('count_words runs as a task: format 12, its binding background, each transition and the tasks/result recorded; verified', async () => {
    const dir = scratchDir('caplab-configured-tasks-');
    const ran = await run(dir, STDIO, writeCount(dir, 300, true));
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const all = events(ran.out);
    expect(all.at(-1)!['format']).toBe('caplab.ledger/12');
    const binding = all[0]!['bindings'].find((b: { tool: string }) => b.tool === 'mcp__serve__count_words');
    expect(binding.contract.completion).toMatchObject({ mode: 'background', support: 'optional', query: { request: 'tasks/get', version: 'lastUpdatedAt' } });
    expect(all[0]!['bindings'].find((b: { tool: string }) => b.tool === 'mcp__serve__read_source').contract.completion).toBeUndefined();
    expect(all[0]!['servers'][0].identity.protocolVersion).toBe('2025-11-25');
    const call = all.find((e) => e.type === 'call')!;
    expect(call['outcome'].ok).toBe(true);
    expect(call['protocol']).not.toHaveProperty('task');
    const task = call['task'];
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(task.transitions.map((t: { status: string }) => t.status)).toEqual(['working', 'completed']);
    expect(task.receipt).toMatchObject({ status: 'working' });
    expect(task.result).toMatchObject({ related: true, responseBytes: call['protocol'].responseBytes });
    expect(task.cancel).toBeNull();
    expect(task.polls).toBeGreaterThanOrEqual(2);
    const verified = await verifyJson(ran.out);
    expect([verified.code, verified.doc.verified]).toEqual([0, true]);
    // caplab report draws the task on the call: its id and each status with its time.
    const page = join(dir, 'run.report.html');
    const reported = await cli(['report', ran.out, '--out', page], testIo(dir));
    expect(reported).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain(task.taskId);
    expect(html).toContain(`working at ${task.transitions[0].ms} ms → completed at ${task.transitions[1].ms} ms`);
  }, 60_000);

  test('re-chained forgeries of the task do not verify (evidence/task_inconsistent, naming the call)', async () => {
    const dir = scratchDir('caplab-configured-tasks-');
    const ran = await run(dir, STDIO, writeCount(dir, 0, true));
    expect(ran.code).toBe(0);
    const onTask = (edit: (task: Record<string, any>, call: Event) => void) => (list: Event[]) =>
      list.map((e) => {
        if (e.type !== 'call') return e;
        const copy = JSON.parse(JSON.stringify(e)) as Event & { task: Record<string, any> };
        edit(copy.task, copy);
        return copy;
      });
    const forgeries: [string, (list: Event[]) => Event[], RegExp][] = [
      ['ok without completed', onTask((task) => void (task.transitions = task.transitions.slice(0, 1))), /is ok, but its task's last status is working, not completed/],
      ['ok without its tasks/result', onTask((task) => void (task.result = null)), /records no tasks\/result exchange/],
      ['ok with a cancel', onTask((task) => void (task.cancel = { at: 'T', ms: 1, answer: { status: 'cancelled' } })), /is ok, but its task records a cancel/],
      ['out of completed', onTask((task) => void task.transitions.push({ ...task.transitions[0], ms: 99_999 })), /goes from completed \(terminal\) to working/],
      ['a status tasks do not have', onTask((task) => void (task.transitions[1].status = 'done')), /status "done", which MCP tasks do not have/],
      ['begins completed', onTask((task) => void (task.transitions = [{ ...task.transitions[1] }], task.receipt.status = 'completed')), /begins completed, and its outcome does not say so/],
      ['the task dropped', onTask((_task, call) => void delete (call as Record<string, unknown>)['task']), /records no task/],
      ['a binding made synchronous', (list) => list.map((e) => (e.type === 'run_start' ? { ...e, bindings: (e['bindings'] as Record<string, any>[]).map((b) => ({ ...b, contract: { ...b['contract'], completion: undefined } })) } : e)), /^(format_mismatch|binding_mismatch): /],
    ];
    for (const [name, edit, message] of forgeries) {
      const copy = join(dir, `forged-${forgeries.findIndex((f) => f[0] === name)}`);
      cpSync(ran.out, copy, { recursive: true });
      rechain(copy, edit);
      const verified = await verifyJson(copy);
      expect([name, verified.code, verified.doc.verified]).toEqual([name, 1, false]);
      expect([name, `${verified.doc.error?.kind}: ${verified.doc.error?.message}`]).toEqual([name, expect.stringMatching(message)]);
    }
  }, 60_000);
});

describe('a task call inside a subagent (caplab serve, stdio)', () => {
  test('the nested count_words runs as a task: its call event (agent_id) has the task, the record names 12 (with 11\'s subagent shapes), verified; a forgery of it is refused', async () => {
    const dir = scratchDir('caplab-configured-tasks-');
    const scenario = writeScenario(dir, 'sub-count', {
      responses: [{ tool_calls: [{ id: 'agent', name: 'Agent', arguments: { description: 'Count', prompt: 'Count the words of alpha.', subagent_type: 'general-purpose' } }], usage }, { text: 'Done.', usage }],
      subagents: { agent: { responses: countSteps(0) } },
      expect: { calls: { agent: { ok: true } }, end: { calls: 2, stop: 'final_answer' } },
    });
    const ran = await run(dir, STDIO, scenario);
    expect([ran.code, ran.stderr]).toEqual([0, '']);
    const all = events(ran.out);
    expect(all.at(-1)!['format']).toBe('caplab.ledger/12');
    expect(all.some((e) => e.type === 'subagent_start')).toBe(true);
    const nested = all.find((e) => e.type === 'call' && e['name'] === 'mcp__serve__count_words')!;
    expect(nested['agent_id']).toBe('agent-act-01');
    expect(nested['task'].transitions.map((t: { status: string }) => t.status)).toEqual(['working', 'completed']);
    expect((await verifyJson(ran.out)).doc.verified).toBe(true);
    const copy = join(dir, 'forged');
    cpSync(ran.out, copy, { recursive: true });
    rechain(copy, (list) => list.map((e) => (e.type === 'call' && e['agent_id'] !== undefined ? { ...e, task: { ...(e['task'] as object), transitions: (e['task'] as { transitions: unknown[] }).transitions.slice(0, 1) } } : e)));
    const forged = await verifyJson(copy);
    expect([forged.doc.verified, `${forged.doc.error?.kind}: ${forged.doc.error?.message}`]).toEqual([false, expect.stringMatching(/^task_inconsistent: call count is ok, but its task's last status is working/)]);
  }, 60_000);
});

describe('a task call cut by --timeout-ms (caplab serve --http)', () => {
  test('unknown with its taskId (timeout/task_deadline, exit 4), one tools/call and one tasks/cancel; verified; probe --task-status of it later exits 0', async () => {
    const served = await startServe();
    try {
      const dir = scratchDir('caplab-configured-tasks-');
      const ran = await run(dir, { type: 'http', url: served.url }, writeCount(dir, 5_000, false), ['--timeout-ms', '400']);
      expect([ran.code, ran.stderr]).toEqual([4, expect.any(String)]);
      const all = events(ran.out);
      const calls = all.filter((e) => e.type === 'call');
      expect(calls).toHaveLength(1);
      const call = calls[0]!;
      expect(call['outcome']).toMatchObject({ ok: false, class: 'timeout', kind: 'task_deadline' });
      const taskId = call['task'].taskId as string;
      expect(call['outcome'].message).toContain(taskId);
      expect(call['task'].cancel.answer).toEqual({ status: 'cancelled' });
      expect(call['task'].result).toBeNull();
      const verified = await verifyJson(ran.out);
      expect([verified.code, verified.doc.verified]).toEqual([0, true]);
      const later = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--task-status', taskId]);
      expect(later.report.taskStatus).toMatchObject({ taskId, status: 'cancelled', terminal: true });
      expect(later.code).toBe(0);
    } finally {
      await served.stop();
    }
  }, 60_000);
});
