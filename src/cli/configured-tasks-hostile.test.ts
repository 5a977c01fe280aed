/**
 * Audit of task calls in runs (W10, issue 28), as a hostile server and a
 * forger would attack them. First `caplab run --mcp-config` against
 * src/cli/testing/task-server.ts, one mode per way a 2025-11-25 task server
 * misbehaves: each run's exit code and the call's outcome, the tools/call
 * sent exactly once (counted by the server in its methods log), the run dir
 * verified, no server left running. Then SIGINT mid-task. Then re-chained
 * forgeries of real task calls that verify must refuse, each a gap the
 * audit found in task-checks.ts and that it now closes.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { until } from '../../test/until.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { events, serversLeft, toolResultsSeen, writeConfig, writeScenario, type Event } from './testing/configured-kit.ts';
import { rechain, verifyJson } from './verify-test-kit.ts';

const SERVER = join(import.meta.dir, 'testing/task-server.ts');

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly call: Event;
  readonly methods: readonly string[];
  readonly count: (method: string) => number;
}

/** One run of the task server in `mode`: a single call of `mcp__t__slow`, allowed, with `--timeout-ms`. */
async function runMode(dir: string, mode: string, timeoutMs: number, interrupt?: { readonly controller: AbortController; readonly when: (methods: readonly string[]) => boolean }): Promise<Ran> {
  const log = join(dir, `${mode}.methods.log`);
  const mark = `task-hostile-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { t: { command: process.execPath, args: [SERVER, mode, log] } }, `${mode}.mcp.json`);
  const scenario = writeScenario(dir, [[['mcp__t__slow', {}]]], `${mode}.scenario.json`);
  const out = join(dir, `run-${mode}`);
  const methodsNow = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  const io = { ...testIo(dir, { PATH: process.env['PATH'], HOME: process.env['HOME'] }), ...(interrupt ? { interrupt: interrupt.controller.signal } : {}) };
  const running = cli(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__t', '--out', out, '--timeout-ms', String(timeoutMs)], io);
  if (interrupt) {
    await until(() => interrupt.when(methodsNow()), 20_000);
    interrupt.controller.abort('SIGINT');
  }
  const code = await running;
  // Nothing the run started may outlive it.
  expect(await serversLeft(mark)).toEqual([]);
  const call = events(out).find((e) => e.type === 'call')!;
  const methods = methodsNow();
  return { code, out, call, methods, count: (method) => methods.filter((m) => m === method).length };
}

const outcome = (call: Event): string => (call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}`);
const statuses = (call: Event): string[] => (call['task']?.transitions ?? []).map((t: { status: string }) => t.status);

async function expectVerified(out: string): Promise<void> {
  const verified = await verifyJson(out);
  expect([verified.code, verified.doc.verified, verified.doc.error ?? null]).toEqual([0, true, null]);
}

/** A string as the record keeps a server's: at most `evidenceChars` code points, or that many and the cut's marker. */
const CUT = new RegExp(`^[^]{0,${LIMITS.evidenceChars}}(… \\(\\d+ chars\\))?$`, 'u');

interface Case {
  readonly mode: string;
  readonly timeoutMs: number;
  readonly code: number;
  readonly outcome: string;
  /** How many of each request the server received (tools/call is always 1 but in required_no_cap). */
  readonly counts: Readonly<Record<string, number>>;
  readonly more?: (ran: Ran) => void;
}

