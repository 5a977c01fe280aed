import { expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { spawnChild } from '../wire/index.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { openHttpServeClient, readListening } from './http-client.ts';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
}

test('the listening line gives the URL, even split across chunks; what follows is read and dropped', async () => {
  expect(await readListening(streamOf('listening http://127.0.0.1:', '4711/mcp\nmore\n'), 5_000)).toEqual({ ok: true, value: 'http://127.0.0.1:4711/mcp' });
  expect(await readListening(streamOf('listening http://[::1]:80/mcp\n'), 5_000)).toEqual({ ok: true, value: 'http://[::1]:80/mcp' });
});

test('a URL off loopback, off /mcp, a long line, no line, or none in time: each a failure, never a URL', async () => {
  const kind = async (stream: ReadableStream<Uint8Array>, ms = 5_000) => {
    const read = await readListening(stream, ms);
    return read.ok ? read.value : `${read.class}/${read.kind}`;
  };
  expect(await kind(streamOf('listening http://10.0.0.1:4711/mcp\n'))).toBe('spawn/spawn_failed');
  expect(await kind(streamOf('listening http://127.0.0.1:4711/other\n'))).toBe('spawn/spawn_failed');
  expect(await kind(streamOf('listening https://127.0.0.1:4711/mcp\n'))).toBe('spawn/spawn_failed');
  expect(await kind(streamOf('x'.repeat(LIMITS.serveLineBytes + 1)))).toBe('spawn/spawn_failed');
  expect(await kind(streamOf('listening http://127.0.0.1:4711/mcp'))).toBe('spawn/exited_early');
  expect(await kind(new ReadableStream({ start() {} }), 20)).toBe('timeout/deadline');
});

test('a server whose first line is not a loopback listening line is stopped and its group gone; the token it was given shows only redacted', async () => {
  let pid = 0;
  const opened = await openHttpServeClient({
    key: 'k',
    // Prints a foreign URL, then would serve forever.
    launch: { command: ['/bin/sh', '-c', 'echo "listening http://192.0.2.1:80/mcp"; echo "token $T" >&2; exec sleep 30'], cwd: '/', env: {} },
    tools: [],
    tokenEnv: 'T',
    spawn: (launch) => {
      const child = spawnChild(launch);
      if (child.ok) pid = child.value.pid;
      return child;
    },
    timeouts: { exitMs: 50, termMs: 500, killMs: 500 },
  });
  expect(opened.ok).toBe(false);
  if (opened.ok) return;
  expect(`${opened.class}/${opened.kind}`).toBe('spawn/spawn_failed');
  // The token the server was given reaches a failure's stderr tail only redacted.
  expect(opened.issues?.join('\n')).toContain('token [redacted:T]');
  expect(isRunning(pid)).toBe(false);
});
