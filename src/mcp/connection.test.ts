import { expect, test } from 'bun:test';
import { ok } from '../contract/index.ts';
import type { ChildProcess } from './child.ts';
import { Connection, DEFAULT_CONNECTION_LIMITS } from './connection.ts';

/** An in-memory child whose last stderr line arrives only after it has exited (as a pipe may deliver it). */
function lateStderrChild(): ChildProcess {
  let stderr!: ReadableStreamDefaultController<Uint8Array>;
  let stdout!: ReadableStreamDefaultController<Uint8Array>;
  let exit!: (code: number) => void;
  let exited = false;
  const exitedPromise = new Promise<number | null>((resolve) => (exit = resolve));
  return {
    pid: 0,
    stdout: new ReadableStream({ start: (c) => void (stdout = c) }),
    stderr: new ReadableStream({ start: (c) => void (stderr = c) }),
    write: () => ok(undefined),
    endInput() {
      exited = true;
      exit(0);
      stdout.close();
      setImmediate(() => {
        stderr.enqueue(new TextEncoder().encode('server: stdin closed, exiting\n'));
        stderr.close();
      });
    },
    exited: exitedPromise,
    hasExited: () => exited,
    signal: () => {},
    members: () => [],
  };
}

test('close() returns only after the server stderr has ended, so its last line is kept', async () => {
  const connection = new Connection(lateStderrChild(), DEFAULT_CONNECTION_LIMITS, { exitMs: 1_000, termMs: 1_000, killMs: 1_000 });
  const report = await connection.close();
  expect(report).toEqual({ exitCode: 0, steps: ['stdin_end'], survivors: [], orphans: expect.objectContaining({ killed: [], survivors: [] }) });
  expect(connection.stderr()).toBe('server: stdin closed, exiting\n');
});
