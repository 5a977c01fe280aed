/**
 * Servers the HTTP bench starts that print `listening http://HOST:PORT/mcp`
 * (sdk-http-server.ts, hostile-http.ts, echo-http.ts, `caplab serve --http`):
 * spawned with their stdin held open, their first stdout line read, stopped by
 * ending stdin (each exits on its EOF) and, past a grace, SIGKILL. And the
 * check the bench owes after them: the port refuses (sockets are counted by
 * src/mcp/wire/testing/http-peer.ts's `socketCount`, TCP only).
 */
import type { Track } from './servers.ts';

export interface Listening {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Ends its stdin, waits for it to exit (SIGKILL after `graceMs`); resolves with its exit code. Once: later calls get the same. */
  stop(graceMs?: number): Promise<number | null>;
}

/** Reads the first line of a stream (a `listening` line is short; 4 KiB is plenty). */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  while (!text.includes('\n') && text.length < 4096) {
    const read = await reader.read();
    if (read.done) break;
    text += new TextDecoder().decode(read.value);
  }
  // The rest is read and dropped, so the server never blocks on a full pipe.
  void (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read());
  })().catch(() => undefined);
  return text.split('\n')[0]!;
}

/** Starts `argv` (cwd `/`, only `env`), reads its `listening` line; a server that prints none is killed and the error names its stderr. */
export async function spawnListening(argv: readonly string[], track: Track, env: Record<string, string> = {}): Promise<Listening> {
  const proc = track(Bun.spawn([...argv], { cwd: '/', env: { PATH: '/usr/bin:/bin', ...env }, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' }));
  const stderr = new Response(proc.stderr).text();
  const line = await firstLine(proc.stdout);
  const match = /^listening (http:\/\/127\.0\.0\.1:(\d+)\/mcp)$/.exec(line);
  if (!match) {
    proc.kill('SIGKILL');
    await proc.exited;
    throw new Error(`${argv.join(' ')}: no listening line (${JSON.stringify(line)}); stderr: ${(await stderr).slice(-500)}`);
  }
  let stopping: Promise<number | null> | undefined;
  const stop = (graceMs = 5_000): Promise<number | null> =>
    (stopping ??= (async () => {
      proc.stdin.end();
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await proc.exited;
      clearTimeout(timer);
      return proc.exitCode;
    })());
  return { url: match[1]!, port: Number(match[2]), pid: proc.pid, stop };
}

/** Whether something on loopback accepts a TCP connection on `port`. */
export async function accepts(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {}, error() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/** The servers one bench run started: each spawned through it, so the end can stop any still running and check each port refuses. */
export interface Started {
  spawn(argv: readonly string[], env?: Record<string, string>): Promise<Listening>;
  /** Stops every server still running (a stopped one resolves at once), then lists the ports that still accept a connection. */
  stopAll(): Promise<number[]>;
}

export function startedServers(track: Track): Started {
  const all: Listening[] = [];
  return {
    async spawn(argv, env = {}) {
      const server = await spawnListening(argv, track, env);
      all.push(server);
      return server;
    },
    async stopAll() {
      for (const server of all) await server.stop();
      const open: number[] = [];
      for (const server of all) if (await accepts(server.port)) open.push(server.port);
      return open;
    },
  };
}
