/**
 * Hostile servers that break how probe reads and writes (issue 20, "Stricter
 * reading" and the stdin half of "No crash, nothing left"), against the real
 * program: `caplab probe --json` is spawned from source with a temp folder of
 * its own, so a crash (a stack trace, an exit that is not the report's) and
 * anything left behind (a `caplab-probe-*` folder, a server process) show.
 */
import { afterEach, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { killAllWith, waitNoneWith } from '../platform/testing/find.ts';
import { misbehaveLaunch } from '../excerpt/testing/misbehave-launch.ts';

const main = join(import.meta.dir, '../main.ts');
const markers: string[] = [];

afterEach(() => {
  for (const marker of markers.splice(0)) killAllWith(marker);
});

/** An argument no other process carries, appended to the server's command so its processes can be found. */
function marker(): string {
  const m = `caplab-reading-${process.pid}-${markers.length}-${Math.floor(Math.random() * 1e9)}`;
  markers.push(m);
  return m;
}

/** Runs `caplab probe --json ARGS -- <misbehave MODE EXTRA… MARKER>` and checks what every hostile case must hold. */
async function probeHostile(mode: string, args: readonly string[], extra: readonly string[] = []) {
  const tmp = scratchDir('caplab-reading-tmp-');
  const tag = marker();
  const server = [...misbehaveLaunch(mode as never).command, ...extra, tag];
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmp };
  const child = Bun.spawn([process.execPath, main, 'probe', '--json', '--timeout-ms', '10000', '--startup-timeout-ms', '10000', ...args, '--', ...server], {
    cwd: '/',
    env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // No stack trace, no runtime banner: a crash shows as either.
  expect(stderr).not.toMatch(/^\s+at |^Bun v\d/m);
  // One JSON document on stdout, whose exit is the process's.
  const report = JSON.parse(stdout) as { exit: number; failure?: { kind: string; message: string }; calls: { outcome: string; findings: { kind: string; message: string }[] }[]; hint?: string };
  expect(code).toBe(report.exit);
  expect(readdirSync(tmp).filter((name) => name.startsWith('caplab-probe-'))).toEqual([]);
  expect(await waitNoneWith(tag)).toEqual([]);
  return report;
}

const READ = ['--call', 'read_source', '--args', '{"source_id":"alpha"}'];

test('a server that stops reading (closes stdin) before a call too big for the pipe: connection_lost "server stopped reading", outcome unknown, exit 4', async () => {
  const big = JSON.stringify({ source_id: 'x'.repeat(100_000) });
  const report = await probeHostile('deaf', ['--call', 'read_source', '--args', big]);
  expect(report.exit).toBe(4);
  expect(report.calls).toEqual([expect.objectContaining({ outcome: 'unknown', findings: [expect.objectContaining({ kind: 'connection_lost' })] })]);
  expect(report.calls[0]!.findings[0]!.message).toContain('server stopped reading');
});

test('a server that pings with 512 KB ids and reads nothing: its answers stop at mcpUnsentBytes, closed/peer_not_reading, no hint that it exited (exit 3)', async () => {
  const report = await probeHostile('ping_flood', [], ['16']);
  expect(report.failure).toMatchObject({ kind: 'peer_not_reading' });
  expect([report.exit, report.hint]).toEqual([3, undefined]);
});

test('a response id written 3.0 matches no request (unknown_id), a key twice is duplicate_key: the session ends, exit 3', async () => {
  const float = await probeHostile('float_id', READ);
  expect([float.exit, float.failure?.kind, float.calls[0]?.findings[0]?.kind]).toEqual([3, 'unknown_id', 'unknown_id']);
  const twice = await probeHostile('dup_key', READ);
  expect([twice.exit, twice.failure?.kind]).toEqual([3, 'duplicate_key']);
});

test('isError "true" and content blocks without what their type requires are malformed_result findings (exit 1)', async () => {
  for (const mode of ['is_error_string', 'bad_blocks']) {
    const report = await probeHostile(mode, READ);
    expect([mode, report.exit, report.calls.map((call) => [call.outcome, call.findings.map((f) => f.kind)])]).toEqual([mode, 1, [['failed', ['malformed_result']]]]);
  }
});