// Exit 1: the scenario makes no card (not accepted); 4: an unknown outcome.
const CASES: readonly Case[] = [
  {
    mode: 'never_terminal', timeoutMs: 600, code: 4, outcome: 'timeout/task_deadline', counts: { 'tools/call': 1, 'tasks/cancel': 1, 'tasks/result': 0 },
    more: ({ call }) => {
      expect(call['task'].cancel.answer).toEqual({ status: 'cancelled' });
      expect(call.outcome.message).toContain('"task-1"');
    },
  },
  {
    mode: 'terminal_to_working', timeoutMs: 5_000, code: 4, outcome: 'protocol/task_transition', counts: { 'tools/call': 1, 'tasks/cancel': 0, 'tasks/result': 1 },
    more: ({ call }) => expect(statuses(call)).toEqual(['working', 'completed', 'working']),
  },
  {
    mode: 'first_completed', timeoutMs: 5_000, code: 4, outcome: 'protocol/task_first_status', counts: { 'tools/call': 1, 'tasks/get': 0, 'tasks/cancel': 0 },
    more: ({ call }) => expect([call['task'].receipt.status, call['task'].polls]).toEqual(['completed', 0]),
  },
  {
    mode: 'huge_strings', timeoutMs: 5_000, code: 1, outcome: 'ok', counts: { 'tools/call': 1, 'tasks/result': 1, 'tasks/cancel': 0 },
    more: ({ call }) => {
      for (const t of call['task'].transitions) {
        expect([t.lastUpdatedAt, t.statusMessage]).toEqual([expect.stringMatching(CUT), expect.stringMatching(CUT)]);
        expect(t.statusMessage).toEndWith(`… (${10 * 1024} chars)`);
      }
    },
  },
  {
    mode: 'long_task_id', timeoutMs: 5_000, code: 4, outcome: 'protocol/task_id', counts: { 'tools/call': 1, 'tasks/get': 0, 'tasks/cancel': 0 },
    more: ({ call }) => expect([call['task'].taskId, call['task'].receipt]).toEqual([null, null]),
  },
  {
    mode: 'result_hangs', timeoutMs: 800, code: 4, outcome: 'timeout/deadline', counts: { 'tools/call': 1, 'tasks/result': 1, 'tasks/cancel': 0 },
    more: ({ call }) => {
      expect([statuses(call), call['task'].result, call['task'].taskId]).toEqual([['working', 'completed'], null, 'task-1']);
    },
  },
  {
    mode: 'get_error', timeoutMs: 5_000, code: 4, outcome: 'protocol/task_malformed', counts: { 'tools/call': 1, 'tasks/get': 1, 'tasks/cancel': 0 },
  },
  {
    mode: 'exit_mid_poll', timeoutMs: 5_000, code: 4, outcome: 'closed/connection_lost', counts: { 'tools/call': 1, 'tasks/get': 2, 'tasks/cancel': 0 },
    more: ({ call }) => expect([call['task'].taskId, statuses(call)]).toEqual(['task-1', ['working']]),
  },
  {
    mode: 'no_task', timeoutMs: 5_000, code: 4, outcome: 'protocol/task_malformed', counts: { 'tools/call': 1, 'tasks/get': 0 },
    more: ({ call }) => expect(call['task']).toMatchObject({ taskId: null, receipt: null, transitions: [], polls: 0 }),
  },
  {
    mode: 'cancel_hangs', timeoutMs: 500, code: 4, outcome: 'timeout/task_deadline', counts: { 'tools/call': 1, 'tasks/cancel': 1 },
    more: ({ call }) => expect(call['task'].cancel.answer).toEqual({ failure: 'timeout/deadline' }),
  },
  {
    mode: 'failed_plain', timeoutMs: 5_000, code: 1, outcome: 'business/tool_error', counts: { 'tools/call': 1, 'tasks/result': 1, 'tasks/cancel': 0 },
    more: ({ call }) => {
      expect(statuses(call)).toEqual(['working', 'failed']);
      expect(call.protocol.isError).toBe(true);
      expect(call['task'].result).toMatchObject({ related: true });
    },
  },
  {
    mode: 'poll_zero', timeoutMs: 5_000, code: 1, outcome: 'ok', counts: { 'tools/call': 1, 'tasks/get': 5, 'tasks/cancel': 0 },
    // Four waits, each held to the floor, between the receipt's working and completed (the record's own clock).
    more: ({ call }) => {
      const [working, completed] = call['task'].transitions;
      expect(completed.ms - working.ms).toBeGreaterThanOrEqual(3 * LIMITS.taskPollFloorMs);
    },
  },
  {
    mode: 'poll_huge', timeoutMs: 500, code: 4, outcome: 'timeout/task_deadline', counts: { 'tools/call': 1, 'tasks/cancel': 1 },
    // Waited out to the deadline; at most one get slips out with under a millisecond left (the timer fires a little early).
    more: ({ call, count }) => {
      expect(call['task'].receipt.pollInterval).toBe(1e12);
      expect(count('tasks/get')).toBeLessThanOrEqual(1);
    },
  },
  {
    mode: 'required_no_cap', timeoutMs: 5_000, code: 1, outcome: 'precondition/task_unsupported', counts: { 'tools/call': 0 },
    more: ({ call, out }) => {
      expect([call.handler_entered, call['task']]).toEqual([false, undefined]);
      const binding = events(out)[0]!['bindings'].find((b: { tool: string }) => b.tool === 'mcp__t__slow');
      expect(binding.contract.completion).toBeUndefined();
    },
  },
];

