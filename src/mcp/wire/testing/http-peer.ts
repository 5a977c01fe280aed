/**
 * TEST ONLY — runs `hostile-http.ts` as a child process and reads what it saw;
 * counts the test process's sockets (`/proc/self/fd`), so a test can prove the
 * client transport kept none.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
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
  /** Closes its stdin and waits for it to exit (killed if it does not) and for the last line it wrote; true if it is gone. Idempotent. */
  stop(): Promise<boolean>;
}

const SCRIPT = join(import.meta.dir, 'hostile-http.ts');

/** Starts the hostile server in `mode` and waits for its port. */
export async function startHostile(mode: string, arg = ''): Promise<Hostile> {
  const child = Bun.spawn([process.execPath, SCRIPT, mode, arg], { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', env: { PATH: process.env['PATH'] ?? '' } });
  const seen: Seen[] = [];
  let port = 0;
  const reading = (async () => {
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
      // Every line it wrote is in `seen` once its stdout reached EOF.
      await reading;
      return !isRunning(child.pid);
    },
  };
}

/** Inodes of the TCP sockets in this network namespace (`/proc/self/net/tcp`, `tcp6`). */
function tcpInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const inode = row.trim().split(/\s+/)[9];
      if (inode !== undefined) inodes.add(inode);
    }
  }
  return inodes;
}

/**
 * The TCP sockets the test process holds: its `/proc/self/fd` links to
 * `socket:[inode]` that are TCP (a child's stdio are socketpairs, not counted).
 */
export function socketCount(): number {
  const tcp = tcpInodes();
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      return inode !== undefined && tcp.has(inode);
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
