/**
 * `caplab serve --http` as a client meets it: a real server process per test
 * (src/cli/testing/serve-http.ts), raw `fetch` with `proxy: false`, every
 * status, header and body the transport promises. After each test the port
 * refuses, no process is left and this process holds no socket it did not.
 */
import { describe, expect, test } from 'bun:test';
import { LIMITS } from '../contract/index.ts';
import { cli } from './cli.ts';
import { accepts, rawFetch, ROOT, startServe, type Served } from './testing/serve-http.ts';
import { testIo } from './test-io.ts';
import { until } from '../../test/until.ts';

const VERSION = '2025-06-18';
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return rawFetch(url, { method: 'POST', headers: { ...JSON_POST, ...headers }, body: typeof message === 'string' ? message : JSON.stringify(message) });
}

/** Opens a session: the headers every later request of it carries. */
async function open(served: Served, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const response = await post(served.url, INIT, headers);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return { ...headers, 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': VERSION };
}

const idLess = (code: number) => ({ jsonrpc: '2.0', error: { code, message: expect.any(String) } });

describe('serve --http: one session, start to end', () => {
  test('initialize opens a session; requests are answered as JSON, notifications and responses 202; DELETE ends it (then 404)', async () => {
    const served = await startServe();
    const init = await post(served.url, INIT);
    expect([init.status, init.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(await init.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: VERSION, capabilities: { tools: {} } } });
    const id = init.headers.get('mcp-session-id')!;
    expect(id).toMatch(/^[\x21-\x7e]{16,}$/);
    const session = { 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
    const initialized = await post(served.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    expect([initialized.status, await initialized.text()]).toEqual([202, '']);
    const reply = await post(served.url, { jsonrpc: '2.0', id: 9, result: {} }, session);
    expect([reply.status, await reply.text()]).toEqual([202, '']);
    const list = await post(served.url, LIST, session);
    expect([list.status, list.headers.get('content-type')]).toEqual([200, 'application/json']);
    expect(await list.json()).toMatchObject({ id: 2, result: { tools: [{ name: 'read_source' }] } });
    const call = await post(served.url, { jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'read_source', arguments: { source_id: 'alpha' } } }, session);
    expect(await call.json()).toMatchObject({ id: 'c', result: { structuredContent: { source_id: 'alpha' } } });
    const unknown = await post(served.url, { jsonrpc: '2.0', id: 3, method: 'resources/list' }, session);
    expect([unknown.status, await unknown.json()]).toEqual([200, { jsonrpc: '2.0', id: 3, error: { code: -32601, message: expect.any(String) } }]);
    const ended = await rawFetch(served.url, { method: 'DELETE', headers: session });
    expect([ended.status, await ended.text()]).toEqual([204, '']);
    const gone = await post(served.url, LIST, session);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual(idLess(-32600));
    expect((await rawFetch(served.url, { method: 'DELETE', headers: session })).status).toBe(404);
    expect(served.stderr()).toContain('ignored a response');
  });

  test('session and version headers: none 400, unknown 404, MCP-Protocol-Version absent or not the negotiated one 400, initialize inside a session 400', async () => {
    const served = await startServe();
    const session = await open(served);
    const cases: [Record<string, string>, number][] = [
      [{ 'mcp-protocol-version': VERSION }, 400],
      [{ 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': VERSION }, 404],
      [{ 'mcp-session-id': session['mcp-session-id']! }, 400],
      [{ ...session, 'mcp-protocol-version': '2025-03-26' }, 400],
      [{ ...session, 'mcp-protocol-version': '2025-11-25' }, 400],
    ];
    for (const [headers, status] of cases) {
      const response = await post(served.url, LIST, headers);
      expect({ headers, status: response.status, body: await response.json() }).toEqual({ headers, status, body: idLess(-32600) });
    }
    const again = await post(served.url, INIT, session);
    expect(again.status).toBe(400);
    await again.arrayBuffer();
    // Each refusal left the session as it was.
    expect((await post(served.url, LIST, session)).status).toBe(200);
  });

  test(`at most ${LIMITS.httpSessions} live sessions: the next initialize is 503 until one ends`, async () => {
    const served = await startServe();
    const sessions = [];
    for (let n = 0; n < LIMITS.httpSessions; n++) sessions.push(await open(served));
    expect(new Set(sessions.map((s) => s['mcp-session-id'])).size).toBe(LIMITS.httpSessions);
    const full = await post(served.url, INIT);
    expect([full.status, full.headers.get('mcp-session-id')]).toEqual([503, null]);
    await full.arrayBuffer();
    expect((await rawFetch(served.url, { method: 'DELETE', headers: sessions[0]! })).status).toBe(204);
    await open(served);
  });
});

describe('serve --http: what /mcp takes', () => {
  test('other paths 404; GET 405 with Allow (no stream); PUT 405', async () => {
    const served = await startServe();
    const other = await post(served.url.replace(/\/mcp$/, '/other'), INIT);
    expect(other.status).toBe(404);
    await other.arrayBuffer();
    for (const method of ['GET', 'PUT']) {
      const response = await rawFetch(served.url, { method, headers: { accept: 'text/event-stream' } });
      expect({ method, status: response.status, allow: response.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST, DELETE' });
      await response.arrayBuffer();
    }
  });

  test('Content-Type other than application/json is 415 (charset parameters are fine)', async () => {
    const served = await startServe();
    for (const type of ['text/plain', 'application/jsonx', 'multipart/form-data']) {
      const response = await rawFetch(served.url, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(INIT) });
      expect({ type, status: response.status }).toEqual({ type, status: 415 });
      await response.arrayBuffer();
    }
    const charset = await post(served.url, INIT, { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).toBe(200);
    await charset.arrayBuffer();
  });

  test('bad JSON, a batch or a non-object is 400 with an id-less JSON-RPC error; an invalid request keeps its id', async () => {
    const served = await startServe();
    const session = await open(served);
    const cases: [string, number][] = [['{"jsonrpc":', -32700], ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600], ['42', -32600], [JSON.stringify({ jsonrpc: '2.0', method: 7 }), -32600]];
    for (const [body, code] of cases) {
      const response = await post(served.url, body, session);
      expect({ body, status: response.status, answer: await response.json() }).toEqual({ body, status: 400, answer: idLess(code) });
    }
    const withId = await post(served.url, { jsonrpc: '1.0', id: 5, method: 'ping' }, session);
    expect([withId.status, await withId.json()]).toEqual([400, { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.any(String) } }]);
  });

  test(`a body of exactly httpBodyBytes is read; one byte more is 413 whether declared or streamed, and the server goes on`, async () => {
    const served = await startServe();
    const session = await open(served);
    const sized = (bytes: number) => {
      const head = '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"';
      return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
    };
    const exact = await post(served.url, sized(LIMITS.httpBodyBytes), session);
    expect([exact.status, await exact.json()]).toEqual([200, { jsonrpc: '2.0', id: 7, result: {} }]);
    const over = await post(served.url, sized(LIMITS.httpBodyBytes + 1), session);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual(idLess(-32600));
    // Streamed (chunked, no Content-Length): cut once the count passes the bound, never buffered whole.
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let n = 0; n < 64; n++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const cut = await rawFetch(served.url, { method: 'POST', headers: { ...JSON_POST, ...session }, body: streamed });
    expect(cut.status).toBe(413);
    await cut.arrayBuffer();
    expect((await post(served.url, LIST, session)).status).toBe(200);
  });
});

describe('serve --http: the guards', () => {
  test('a foreign Origin or Host is 403, before anything else; loopback spellings on any port pass', async () => {
    const served = await startServe();
    const foreign: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost.evil.example:1' },
      { host: 'evil.example' },
      { host: `evil.example:${served.port}` },
    ];
    for (const headers of foreign) {
      const response = await post(served.url, INIT, headers);
      expect({ headers, status: response.status, session: response.headers.get('mcp-session-id') }).toEqual({ headers, status: 403, session: null });
      await response.arrayBuffer();
    }
    const other = await rawFetch(served.url.replace(/\/mcp$/, '/x'), { headers: { origin: 'http://evil.example' } });
    expect(other.status).toBe(403);
    await other.arrayBuffer();
    for (const headers of [{ origin: 'http://localhost:5173' }, { origin: 'https://127.0.0.1' }, { origin: 'http://[::1]:8080' }, { host: `localhost:${served.port}` }, { host: '[::1]' }]) {
      const response = await post(served.url, INIT, headers);
      expect({ headers, status: response.status }).toEqual({ headers, status: 200 });
      await response.arrayBuffer();
    }
  });

  test('--allow-origin admits that origin exactly and its host name in Host', async () => {
    const served = await startServe(['--allow-origin', 'https://app.example:8443']);
    const allowed = await post(served.url, INIT, { origin: 'https://app.example:8443', host: 'app.example' });
    expect(allowed.status).toBe(200);
    await allowed.arrayBuffer();
    for (const origin of ['https://app.example', 'http://app.example:8443', 'https://evil.example']) {
      const response = await post(served.url, INIT, { origin });
      expect({ origin, status: response.status }).toEqual({ origin, status: 403 });
      await response.arrayBuffer();
    }
  });

  test('--token-env: a missing or wrong token is 401 with WWW-Authenticate: Bearer; the right one passes; the token never printed', async () => {
    const token = 'tok-3f9a1c';
    const served = await startServe(['--token-env', 'SERVE_TOKEN'], { SERVE_TOKEN: token });
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`, 'Bearer ']) {
      const response = await post(served.url, INIT, authorization === undefined ? {} : { authorization });
      expect({ authorization, status: response.status, challenge: response.headers.get('www-authenticate'), session: response.headers.get('mcp-session-id') })
        .toEqual({ authorization, status: 401, challenge: 'Bearer', session: null });
      await response.arrayBuffer();
    }
    const session = await open(served, { authorization: `Bearer ${token}` });
    expect((await post(served.url, LIST, { ...session, authorization: `bearer ${token}` })).status).toBe(200);
    const without = await post(served.url, LIST, { 'mcp-session-id': session['mcp-session-id']!, 'mcp-protocol-version': VERSION });
    expect(without.status).toBe(401);
    await without.arrayBuffer();
    // A foreign Origin is refused before the token is looked at.
    expect((await post(served.url, INIT, { authorization: `Bearer ${token}`, origin: 'http://evil.example' })).status).toBe(403);
    expect(served.stderr()).not.toContain(token);
  });

  test('a non-loopback --host warns on stderr, and Host must still be loopback or allowed', async () => {
    const served = await startServe(['--host', '0.0.0.0']);
    expect(served.url).toBe(`http://0.0.0.0:${served.port}/mcp`);
    await until(() => served.stderr().includes('warning'));
    expect(served.stderr()).toContain('warning: --host 0.0.0.0 is not loopback');
    const local = await post(`http://127.0.0.1:${served.port}/mcp`, INIT);
    expect(local.status).toBe(200);
    await local.arrayBuffer();
  });
});

describe('serve --http: start and stop', () => {
  test.each([['SIGINT', 130], ['SIGTERM', 143]] as const)('%s: the listener closes, the answer in flight is still written, exit %d', async (signal, code) => {
    const served = await startServe();
    const session = await open(served);
    const body = JSON.stringify(LIST);
    // A raw socket, so the test knows the request is in the server's hands (its 100 Continue) before the signal.
    let received = '';
    const socket = await Bun.connect({ hostname: '127.0.0.1', port: served.port, socket: { data: (_s, data) => void (received += data.toString()), error() {} } });
    const head = [`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${served.port}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', `Content-Length: ${body.length}`, 'Expect: 100-continue',
      `Mcp-Session-Id: ${session['mcp-session-id']}`, `MCP-Protocol-Version: ${VERSION}`, 'Connection: close'];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    await until(() => received.includes('100 Continue'));
    expect(received).toStartWith('HTTP/1.1 100 Continue');
    served.proc.kill(signal);
    await until(() => served.stderr().includes(`${signal}: stopping`));
    expect(served.stderr()).toContain(`${signal}: stopping (listener closed; 1 requests in flight)`);
    expect(await accepts(served.port)).toBe(false);
    socket.write(body);
    await until(() => received.includes('"result"'));
    socket.end();
    expect(received).toContain('HTTP/1.1 200 OK');
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n{') + 4))).toMatchObject({ id: 2, result: { tools: [{ name: 'read_source' }] } });
    expect(await served.proc.exited).toBe(code);
    expect(served.stderr()).toContain(`${signal}: stopped (listener closed, answers in flight written, 1 sessions ended)`);
  });

  test.each([['SIGTERM', 'SIGINT', 143], ['SIGINT', 'SIGTERM', 130], ['SIGTERM', 'SIGTERM', 143]] as const)(
    '%s, then %s during the grace: the stop ends at once, the request still sending its body cut, exit %d (the first signal\'s)',
    async (first, second, code) => {
      const served = await startServe();
      const session = await open(served);
      // A raw socket announcing a body it never sends: without the second signal the stop would wait out its grace.
      let received = '';
      const socket = await Bun.connect({ hostname: '127.0.0.1', port: served.port, socket: { data: (_s, data) => void (received += data.toString()), error() {}, close() {} } });
      const head = [`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${served.port}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Content-Length: 100',
        'Expect: 100-continue', `Mcp-Session-Id: ${session['mcp-session-id']}`, `MCP-Protocol-Version: ${VERSION}`];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      await until(() => received.includes('100 Continue'));
      served.proc.kill(first);
      await until(() => served.stderr().includes(`${first}: stopping`));
      expect(served.stderr()).toContain(`${first}: stopping (listener closed; 1 requests in flight)`);
      served.proc.kill(second);
      expect(await served.proc.exited).toBe(code);
      expect(served.stderr()).toContain(`${first}: stopped at once by a second ${second} (listener closed, 1 requests in flight cut, 1 sessions ended)`);
      socket.end();
    },
  );

  test('--exit-on-stdin-eof: stdin closed ends the server with 0; stdout held exactly one line', async () => {
    const served = await startServe(['--exit-on-stdin-eof']);
    await open(served);
    served.proc.stdin.end();
    expect(await served.proc.exited).toBe(0);
    expect(served.stderr()).toContain('stdin closed: stopped');
    expect(await served.rest()).toBe('');
  });

  test('an address in use is exit 3 with one stderr line', async () => {
    const served = await startServe();
    const second = Bun.spawn([process.execPath, 'src/main.ts', 'serve', '--http', '--port', String(served.port)], { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [code, out, err] = await Promise.all([second.exited, new Response(second.stdout).text(), new Response(second.stderr).text()]);
    expect([code, out]).toEqual([3, '']);
    expect(err).toStartWith(`caplab serve: cannot listen on 127.0.0.1:${served.port}: `);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  test.each([
    [['--http', '--port', '65536'], '--port takes a number'],
    [['--http', '--port', '-1'], '--port'],
    [['--http', '--port', '12x'], '--port takes a number'],
    [['--http', '--token-env', 'UNSET_VAR'], '--token-env UNSET_VAR: that variable is not set'],
    [['--http', '--token-env', 'EMPTY_VAR'], '--token-env EMPTY_VAR: that variable is empty'],
    [['--http', '--bogus'], "Unknown option '--bogus'"],
    [['--port', '0'], '--port needs --http'],
    [['--http', 'extra'], 'unexpected argument "extra"'],
    [['--http', '--port', '1', '--port', '2'], '--port given twice'],
    [['--http', '--allow-origin', 'https://app.example/path'], '--allow-origin takes an origin'],
    [['--http', '--host', ''], '--host needs an address'],
  ])('serve %j is a usage error (exit 2): %s', async (args, message) => {
    const io = testIo(ROOT, { EMPTY_VAR: '' });
    expect(await cli(['serve', ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe('');
  });
});