describe('caplab run against a hostile task server', () => {
  test('the well-behaved mode: ok, one tools/call, tasks/result and the closing get; verified', async () => {
    const ran = await runMode(scratchDir('caplab-task-hostile-'), 'ok', 5_000);
    expect([ran.code, outcome(ran.call), ran.methods.slice(2)]).toEqual([1, 'ok', ['tools/call', 'tasks/get', 'tasks/get', 'tasks/result', 'tasks/get']]);
    await expectVerified(ran.out);
  }, 30_000);

  for (const c of CASES) {
    test(`${c.mode}: exit ${c.code}, ${c.outcome}, the tools/call sent ${c.counts['tools/call']} time(s); verified, no server left`, async () => {
      const ran = await runMode(scratchDir('caplab-task-hostile-'), c.mode, c.timeoutMs);
      expect([ran.code, outcome(ran.call)]).toEqual([c.code, c.outcome]);
      expect(Object.fromEntries(Object.keys(c.counts).map((m) => [m, ran.count(m)]))).toEqual(c.counts);
      c.more?.(ran);
      await expectVerified(ran.out);
    }, 30_000);
  }

  test('SIGINT mid-task (io.interrupt): exit 130, the tools/call once, verified; the one tasks/cancel reaches the server, timeout/aborted with the taskId', async () => {
    const controller = new AbortController();
    const ran = await runMode(scratchDir('caplab-task-hostile-'), 'never_terminal', 30_000, { controller, when: (methods) => methods.includes('tasks/get') });
    expect([ran.code, ran.count('tools/call'), ran.call['task'].taskId]).toEqual([130, 1, 'task-1']);
    await expectVerified(ran.out);
    // The run closes its servers on the signal; the session waits for the task call giving up (LiveTasks), so its one cancel reaches the server first.
    expect([outcome(ran.call), ran.count('tasks/cancel'), ran.call['task'].cancel?.answer]).toEqual(['timeout/aborted', 1, { status: 'cancelled' }]);
  }, 30_000);

  for (const [mode, timeoutMs] of [['result_hangs', 600], ['exit_mid_poll', 5_000]] as const) {
    test(`${mode}: the unknown outcome the record keeps and the model is told names the taskId`, async () => {
      const ran = await runMode(scratchDir('caplab-task-hostile-'), mode, timeoutMs);
      expect([ran.code, ran.call['task'].taskId]).toEqual([4, 'task-1']);
      // The taskId is in the failure's message (withTaskId), which the call event and the tool_result carry; not only in its issues.
      expect(ran.call.outcome.message).toContain('"task-1"');
      expect(toolResultsSeen(ran.out, 2)['toolu_01']!.texts.join('')).toContain('task-1');
    }, 30_000);
  }

  test('terminal_to_working: the tasks/result the server answered is on record (the trace names each request caplab made)', async () => {
    const ran = await runMode(scratchDir('caplab-task-hostile-'), 'terminal_to_working', 5_000);
    expect([outcome(ran.call), ran.count('tasks/result')]).toEqual(['protocol/task_transition', 1]);
    // traceOf keeps an answered tasks/result whatever came after it (here the closing get's transition).
    expect(ran.call['task'].result).toMatchObject({ jsonrpcId: expect.anything(), related: true });
  }, 30_000);
});

/** A copy of `from` re-chained with its call edited (a deep copy of it), verified. */
async function forge(from: string, edit: (call: Record<string, any>) => void): Promise<{ code: number; verified: boolean; error: string }> {
  const copy = join(scratchDir('caplab-task-forged-'), 'run');
  cpSync(from, copy, { recursive: true });
  rechain(copy, (list) =>
    list.map((e) => {
      if (e.type !== 'call') return e;
      const call = JSON.parse(JSON.stringify(e)) as Record<string, any> & { type: string };
      edit(call);
      return call;
    }),
  );
  const verified = await verifyJson(copy);
  return { code: verified.code, verified: verified.doc.verified, error: `${verified.doc.error?.kind}: ${verified.doc.error?.message}` };
}

