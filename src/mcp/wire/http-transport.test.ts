import { afterEach, describe, expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { LIMITS, type Failure, type Outcome } from '../../contract/index.ts';
import { Correlator, type Reply } from './correlator.ts';
import { HttpTransport, openHttpTransport, type HttpOptions } from './http-transport.ts';
import { socketCount, socketsBackTo, startHostile, type Hostile } from './testing/http-peer.ts';
import { isRunning } from './testing/processes.ts';

const TIMEOUT = { timeoutMs: 10_000 };
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };

let servers: Hostile[] = [];
afterEach(async () => {
  // No process left: every hostile server stops and is gone.
  for (const server of servers) expect(await server.stop()).toBe(true);
  for (const server of servers) expect(isRunning(server.pid)).toBe(false);
  servers = [];
});

async function hostile(mode: string, arg?: string): Promise<Hostile> {
  const server = await startHostile(mode, arg);
  servers.push(server);
  return server;
}

function transport(options: HttpOptions): HttpTransport {
  const opened = openHttpTransport(options);
  if (!opened.ok) throw new Error(opened.message);
  return opened.value;
}

/** A session over the transport, counting the test process's sockets first. */
function session(url: string, headers?: Record<string, string>) {
  const baseline = socketCount();
  const http = transport({ url, ...(headers ? { headers } : {}) });
  const correlator = new Correlator(http);
  const request = (method: string, params: Record<string, unknown> = {}): Promise<Outcome<Reply>> => correlator.request(method, params, TIMEOUT).reply;
  /** initialize, the version handed over, notifications/initialized: what a session layer does. */
  const handshake = async (): Promise<Outcome<Reply>> => {
    const init = await request('initialize', INIT);
    if (init.ok) http.setProtocolVersion('2025-06-18');
    if (init.ok) correlator.notify('notifications/initialized', {});
    return init;
  };
  /** Closes, then the test process holds no socket more than before. */
  const closed = async () => {
    const report = await correlator.close();
    expect(await socketsBackTo(baseline)).toBe(baseline);
    return report;
  };
  return { http, correlator, request, handshake, closed };
}

