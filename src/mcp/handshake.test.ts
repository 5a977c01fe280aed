import { describe, expect, test } from 'bun:test';
import { READ_SOURCE_EXPECTED } from '../excerpt/mcp-read-source.ts';
import { spawnChild, type SpawnFn } from './child.ts';
import { openStrictClient } from './client.ts';
import type { Launch } from './launch.ts';
import { FAST, isRunning, misbehaveLaunch } from './testing/servers.ts';

/** Opens a client and remembers the pid it spawned, so /proc can be checked afterwards. */
async function open(launch: Launch) {
  const pids: number[] = [];
  const spawn: SpawnFn = (l) => {
    const child = spawnChild(l);
    if (child.ok) pids.push(child.value.pid);
    return child;
  };
  const client = await openStrictClient({ launch, tools: [READ_SOURCE_EXPECTED], timeouts: FAST, spawn });
  return { client, pids };
}

describe('fixed-profile handshake refuses, and leaves no process behind', () => {
  test.each([
    ['banner', 'framing', 'spec MUST'],
    ['version', 'version_mismatch', 'caplab host rule'],
    ['cursor', 'pagination_unsupported', 'caplab host rule'],
    ['extra_tool', 'unexpected_tools', 'caplab host rule'],
    ['drift', 'tool_drift', 'caplab host rule'],
  ] as const)('%s → protocol/%s (basis: %s)', async (mode, kind, basis) => {
    const { client, pids } = await open(misbehaveLaunch(mode));
    expect(client).toMatchObject({ ok: false, class: 'protocol', kind, basis });
    expect(pids).toHaveLength(1);
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a well-behaved server passes and reports its identity', async () => {
    const { client, pids } = await open(misbehaveLaunch('ok'));
    if (!client.ok) throw new Error(client.message);
    expect(client.value.identity).toMatchObject({ name: 'misbehave-ok', version: '0.0.1', protocolVersion: '2025-06-18' });
    expect(client.value.identity.launch).toEqual(misbehaveLaunch('ok').command);
    const report = await client.value.close();
    expect(report.steps).toEqual(['stdin_end']);
    expect(report.exitCode).toBe(0);
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a command that cannot be started → spawn/spawn_failed', async () => {
    const { client, pids } = await open({ command: ['/nonexistent/caplab-server'], cwd: '/', env: {} });
    expect(client).toMatchObject({ ok: false, class: 'spawn', kind: 'spawn_failed' });
    expect(pids).toHaveLength(0);
  });

  test('a server that exits before answering → spawn/exited_early, with its stderr kept', async () => {
    const launch = { command: [process.execPath, '-e', 'console.error("no config"); process.exit(2)'], cwd: '/', env: {} };
    const { client, pids } = await open(launch);
    expect(client).toMatchObject({ ok: false, class: 'spawn', kind: 'exited_early' });
    expect(!client.ok && client.issues?.join('\n')).toContain('no config');
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a server that never answers initialize → timeout within the configured limit', async () => {
    const launch = { command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], cwd: '/', env: {} };
    const pids: number[] = [];
    const client = await openStrictClient({
      launch,
      tools: [READ_SOURCE_EXPECTED],
      timeouts: { ...FAST, handshakeMs: 200 },
      spawn: (l) => {
        const child = spawnChild(l);
        if (child.ok) pids.push(child.value.pid);
        return child;
      },
    });
    expect(client).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('initialize is never cancelled: a timeout closes the session instead of sending notifications/cancelled', async () => {
    const pids: number[] = [];
    const client = await openStrictClient({
      launch: misbehaveLaunch('silent_init'),
      tools: [READ_SOURCE_EXPECTED],
      timeouts: { ...FAST, handshakeMs: 300 },
      spawn: (l) => {
        const child = spawnChild(l);
        if (child.ok) pids.push(child.value.pid);
        return child;
      },
    });
    expect(client).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    if (client.ok) return;
    expect(client.message).toContain('session closed (initialize is never cancelled)');
    // The server logs every line it received; close() returns after its stderr ended.
    const received = (client.issues ?? []).join('\n');
    expect(received).toContain('"method":"initialize"');
    expect(received).not.toContain('notifications/cancelled');
    expect(isRunning(pids[0]!)).toBe(false);
  });
});
