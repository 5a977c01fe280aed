import { expect, test } from 'bun:test';
import { PassThrough, Writable } from 'node:stream';
import { serve } from '../../excerpt/server/index.ts';

const turns = async (count: number): Promise<void> => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Waits (up to a deadline) for a condition that other work makes true. */
async function until(condition: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('serve stops reading stdin while stdout holds its answers, and answers everything once they are taken', async () => {
  const REQUESTS = 20_000;
  const stdin = new PassThrough();
  // A client that stops reading: every write is held until released.
  const held: (() => void)[] = [];
  let reading = false;
  let answers = 0;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      answers += chunk.toString().split('\n').length - 1;
      if (reading) callback();
      else held.push(() => callback());
    },
  });
  const stderr = new PassThrough();
  stderr.resume();
  const exit = serve({ stdin, stdout, stderr });
  const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
  let sent = 0;
  const writer = (async () => {
    while (sent < REQUESTS) {
      sent += 1;
      if (!stdin.write(line)) await new Promise((resolve) => stdin.once('drain', resolve));
    }
    stdin.end();
  })();
  // The client is now blocked on a full stdin: the server stopped reading it.
  await until(() => stdout.writableLength > 0 && stdin.writableNeedDrain, 'a stalled client');
  await turns(50);
  expect(sent).toBeLessThan(REQUESTS);
  // What waits unread stays near the 1 MiB bound (plus one input chunk's answers), not 20k answers (~24 MB).
  expect(stdout.writableLength).toBeLessThan(4 * 1024 * 1024);
  reading = true;
  for (const release of held.splice(0)) release();
  await writer;
  expect(await exit).toBe(0);
  expect(answers).toBe(REQUESTS);
});