const failureOf = (outcome: Outcome<Reply>): Failure => {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value.answer)}`);
  return outcome;
};

describe('HttpTransport against a server in another process', () => {
  test('a well-behaved session: headers on every POST, SSE read through a comment, a foreign event and a server ping, JSON answers, DELETE on close, no socket kept', async () => {
    const server = await hostile('well');
    const s = session(server.url, { Authorization: 'Bearer secret-token', 'X-Extra': 'x' });
    expect(s.http.endpoint).toEqual({ kind: 'http', url: server.url, headerNames: ['Authorization', 'X-Extra'] });
    expect(JSON.stringify(s.http.endpoint)).not.toContain('secret-token');
    expect((await s.handshake()).ok).toBe(true);
    const listed = await s.request('tools/list');
    expect(listed.ok && listed.value.answer).toEqual({ result: { tools: [{ name: 'add', inputSchema: { type: 'object' } }] } });
    const called = await s.request('tools/call', { name: 'add', arguments: {} });
    expect(called.ok && 'result' in called.value.answer).toBe(true);
    expect(s.http.sessionIdSha256).toBe(new Bun.CryptoHasher('sha256').update('s-1').digest('hex'));
    const report = await s.closed();
    expect(report).toEqual({ url: server.url, session: { deleted: true, status: 200 }, aborted: 0 });
    await until(() => server.seen.length >= 6);
    const seen = server.seen.map((entry) => `${entry.method} ${entry.body?.method ?? (entry.body ? `answer ${JSON.stringify(entry.body.id)}` : '')}`.trim());
    expect(seen).toEqual(['POST initialize', 'POST notifications/initialized', 'POST tools/list', 'POST answer "srv-1"', 'POST tools/call', 'DELETE']);
    const [init, ...later] = server.seen;
    expect(init!.headers).toEqual({ accept: 'application/json, text/event-stream', 'content-type': 'application/json', connection: 'close', authorization: 'Bearer secret-token', 'x-extra': 'x' });
    for (const entry of later) {
      expect(entry.headers).toMatchObject({ accept: 'application/json, text/event-stream', connection: 'close', 'mcp-session-id': 's-1', 'mcp-protocol-version': '2025-06-18', authorization: 'Bearer secret-token' });
    }
    expect(server.seen.find((entry) => entry.body?.id === 'srv-1')?.body).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: {} });
  });

  for (const status of ['301', '307']) {
    test(`a ${status} is protocol/redirect naming Location, never followed: the target sees nothing`, async () => {
      const target = await hostile('well');
      const server = await hostile(`redirect-${status}`, target.url);
      const s = session(server.url);
      const failure = failureOf(await s.request('initialize', INIT));
      expect(failure).toMatchObject({ class: 'protocol', kind: 'redirect', basis: 'caplab host rule' });
      expect(failure.message).toContain(`HTTP ${status}`);
      expect(failure.message).toContain(JSON.stringify(target.url));
      expect((await s.closed()).session).toEqual({ deleted: false, why: 'no session id was issued' });
      // Stopped first: every line either server wrote is read.
      expect([await server.stop(), await target.stop()]).toEqual([true, true]);
      expect(server.seen).toHaveLength(1);
      expect(target.seen).toEqual([]);
    });
  }

  test('401 is auth/unauthorized naming the resource_metadata URL (never fetched)', async () => {
    const s = session((await hostile('unauthorized')).url);
    const failure = failureOf(await s.request('initialize', INIT));
    expect(failure).toMatchObject({ class: 'auth', kind: 'unauthorized' });
    expect(failure.message).toContain('"https://auth.example/.well-known/oauth-protected-resource", not fetched');
    // Its answer (the 401) had arrived: nothing was in flight for close() to abort.
    expect(await s.closed()).toEqual({ url: expect.any(String), session: { deleted: false, why: 'no session id was issued' }, aborted: 0 });
  });

  test('403 is auth/forbidden; 418 protocol/http_status; 500 closed/server_error', async () => {
    for (const [mode, expected] of [
      ['forbidden', { class: 'auth', kind: 'forbidden' }],
      ['teapot', { class: 'protocol', kind: 'http_status', basis: 'caplab host rule' }],
      ['server-error', { class: 'closed', kind: 'server_error' }],
    ] as const) {
      const s = session((await hostile(mode)).url);
      expect(failureOf(await s.request('initialize', INIT))).toMatchObject(expected);
      // The error status was the POST's answer: the close report counts no POST aborted.
      expect({ mode, aborted: (await s.closed()).aborted }).toEqual({ mode, aborted: 0 });
    }
  });

  test('a request answered with a JSON body labelled text/plain, or with 202, is protocol/bad_content_type (spec MUST)', async () => {
    for (const [mode, status] of [['wrong-type', 'HTTP 200 with Content-Type "text/plain"'], ['request-202', 'HTTP 202 with Content-Type (none)']] as const) {
      const s = session((await hostile(mode)).url);
      expect((await s.handshake()).ok).toBe(true);
      const failure = failureOf(await s.request('tools/call', { name: 'add', arguments: {} }));
      expect(failure).toMatchObject({ class: 'protocol', kind: 'bad_content_type', basis: 'spec MUST' });
      expect(failure.message).toContain(`tools/call #2: ${status}`);
      await s.closed();
    }
  });

  test('a JSON body answering another id is protocol/no_answer (spec MUST), not delivered as some other answer', async () => {
    const s = session((await hostile('other-id')).url);
    expect((await s.handshake()).ok).toBe(true);
    const failure = failureOf(await s.request('tools/call', { name: 'add', arguments: {} }));
    expect(failure).toMatchObject({ class: 'protocol', kind: 'no_answer', basis: 'spec MUST' });
    expect(failure.message).toContain('tools/call #2: the JSON body is not its answer');
    await s.closed();
  });

  test('a port nothing listens on is closed/unreachable, outcome unknown', async () => {
    const server = await hostile('well');
    const url = server.url;
    expect(await server.stop()).toBe(true);
    const s = session(url);
    const failure = failureOf(await s.request('initialize', INIT));
    expect(failure).toMatchObject({ class: 'closed', kind: 'unreachable' });
    expect(failure.message).toContain('outcome unknown');
    await s.closed();
  });

  test('a JSON body over httpBodyBytes, streamed without Content-Length, is protocol/too_large', async () => {
    const s = session((await hostile('big-json')).url);
    expect((await s.handshake()).ok).toBe(true);
    const failure = failureOf(await s.request('tools/call', { name: 'add', arguments: {} }));
    expect(failure).toMatchObject({ class: 'protocol', kind: 'too_large' });
    expect(failure.message).toContain(`${LIMITS.httpBodyBytes} bytes (httpBodyBytes)`);
    await s.closed();
  });

  test('an SSE event over sseEventBytes is protocol/too_large', async () => {
    const s = session((await hostile('big-sse')).url);
    expect((await s.handshake()).ok).toBe(true);
    const failure = failureOf(await s.request('tools/list'));
    expect(failure).toMatchObject({ class: 'protocol', kind: 'too_large' });
    expect(failure.message).toContain(`${LIMITS.sseEventBytes} bytes (sseEventBytes)`);
    await s.closed();
  });

  test('an SSE stream that ends before its answer is closed/stream_dropped, outcome unknown; the server saw one tools/call', async () => {
    const server = await hostile('drop-sse');
    const s = session(server.url);
    expect((await s.handshake()).ok).toBe(true);
    const failure = failureOf(await s.request('tools/call', { name: 'add', arguments: {} }));
    expect(failure).toMatchObject({ class: 'closed', kind: 'stream_dropped' });
    expect(failure.message).toContain('outcome unknown, never re-sent');
    expect((await s.closed()).session).toEqual({ deleted: true, status: 200 });
    expect(await server.stop()).toBe(true);
    expect(server.seen.filter((entry) => entry.body?.method === 'tools/call')).toHaveLength(1);
  });

  test('a 404 to a message carrying the session id is closed/session_gone; no DELETE follows', async () => {
    const server = await hostile('session-404');
    const s = session(server.url);
    expect((await s.handshake()).ok).toBe(true);
    const failure = failureOf(await s.request('tools/call', { name: 'add', arguments: {} }));
    expect(failure).toMatchObject({ class: 'closed', kind: 'session_gone' });
    expect(failure.message).toContain('never re-sent');
    expect((await s.closed()).session).toEqual({ deleted: false, why: 'the server had ended it (404)' });
    expect(await server.stop()).toBe(true);
    expect(server.seen.map((entry) => entry.method)).not.toContain('DELETE');
  });

  test('a notification answered 200 instead of 202 is protocol/not_accepted (spec MUST)', async () => {
    const s = session((await hostile('notify-200')).url);
    expect((await s.handshake()).ok).toBe(true);
    await until(() => s.correlator.failure !== undefined);
    expect(s.correlator.failure).toMatchObject({ class: 'protocol', kind: 'not_accepted', basis: 'spec MUST' });
    await s.closed();
  });

  for (const [arg, basis] of [['long', 'caplab host rule'], ['space', 'spec MUST']] as const) {
    test(`a session id that is ${arg === 'long' ? 'over httpSessionIdBytes' : 'not visible ASCII'} is protocol/bad_session_id (${basis})`, async () => {
      const s = session((await hostile('bad-session-id', arg)).url);
      expect(failureOf(await s.request('initialize', INIT))).toMatchObject({ class: 'protocol', kind: 'bad_session_id', basis });
      expect(s.http.sessionIdSha256).toBeUndefined();
      await s.closed();
    });
  }

  test('HTTP_PROXY and friends are ignored: a decoy proxy sees no connection', async () => {
    const decoy = await hostile('decoy');
    const server = await hostile('well');
    const names = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY'] as const;
    const saved = names.map((name) => [name, process.env[name]] as const);
    for (const name of names) process.env[name] = `http://127.0.0.1:${decoy.port}`;
    try {
      const s = session(server.url);
      expect((await s.handshake()).ok).toBe(true);
      expect((await s.request('tools/call', { name: 'add', arguments: {} })).ok).toBe(true);
      await s.closed();
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect([await server.stop(), await decoy.stop()]).toEqual([true, true]);
    expect(server.seen.length).toBeGreaterThanOrEqual(3);
    expect(decoy.seen).toEqual([]);
  });

  test('close() aborts a POST in flight and says so', async () => {
    const server = await hostile('hang');
    const s = session(server.url);
    expect((await s.handshake()).ok).toBe(true);
    const call = s.request('tools/call', { name: 'add', arguments: {} });
    await until(() => server.seen.some((entry) => entry.body?.method === 'tools/call'));
    const report = await s.closed();
    expect(report).toEqual({ url: server.url, session: { deleted: true, status: 200 }, aborted: 1 });
    expect(failureOf(await call)).toMatchObject({ class: 'closed', kind: 'session_closed' });
  });
});

