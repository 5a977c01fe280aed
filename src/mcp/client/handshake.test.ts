import { describe, expect, test } from 'bun:test';
import { startStrictSession, type SessionTimeouts } from './strict-session.ts';
import { memoryServer } from '../../excerpt/testing/memory-server.ts';
import { MISBEHAVE_TOOL, type Mode } from '../../excerpt/testing/misbehave-server.ts';

/**
 * The fixed-profile handshake over the misbehaving server in memory (no
 * process). A refused handshake closes the connection itself. A banner
 * before initialize (bytes, not a message) and a server that cannot start
 * are the stdio client's, in client.test.ts.
 */
const TIMEOUTS: SessionTimeouts = { handshakeMs: 5_000, callMs: 5_000 };

async function open(mode: Mode, timeouts: Partial<SessionTimeouts> = {}) {
  const server = memoryServer(mode);
  const session = await startStrictSession(server.transport, { tools: [MISBEHAVE_TOOL], timeouts: { ...TIMEOUTS, ...timeouts } });
  return { server, session };
}

describe('fixed-profile handshake refuses, and closes the connection', () => {
  test.each([
    ['version', 'version_mismatch', 'caplab host rule'],
    ['cursor', 'pagination_unsupported', 'caplab host rule'],
    ['extra_tool', 'unexpected_tools', 'caplab host rule'],
    ['drift', 'tool_drift', 'caplab host rule'],
  ] as const)('%s → protocol/%s (basis: %s)', async (mode, kind, basis) => {
    const { server, session } = await open(mode);
    expect(session).toMatchObject({ ok: false, class: 'protocol', kind, basis });
    expect(server.closed()).toBe(true);
  });

  test('a well-behaved server passes: initialize at 2025-06-18, initialized, one tools/list page with exactly the pinned tool', async () => {
    const { server, session } = await open('ok');
    if (!session.ok) throw new Error(session.message);
    expect(session.value).toMatchObject({ serverInfo: { name: 'misbehave-ok', version: '0.0.1' }, protocolVersion: '2025-06-18' });
    expect(session.value.tools.map((tool) => tool.name)).toEqual(['read_source']);
    expect(server.received.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(server.received[0]).toMatchObject({ id: 1, params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'caplab-strict-client' } } });
    await session.value.close();
    expect(server.closed()).toBe(true);
  });

  test('a server that never answers initialize → timeout within the configured limit', async () => {
    const { server, session } = await open('silent_init', { handshakeMs: 200 });
    expect(session).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(server.closed()).toBe(true);
  });

  test('initialize is never cancelled: a timeout closes the session instead of sending notifications/cancelled', async () => {
    const { server, session } = await open('silent_init', { handshakeMs: 300 });
    expect(session).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    if (session.ok) return;
    expect(session.message).toContain('session closed (initialize is never cancelled)');
    // The server logs every message it received.
    expect(server.stderr()).toContain('"method":"initialize"');
    expect(server.stderr()).not.toContain('notifications/cancelled');
    expect(server.received.map((m) => m.method)).toEqual(['initialize']);
    expect(server.closed()).toBe(true);
  });
});
