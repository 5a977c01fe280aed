/**
 * probe runs server-everything's `simulate-research-query`
 * (`taskSupport: "required"`) as a 2025-11-25 task; the server's stdin is
 * teed by a small gate that logs each request's method, so the test counts
 * what probe sent. At 2025-06-18 the call goes plain, with the note.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const ROOT = join(import.meta.dir, '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A gate: starts server-everything, copies stdin to it line by line, and logs each request's method to LOG. */
const TEE = `
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const child = Bun.spawn([process.execPath, SERVER, 'stdio'], { stdin: 'pipe', stdout: 'inherit', stderr: 'inherit' });
process.on('SIGTERM', () => { child.kill('SIGTERM'); process.exit(0); });
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id !== undefined) appendFileSync(LOG, message.method + '\\n');
  child.stdin.write(line + '\\n');
}
child.stdin.end();
process.exit(await child.exited);
`;

async function probeResearch(extra: readonly string[]): Promise<{ code: number; report: Record<string, any>; methods: string[] }> {
  const dir = scratchDir('caplab-everything-tasks-');
  const log = join(dir, 'methods.log');
  const gate = join(dir, 'gate.ts');
  writeFileSync(gate, TEE.replace('SERVER', JSON.stringify(EVERYTHING)).replace('LOG', JSON.stringify(log)));
  const io = testIo(ROOT, { PATH: '/usr/bin:/bin' });
  const code = await cli(['probe', '--json', ...extra, '--call', 'simulate-research-query', '--args', '{"topic":"x"}', '--', process.execPath, gate], io);
  const methods = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { code, report: JSON.parse(io.out()), methods };
}

const count = (methods: string[], method: string) => methods.filter((m) => m === method).length;

describe('probe runs simulate-research-query as a task on server-everything', () => {
  test('2025-11-25: working → completed, text "# Research Report…", exit 0, one tools/call, no process left', async () => {
    const { code, report, methods } = await probeResearch(['--protocol', '2025-11-25']);
    const call = report.calls[0];
    expect(report.protocolVersion).toBe('2025-11-25');
    expect(report.tools.find((t: { name: string }) => t.name === 'simulate-research-query').taskSupport).toBe('required');
    expect(call.outcome).toBe('result');
    expect(call.text).toStartWith('# Research Report');
    expect(call.task.transitions.map((t: { status: string }) => t.status)).toEqual(['working', 'completed']);
    expect(call.task.taskId).toMatch(/^\S+$/);
    expect([count(methods, 'tools/call'), count(methods, 'tasks/result'), count(methods, 'tasks/cancel')]).toEqual([1, 1, 0]);
    expect([code, report.exit, call.findings]).toEqual([0, 0, []]);
    expect(report.close.survivors).toEqual([]);
  }, 60_000);

  test('--timeout-ms 1500: one tasks/cancel, outcome unknown with its taskId, exit 4, one tools/call', async () => {
    const { code, report, methods } = await probeResearch(['--protocol', '2025-11-25', '--timeout-ms', '1500']);
    const call = report.calls[0];
    expect(call.outcome).toBe('unknown');
    expect(call.findings.map((f: { kind: string }) => f.kind)).toEqual(['task_deadline']);
    expect(call.findings[0].evidence).toBe(`taskId ${call.task.taskId}`);
    expect(call.task.cancel.answer).toEqual({ status: 'cancelled' });
    expect([count(methods, 'tools/call'), count(methods, 'tasks/cancel'), count(methods, 'tasks/result')]).toEqual([1, 1, 0]);
    expect(code).toBe(4);
    expect(report.close.survivors.filter((pid: number) => isRunning(pid))).toEqual([]);
  }, 60_000);

  test('--protocol 2025-06-18: sent plain, with the note that the tool needs task augmentation', async () => {
    const { report, methods } = await probeResearch(['--protocol', '2025-06-18']);
    const call = report.calls[0];
    expect(call.task).toBeUndefined();
    expect(call.note).toContain('needs task augmentation');
    expect(count(methods, 'tasks/get')).toBe(0);
  }, 60_000);
});
