/**
 * probe against a misbehaving 2025-11-25 task server (src/mcp/probe/testing/
 * task-hostile.ts), one mode per way a task breaks the revision: each is its
 * own kind, the tools/call is sent once, and polling stays bounded.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const ROOT = join(import.meta.dir, '../..');
const SERVER = join(ROOT, 'src/mcp/probe/testing/task-hostile.ts');

async function probeMode(mode: string, timeoutMs = 10_000, args = '{}'): Promise<{ code: number; call: Record<string, unknown>; methods: string[] }> {
  const methodsLog = join(scratchDir('caplab-task-hostile-'), 'methods.log');
  const io = testIo(ROOT, { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  const code = await cli(['probe', '--json', '--protocol', '2025-11-25', '--timeout-ms', String(timeoutMs), '--call', 'slow', '--args', args, '--', process.execPath, SERVER, mode, methodsLog], io);
  const report = JSON.parse(io.out());
  let methods: string[] = [];
  try {
    methods = readFileSync(methodsLog, 'utf8').split('\n').filter(Boolean);
  } catch {
    // nothing was asked
  }
  return { code, call: report.calls[0], methods };
}

const kinds = (call: Record<string, unknown>) => (call['findings'] as { kind: string }[]).map((f) => f.kind);
const count = (methods: string[], method: string) => methods.filter((m) => m === method).length;

describe('probe against a misbehaving task server', () => {
  test.each([
    ['terminal_to_working', 'task_transition'],
    ['first_completed', 'task_first_status'],
    ['long_task_id', 'task_id'],
  ])('%s: protocol/%s, outcome unknown (exit 4), one tools/call', async (mode, kind) => {
    const { code, call, methods } = await probeMode(mode);
    expect(call['outcome']).toBe('unknown');
    expect(kinds(call)).toContain(kind);
    expect(code).toBe(4);
    expect(count(methods, 'tools/call')).toBe(1);
  });

  test('no related-task _meta: a finding (exit 1), the result still judged', async () => {
    const { code, call } = await probeMode('no_related_meta');
    expect([call['outcome'], call['text'], kinds(call), code]).toEqual(['result', 'done', ['task_related_meta'], 1]);
  });

  test('pollInterval 0: held to the floor (task_poll_interval), the task completes', async () => {
    const { call } = await probeMode('poll_zero');
    expect(call['outcome']).toBe('result');
    expect(kinds(call)).toEqual(['task_poll_interval']);
    expect((call['task'] as { transitions: { status: string }[] }).transitions.map((t) => t.status)).toEqual(['working', 'completed']);
  });

  test('never terminal: polling bounded by the deadline and the floor, one tasks/cancel, outcome unknown with the taskId', async () => {
    const timeoutMs = 600;
    const { code, call, methods } = await probeMode('never_terminal', timeoutMs);
    expect(call['outcome']).toBe('unknown');
    expect(kinds(call)).toEqual(['task_poll_interval', 'task_deadline']);
    expect((call['findings'] as { evidence: string }[])[1]!.evidence).toBe('taskId task-1');
    expect(count(methods, 'tasks/get')).toBeLessThanOrEqual(timeoutMs / LIMITS.taskPollFloorMs + 1);
    expect([count(methods, 'tools/call'), count(methods, 'tasks/cancel'), count(methods, 'tasks/result')]).toEqual([1, 1, 0]);
    expect(code).toBe(4);
  });

  test('arguments that fail the inputSchema answered by a JSON-RPC error: protocol/input_error_channel (spec SHOULD); valid ones refused so: none', async () => {
    const bad = await probeMode('rpc_input_error', 10_000, '{"n":"x"}');
    expect(bad.call['outcome']).toBe('rpc_error');
    expect(kinds(bad.call)).toEqual(['jsonrpc_error', 'input_error_channel']);
    const good = await probeMode('rpc_input_error', 10_000, '{"n":1}');
    expect(kinds(good.call)).toEqual(['jsonrpc_error']);
  });
});
