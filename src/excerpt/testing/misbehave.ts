/**
 * TEST ONLY — a raw MCP stdio server with misbehaviour switches. Run as
 * `bun misbehave.ts MODE`. It writes bytes itself (no SDK) so it can break
 * the protocol exactly where a test needs it. Never imported by shipped code.
 * What it answers is `misbehave-server.ts`; what only a process can do
 * (a banner, dying at start, ignoring SIGTERM, forking, no longer reading
 * its stdin: `deaf`, `ping_flood`) is here.
 */
import { closeSync, readdirSync, readlinkSync, writeSync } from 'node:fs';
import { misbehaver, MODES, type Mode, type Received } from './misbehave-server.ts';

export type { Mode } from './misbehave-server.ts';

const mode = (process.argv[2] ?? 'ok') as Mode;
if (!MODES.includes(mode)) throw new Error(`unknown mode ${mode}`);
const encoder = new TextEncoder();

function out(bytes: Uint8Array | string): void {
  const data = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(1, data, offset);
}

/** What this process holds, for the fd/env test: fds with their targets, env names. */
function report(): string {
  const fds = readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [{ fd: Number(fd), target: readlinkSync(`/proc/self/fd/${fd}`) }];
    } catch {
      return []; // the directory handle used for this listing, already closed
    }
  });
  return JSON.stringify({ fds, env: Object.keys(process.env).sort(), pid: process.pid });
}

const handle = misbehaver(mode, {
  send: (message) => out(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
  raw: out,
  log: (text) => void process.stderr.write(text),
  exit: (code) => process.exit(code),
  report,
  token: process.env['GITHUB_TOKEN'],
});

if (mode === 'banner') out('Fixture server v0 starting…\n');
if (mode === 'die_start') {
  process.stderr.write('fatal: cannot find ./config.toml\n');
  process.exit(7);
}
// A cold start (an `npx` install, a JIT warm-up): nothing is read for 400 ms.
if (mode === 'slow_start') await new Promise((resolve) => setTimeout(resolve, 400));
if (mode === 'echo_env') process.stderr.write(`GITHUB_TOKEN=${process.env['GITHUB_TOKEN'] ?? '(unset)'}\n`);
if (mode === 'ignore_term') {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1_000);
}
if (mode === 'grandchild') {
  // Same process group (not detached), holding our stdout open: it outlives this
  // server, and keeps the client's stdout pipe from reaching EOF, unless the group is killed.
  const grandchild = Bun.spawn([process.execPath, '-e', 'setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'ignore'], env: {} });
  process.stderr.write(`grandchild=${grandchild.pid}\n`);
  grandchild.unref();
}

if (mode === 'setsid_grandchild') {
  // In a session of its own (detached: setsid), so no group signal reaches it: only a child
  // subreaper finds it once this server is gone. argv[3] is a marker a test can find it by.
  const escaped = Bun.spawn([Bun.which('sleep') ?? '/bin/sleep', process.argv[3] ?? '605.5'], { stdio: ['ignore', 'ignore', 'ignore'], env: {}, detached: true });
  process.stderr.write(`escaped=${escaped.pid}\n`);
  escaped.unref();
}

/** Pings the client with `count` requests of 512 KB ids, then reads nothing more and stays: its answers pile up in the pipe. */
async function pingFlood(count: number): Promise<never> {
  for (let i = 0; i < count; i++) out(`${JSON.stringify({ jsonrpc: '2.0', id: `${i}:${'p'.repeat(512 * 1024)}`, method: 'ping' })}\n`);
  setInterval(() => {}, 1_000);
  return new Promise<never>(() => {});
}

for await (const line of console) {
  if (line === '') continue; // the iterator yields an empty tail after the last newline
  const message = JSON.parse(line) as Received;
  if (mode === 'ping_flood' && message.method === 'initialize') await pingFlood(Number(process.argv[3] ?? 16));
  // Stops reading for good before it answers the listing (stdin closed, so the client's next write
  // breaks the pipe, whatever the timing), but stays, stdout open.
  const deaf = mode === 'deaf' && message.method === 'tools/list';
  if (deaf) closeSync(0);
  await handle(message);
  if (deaf) {
    setInterval(() => {}, 1_000);
    break;
  }
}
