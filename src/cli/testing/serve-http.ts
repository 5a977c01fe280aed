/**
 * A real `caplab serve --http` for tests: started from source in a process of
 * its own, its `listening` line read, and taken down after the test with the
 * checks every HTTP test owes (no socket left in the test process, the port
 * refusing connections, no process left).
 */
import { expect, onTestFinished } from 'bun:test';
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../mcp/wire/testing/processes.ts';
import { until } from '../../../test/until.ts';

export const ROOT = join(import.meta.dir, '../../..');
export const MAIN = join(ROOT, 'src/main.ts');
/** A decoy proxy: every fetch here passes `proxy: false`, so nothing may reach it. */
const ENV = { PATH: '/usr/bin:/bin', HTTP_PROXY: 'http://127.0.0.1:9', http_proxy: 'http://127.0.0.1:9' };

/** Sockets this process holds (`/proc/self/fd` links to `socket:[…]`). */
export function socketCount(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) count += 1;
    } catch {
      // the descriptor readdir itself used, already closed
    }
  }
  return count;
}

export interface Served {
  readonly url: string;
  readonly port: number;
  readonly proc: Bun.Subprocess<'pipe', 'pipe', 'pipe'>;
  /** stderr so far (read as it comes). */
  stderr(): string;
  /** stdout after the `listening` line, to its end. */
  rest(): Promise<string>;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/** Whether something accepts a TCP connection on the port (loopback). */
export async function accepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: host, port, socket: { data() {}, error() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<{ line: string; after: string; rest: { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> } }> {
  const reader = stream.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const read = await reader.read();
    if (read.done) break;
    text += new TextDecoder().decode(read.value);
  }
  const end = text.indexOf('\n');
  return { line: end === -1 ? text : text.slice(0, end), after: end === -1 ? '' : text.slice(end + 1), rest: reader };
}

/**
 * Starts `caplab serve --http --port 0 ARGS…` and reads its `listening` line.
 * After the test: stopped (SIGTERM) if still running, then the port refuses,
 * the process is gone and this process holds the sockets it held before.
 */
export async function startServe(args: readonly string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const sockets = socketCount();
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--http', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...ENV, ...env },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let stderr = '';
  void (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const { line, after: leftover, rest } = await firstLine(proc.stdout);
  const match = /^listening (http:\/\/[^/]+:(\d+)\/mcp)$/.exec(line);
  if (!match) {
    proc.kill('SIGKILL');
    throw new Error(`no listening line: ${JSON.stringify(line)}; stderr: ${stderr}`);
  }
  const port = Number(match[2]);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    return proc.exited;
  };
  onTestFinished(async () => {
    await stop();
    expect(await accepts(port)).toBe(false);
    expect(isRunning(proc.pid)).toBe(false);
    await until(() => socketCount() <= sockets);
    expect(socketCount()).toBeLessThanOrEqual(sockets);
  });
  const after = async (): Promise<string> => {
    let text = leftover;
    for (let read = await rest.read(); !read.done; read = await rest.read()) text += new TextDecoder().decode(read.value!);
    return text;
  };
  return { url: match[1]!, port, proc, stderr: () => stderr, rest: after, stop };
}

/** fetch as every test client here calls it: no proxy (Bun's fetch would use HTTP_PROXY even to loopback), no pooled socket kept. */
export function rawFetch(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { connection: 'close', ...init.headers }, proxy: false, redirect: 'manual' } as RequestInit);
}
