/**
 * The SDK 1.x client's `experimental.tasks` against `caplab serve` (from
 * source, stdio): it offers 2025-11-25, so it is given count_words and the
 * tasks capability, runs count_words as a task to `completed` (the result
 * through `tasks/result`), and cancels another. The SDK is test-only here.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sourceById } from '../excerpt/snapshot.ts';
import { fixtureSnapshot } from '../excerpt/sources.ts';

const ROOT = join(import.meta.dir, '../..');
const ENV = { PATH: '/usr/bin:/bin' };

async function withServe<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'src/main.ts'), 'serve'], env: ENV, cwd: ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'caplab-task-peer', version: '0.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const words = (id: string): number => sourceById(fixtureSnapshot(), id)!.text.split(/\s+/).filter((w) => w !== '').length;

describe('the SDK client runs count_words as a task on caplab serve', () => {
  test('initialize at 2025-11-25 declares tasks (cancel, tools.call; no list); the task goes working → completed, its result the word count', async () => {
    await withServe(async (client) => {
      expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
      const seen: string[] = [];
      let result: Record<string, unknown> | undefined;
      for await (const message of client.experimental.tasks.callToolStream({ name: 'count_words', arguments: { source_id: 'alpha', delay_ms: 300 } }, undefined, { task: { ttl: 60_000 } })) {
        if (message.type === 'taskCreated') seen.push(`created ${message.task.status}`);
        if (message.type === 'taskStatus') seen.push(message.task.status);
        if (message.type === 'result') result = message.result as Record<string, unknown>;
        if (message.type === 'error') throw message.error;
      }
      expect(seen[0]).toBe('created working');
      expect(seen.at(-1)).toBe('completed');
      expect(result?.['structuredContent']).toEqual({ source_id: 'alpha', words: words('alpha') });
    });
  }, 30_000);

  test('a second task is cancelled while working: tasks/get says cancelled, a second cancel is refused', async () => {
    await withServe(async (client) => {
      const stream = client.experimental.tasks.callToolStream({ name: 'count_words', arguments: { source_id: 'alpha', delay_ms: 5_000 } }, undefined, { task: { ttl: 60_000 } });
      const first = await stream.next();
      const created = first.value as { type: string; task: { taskId: string } };
      expect(created.type).toBe('taskCreated');
      const taskId = created.task.taskId;
      expect(taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      await stream.return(undefined);
      const cancelled = await client.experimental.tasks.cancelTask(taskId);
      expect(cancelled.status).toBe('cancelled');
      expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
      await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already ended/);
    });
  }, 30_000);

  test('a plain call of count_words answers at once', async () => {
    const result = await withServe((client) => client.callTool({ name: 'count_words', arguments: { source_id: 'alpha' } }));
    expect(result.structuredContent).toEqual({ source_id: 'alpha', words: words('alpha') });
  }, 30_000);
});
