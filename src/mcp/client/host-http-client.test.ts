import { afterEach, expect, test } from 'bun:test';
import { sha256Hex } from '../../contract/index.ts';
import { socketCount, socketsBackTo, startHostile, type Hostile } from '../wire/testing/http-peer.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { openHttpHostClient } from './host-http-client.ts';

/**
 * The host client over Streamable HTTP against the hostile test server in
 * another process: the identity names the URL and header names only, the
 * issued session id by its sha256; the version negotiated and the header
 * are sent on every later POST; close DELETEs the session; a 404 on a live
 * session is followed by one new session over a fresh transport. After each
 * test this process holds no socket it did not hold before.
 */
const TIMEOUTS = { handshakeMs: 10_000, callMs: 10_000 };
const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };

let servers: Hostile[] = [];
afterEach(async () => {
  for (const server of servers) expect(await server.stop()).toBe(true);
  for (const server of servers) expect(isRunning(server.pid)).toBe(false);
  servers = [];
});

test('identity names the URL and header names (never values), the session by sha256; calls carry the version and the header; close DELETEs the session', async () => {
  const server = await startHostile('ok');
  servers.push(server);
  const baseline = socketCount();
  const opened = await openHttpHostClient({ key: 'remote', url: server.url, headers: { 'X-Extra': 'v4lue-never-recorded' }, instanceId: 'run-1/remote', timeouts: TIMEOUTS });
  if (!opened.ok) throw new Error(`${opened.kind}: ${opened.message}`);
  const client = opened.value;
  expect(client.identity).toEqual({ key: 'remote', name: 'hostile', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'http', url: server.url, headerNames: ['X-Extra'] }, instanceId: 'run-1/remote' });
  expect(client.sessionSha256).toBe(sha256Hex('s-1'));
  expect(JSON.stringify(client.identity)).not.toContain('v4lue-never-recorded');
  const called = await client.callTool({ name: 'add' }, {}, ids);
  expect(called).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: 'ok' }] } });
  const report = await client.close();
  expect(report).toMatchObject({ url: server.url, session: { deleted: true, status: 200 }, aborted: 0 });
  await server.stop();
  const call = server.seen.find((seen) => seen.body?.method === 'tools/call')!;
  expect(call.headers).toMatchObject({ 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-06-18', 'x-extra': 'v4lue-never-recorded' });
  expect(server.seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 's-1' } });
  expect(await socketsBackTo(baseline)).toBeLessThanOrEqual(baseline);
});

test('a 404 on a live session: the next call initializes one new session over a fresh transport; a second 404 ends it', async () => {
  const server = await startHostile('session-404');
  servers.push(server);
  const baseline = socketCount();
  const opened = await openHttpHostClient({ key: 'remote', url: server.url, timeouts: TIMEOUTS });
  if (!opened.ok) throw new Error(`${opened.kind}: ${opened.message}`);
  const client = opened.value;
  expect(await client.callTool({ name: 'add' }, {}, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'session_gone' });
  expect(await client.callTool({ name: 'add' }, {}, { ...ids, toolCallId: 'toolu_2' })).toMatchObject({ ok: false, class: 'closed', kind: 'session_gone' });
  expect(client.notices()).toContain('the server ended the session (HTTP 404); one new session was initialized, its listing compared with the first');
  expect(await client.callTool({ name: 'add' }, {}, { ...ids, toolCallId: 'toolu_3' })).toMatchObject({ ok: false, class: 'precondition', kind: 'server_closed' });
  await client.close();
  await server.stop();
  expect(server.seen.filter((seen) => seen.body?.method === 'initialize')).toHaveLength(2);
  expect(server.seen.filter((seen) => seen.body?.method === 'tools/call')).toHaveLength(2);
  expect(await socketsBackTo(baseline)).toBeLessThanOrEqual(baseline);
});

test('a URL the transport cannot use is refused before anything is sent', async () => {
  expect(await openHttpHostClient({ key: 'remote', url: 'ftp://127.0.0.1/mcp' })).toMatchObject({ ok: false, class: 'invalid_arguments', kind: 'bad_endpoint' });
});