describe('re-chained forgeries of task calls that verify must refuse (evidence/task_inconsistent)', () => {
  const runs: Record<string, string> = {};
  // Made outside any test: removed after this block's last test.
  const dir = scratchDir('caplab-task-forge-base-');
  beforeAll(async () => {
    for (const [mode, timeoutMs] of [['ok', 5_000], ['never_terminal', 400], ['first_completed', 5_000], ['terminal_to_working', 5_000]] as const) {
      const ran = await runMode(dir, mode, timeoutMs);
      await expectVerified(ran.out);
      runs[mode] = ran.out;
    }
  }, 60_000);

  // [name, the real run it forges, the edit]. The engine never writes any of these.
  const forgeries: [string, string, (call: Record<string, any>) => void][] = [
    // A control: a forgery task-checks.ts already refuses (the kit forges as the others do).
    ['a deadline without its cancel (control)', 'never_terminal', (c) => void (c['task'].cancel = null)],
    // The record claims every taskId was checked against taskIdBytes; verify does not re-check it.
    ['an ok call whose taskId is 300 bytes (over taskIdBytes)', 'ok', (c) => void (c['task'].taskId = 't'.repeat(300))],
    ['an ok call whose taskId is empty', 'ok', (c) => void (c['task'].taskId = '')],
    // The writer cuts every server string at evidenceChars; verify does not check it.
    ['a statusMessage of 10 KB, never cut', 'ok', (c) => void (c['task'].transitions[0].statusMessage = 'x'.repeat(10 * 1024))],
    // The receipt's ms is taken before its first transition's.
    ['a receipt that came after its first transition', 'ok', (c) => void (c['task'].receipt.ms = c['task'].transitions[1].ms + 5)],
    // Each status after the receipt's came from a tasks/get, and an ok answer from one more (the closing get).
    ['an ok call with fewer polls than it needs (no closing get)', 'ok', (c) => void (c['task'].polls = c['task'].transitions.length - 1)],
    // The tasks/result is its own request: its id is not the tools/call's.
    ["a tasks/result with the tools/call's own JSON-RPC id", 'ok', (c) => void (c['task'].result.jsonrpcId = c['jsonrpc_id'])],
    // The engine cancels only a task it last saw non-terminal.
    ['a deadline (and its cancel) after the task completed', 'never_terminal', (c) => {
      const task = c['task'];
      task.transitions.push({ ...task.transitions[0], status: 'completed', ms: task.cancel.ms - 1 });
    }],
    ['a cancel sent before the task was received', 'never_terminal', (c) => {
      const task = c['task'];
      task.cancel.ms = 0;
      task.receipt.ms = 3;
      task.transitions[0].ms = 3;
    }],
    // An interruption while the task is working always sends the one cancel.
    ['an interruption while working, without its cancel', 'never_terminal', (c) => {
      c['task'].cancel = null;
      c['outcome'].kind = 'aborted';
      c['stages'].at(-1).detail = 'timeout/aborted';
    }],
    // A cancel comes only with task_deadline or aborted, not any timeout.
    ['a cancel under another timeout kind (timeout/deadline)', 'never_terminal', (c) => {
      c['outcome'].kind = 'deadline';
      c['stages'].at(-1).detail = 'timeout/deadline';
    }],
    // The outcome says the task began other than working; the record must show it.
    ['protocol/task_first_status on a task that began working', 'first_completed', (c) => {
      c['task'].receipt.status = 'working';
      c['task'].transitions[0].status = 'working';
    }],
    ['protocol/task_first_status after polls (the engine stops at the receipt)', 'first_completed', (c) => void (c['task'].polls = 3)],
    ['protocol/task_transition without a transition out of a terminal status', 'terminal_to_working', (c) => void (c['task'].transitions = c['task'].transitions.slice(0, 2))],
  ];

  for (const [name, from, edit] of forgeries) {
    test(`${name}: refused`, async () => {
      const forged = await forge(runs[from]!, edit);
      expect([forged.code, forged.verified, forged.error]).toEqual([1, false, expect.stringMatching(/^task_inconsistent: /)]);
    }, 30_000);
  }
});
