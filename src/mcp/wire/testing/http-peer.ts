/**
 * TEST ONLY — runs `hostile-http.ts` as a child process and reads what it saw;
 * counts the test process's sockets (`/proc/self/fd`), so a test can prove the
 * client transport kept none.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../../../../test/until.ts';
import { isRunning } from './processes.ts';

/** One request the hostile server got (or, as `decoy`, one connection). */
export interface Seen {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: { readonly jsonrpc?: string; readonly id?: unknown; readonly method?: string; readonly result?: unknown } | null;
  readonly connection?: true;
}

export interface Hostile {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** What it saw so far, in order. */
  readonly seen: Seen[];
  /** Closes its stdin and waits for it to exit (killed if it does not); true if it is gone. */
  stop(): Promise<boolean>;
}

const SCRIPT = join(import.meta.dir, 'hostile-http.ts');

/** Starts the hostile server in `mode` and waits for its port. */
export async function startHostile(mode: string, arg = ''): Promise<Hostile> {
  const child = Bun.spawn([process.execPath, SCRIPT, mode, arg], { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', env: { PATH: process.env['PATH'] ?? '' } });
  const seen: Seen[] = [];
  let port = 0;
  void (async () => {
    let buffered = '';
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
        const entry = JSON.parse(buffered.slice(0, nl)) as Seen & { port?: number };
        buffered = buffered.slice(nl + 1);
        if (entry.port !== undefined) port = entry.port;
        else seen.push(entry);
      }
    }
  })();
  await until(() => port !== 0, 10_000);
  if (port === 0) throw new Error(`hostile server (${mode}) announced no port`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    pid: child.pid,
    seen,
    async stop() {
      void child.stdin.end();
      await Promise.race([child.exited, Bun.sleep(5_000)]);
      if (isRunning(child.pid)) child.kill('SIGKILL');
      await child.exited;
      return !isRunning(child.pid);
    },
  };
}

/** The test process's open sockets. */
export function socketCount(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}

/** Waits (with a deadline) until the test process holds no more sockets than `baseline`, and returns the count. */
export async function socketsBackTo(baseline: number): Promise<number> {
  await until(() => socketCount() <= baseline, 5_000);
  return socketCount();
}
