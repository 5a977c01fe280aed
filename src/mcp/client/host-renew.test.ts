import { afterEach, expect, test } from 'bun:test';
import { openHttpTransport, type HttpCloseReport } from '../wire/index.ts';
import { socketCount, socketsBackTo, startHostile, type Hostile } from '../wire/testing/http-peer.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { startHostSession } from './host-session.ts';

/**
 * The host session over Streamable HTTP against a server in another process
 * that ends every session at its first tools/call (HTTP 404): the version
 * initialize negotiated is sent on every later message, the call in flight is
 * closed/session_gone and never re-sent, the next call initializes one new
 * session (the spec's MUST), and a second 404 ends the session for good.
 */
const TIMEOUTS = { handshakeMs: 10_000, callMs: 10_000 };
const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };

let servers: Hostile[] = [];
afterEach(async () => {
  for (const server of servers) expect(await server.stop()).toBe(true);
  for (const server of servers) expect(isRunning(server.pid)).toBe(false);
  servers = [];
});

test('a 404 on a live session: closed/session_gone, one fresh initialize, a second 404 ends it; no socket kept', async () => {
  const server = await startHostile('session-404');
  servers.push(server);
  const baseline = socketCount();
  const open = () => openHttpTransport({ url: server.url });
  const first = open();
  if (!first.ok) throw new Error(first.message);
  const session = await startHostSession<HttpCloseReport>(first.value, { timeouts: TIMEOUTS, reopen: open });
  if (!session.ok) throw new Error(`${session.kind}: ${session.message}`);
  const s = session.value;

  const gone = await s.callTool({ name: 'add' }, {}, ids);
  expect(gone).toMatchObject({ ok: false, class: 'closed', kind: 'session_gone' });
  const again = await s.callTool({ name: 'add' }, {}, { ...ids, toolCallId: 'toolu_2' });
  expect(again).toMatchObject({ ok: false, class: 'closed', kind: 'session_gone' });
  expect(s.notices()).toContain('the server ended the session (HTTP 404); one new session was initialized, its listing compared with the first');
  expect(s.listChanged().relists).toEqual([{ outcome: 'unchanged', changed: [], removed: [], added: [] }]);
  // The second 404 ended it: a third call is not sent.
  const after = await s.callTool({ name: 'add' }, {}, { ...ids, toolCallId: 'toolu_3' });
  expect(after).toMatchObject({ ok: false, class: 'precondition', kind: 'server_closed' });
  expect(s.failure()).toMatchObject({ class: 'closed', kind: 'session_gone' });
  expect((await s.close()).session).toEqual({ deleted: false, why: 'the server had ended it (404)' });
  expect(await socketsBackTo(baseline)).toBe(baseline);
  // Stopped first: every line the server wrote is read.
  expect(await server.stop()).toBe(true);
  const posts = server.seen.filter((entry) => entry.method === 'POST' && entry.body?.method !== undefined);
  expect(posts.map((entry) => `${entry.body?.method} ${entry.headers?.['mcp-session-id'] ?? '-'} ${entry.headers?.['mcp-protocol-version'] ?? '-'}`)).toEqual([
    'initialize - -',
    'notifications/initialized s-1 2025-06-18',
    'tools/list s-1 2025-06-18',
    'tools/call s-1 2025-06-18',
    'initialize - -',
    'notifications/initialized s-2 2025-06-18',
    'tools/list s-2 2025-06-18',
    'tools/call s-2 2025-06-18',
  ]);
  expect(server.seen.map((entry) => entry.method)).not.toContain('DELETE');
});

test('without reopen (a stdio session), a session_gone session stays ended: nothing more is sent', async () => {
  const server = await startHostile('session-404');
  servers.push(server);
  const opened = openHttpTransport({ url: server.url });
  if (!opened.ok) throw new Error(opened.message);
  const session = await startHostSession<HttpCloseReport>(opened.value, { timeouts: TIMEOUTS });
  if (!session.ok) throw new Error(session.message);
  expect(await session.value.callTool({ name: 'add' }, {}, ids)).toMatchObject({ ok: false, kind: 'session_gone' });
  expect(await session.value.callTool({ name: 'add' }, {}, ids)).toMatchObject({ ok: false, kind: 'server_closed' });
  await session.value.close();
  expect(await server.stop()).toBe(true);
  expect(server.seen.filter((entry) => entry.body?.method === 'initialize')).toHaveLength(1);
});