describe('openHttpTransport', () => {
  test('refuses what it cannot use as given, naming a header but never its value', () => {
    const bad = (options: HttpOptions) => {
      const opened = openHttpTransport(options);
      return opened.ok ? 'opened' : `${opened.kind}: ${opened.message}`;
    };
    expect(bad({ url: 'not a url' })).toStartWith('bad_endpoint: not a URL');
    expect(bad({ url: 'file:///etc/passwd' })).toStartWith('bad_endpoint: not an http(s) URL');
    expect(bad({ url: 'http://user:pw@127.0.0.1/mcp' })).toContain('holds credentials');
    expect(bad({ url: 'http://127.0.0.1/mcp', headers: { 'Mcp-Session-Id': 'x' } })).toContain('set by the transport itself');
    const crlf = bad({ url: 'http://127.0.0.1/mcp', headers: { 'X-Token': 'secret\r\nInjected: 1' } });
    expect(crlf).toContain('"X-Token"');
    expect(crlf).not.toContain('secret');
    expect(bad({ url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer t' } })).toBe('opened');
  });

  test('a send after close writes nothing and says so, with the body size', async () => {
    const http = transport({ url: 'http://127.0.0.1:1/mcp' });
    http.start();
    await http.close();
    const message = { jsonrpc: '2.0', method: 'x', params: {} } as const;
    expect(http.send(message)).toEqual({ bytes: JSON.stringify(message).length, failure: expect.objectContaining({ class: 'closed', kind: 'session_closed' }) });
    expect(http.measure(message)).toBe(JSON.stringify(message).length);
  });
});
