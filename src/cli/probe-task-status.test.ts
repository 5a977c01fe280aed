/**
 * `caplab probe --task-status ID`: over `serve --http` (one server, many
 * sessions: a task made in one probe is known to the next), and over stdio
 * (a new process knows no earlier task: exit 4).
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { ROOT, startServe } from './testing/serve-http.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { probeJson } from './testing/probe-json.ts';


describe('probe --task-status', () => {
  test('serve --http: a count_words task cut by --timeout-ms is unknown with its taskId; --task-status of it later exits 0 (cancelled, terminal)', async () => {
    const served = await startServe();
    try {
      const cut = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--timeout-ms', '300', '--call', 'count_words', '--args', '{"source_id":"alpha","delay_ms":5000}']);
      const call = cut.report.calls[0];
      expect(call.outcome).toBe('unknown');
      expect(call.findings.map((f: { kind: string }) => f.kind)).toEqual(['task_deadline']);
      expect(call.task.cancel.answer).toEqual({ status: 'cancelled' });
      expect(cut.code).toBe(4);
      const taskId = call.task.taskId as string;
      const later = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--task-status', taskId]);
      expect(later.report.taskStatus).toMatchObject({ taskId, status: 'cancelled', terminal: true });
      expect(later.report.tools).toEqual([]);
      expect(later.code).toBe(0);
    } finally {
      await served.stop();
    }
  }, 60_000);

  test('serve --http: a working task exits 4, the completed one 0 with its text', async () => {
    const served = await startServe();
    try {
      // A long timeout here: the call completes, so the task is known and completed when asked about.
      const done = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--call', 'count_words', '--args', '{"source_id":"alpha","delay_ms":200}']);
      const taskId = done.report.calls[0].task.taskId as string;
      expect(done.report.calls[0].task.transitions.map((t: { status: string }) => t.status)).toEqual(['working', 'completed']);
      const asked = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--task-status', taskId]);
      expect(asked.report.taskStatus).toMatchObject({ taskId, status: 'completed', terminal: true, result: { isError: false } });
      expect(JSON.parse(asked.report.taskStatus.result.text)).toMatchObject({ source_id: 'alpha' });
      expect(asked.code).toBe(0);
      // A task still working: the SDK client starts one (5 s of work) and leaves it; probe sees it working.
      const client = new Client({ name: 'caplab-task-status', version: '0.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      const stream = client.experimental.tasks.callToolStream({ name: 'count_words', arguments: { source_id: 'alpha', delay_ms: 5_000 } }, undefined, { task: { ttl: 60_000 } });
      const created = (await stream.next()).value as { task: { taskId: string } };
      await stream.return(undefined);
      await client.close();
      const working = await probeJson(['--url', served.url, '--protocol', '2025-11-25', '--task-status', created.task.taskId]);
      expect(working.report.taskStatus).toMatchObject({ status: 'working', terminal: false });
      expect(working.code).toBe(4);
    } finally {
      await served.stop();
    }
  }, 60_000);

  test('stdio: a new process knows no earlier task: unknown to the server, exit 4', async () => {
    const { code, report } = await probeJson(['--protocol', '2025-11-25', '--task-status', 'no-such-task', '--', process.execPath, join(ROOT, 'src/main.ts'), 'serve']);
    expect(report.taskStatus).toMatchObject({ taskId: 'no-such-task', unknownToServer: { code: -32602 } });
    expect(code).toBe(4);
  }, 60_000);

  test('usage: with --call, or an over-long id', async () => {
    for (const args of [['--task-status', 'x', '--call', 'y', '--', 'z'], ['--task-status', 'x'.repeat(300), '--', 'z']]) {
      const io = testIo(ROOT, { PATH: '/usr/bin:/bin' });
      expect(await cli(['probe', ...args], io)).toBe(2);
    }
  });
});
