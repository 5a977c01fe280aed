/**
 * `serveToolsHttp` in this process, every dependency injected: the clock
 * (sessions expire without any wait on wall time), the stop and force
 * signals (a second signal cuts the stop's grace short). The whole server
 * as a client meets it, in its own process, is src/cli/serve-http.test.ts.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { until } from '../../../test/until.ts';
import { serveToolsHttp } from './serve-http.ts';
import type { ToolServer } from './tool-server.ts';

const VERSION = '2025-06-18';
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const PING = { jsonrpc: '2.0', id: 2, method: 'ping' };
const ACCEPT_BOTH = 'application/json, text/event-stream';
const SERVER: ToolServer = { info: { name: 'in-process', version: '0' }, tools: [] };

interface Running {
  readonly url: string;
  readonly port: number;
  readonly stderr: () => string;
  /** Moves the injected clock. */
  advance(ms: number): void;
  readonly stop: AbortController;
  readonly force: AbortController;
  readonly exited: Promise<number>;
}

let running: Running[] = [];
afterEach(async () => {
  for (const server of running) server.stop.abort('test over');
  for (const server of running) expect(await server.exited).toBe(0);
  running = [];
});

async function start(): Promise<Running> {
  let now = 1_000_000;
  let stdout = '';
  let stderr = '';
  const stop = new AbortController();
  const force = new AbortController();
  const exited = serveToolsHttp(SERVER, { host: '127.0.0.1', port: 0, allowOrigins: [], exitOnStdinEof: false }, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stop: stop.signal,
    force: force.signal,
    now: () => now,
  });
  await until(() => stdout.includes('\n'));
  const url = /^listening (\S+)\n$/.exec(stdout)![1]!;
  const server = { url, port: Number(new URL(url).port), stderr: () => stderr, advance: (ms: number) => void (now += ms), stop, force, exited };
  running.push(server);
  return server;
}

function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, connection: 'close', ...headers }, body: JSON.stringify(message), proxy: false };
  return fetch(url, init as RequestInit);
}

/** Opens a session: the headers every later request of it carries. */
async function open(url: string): Promise<Record<string, string>> {
  const response = await post(url, INIT);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return { 'mcp-session-id': response.headers.get('mcp-session-id')!, 'mcp-protocol-version': VERSION };
}

async function statusOf(response: Promise<Response>): Promise<{ status: number; body: unknown }> {
  const answered = await response;
  return { status: answered.status, body: await answered.json() };
}

describe('serve --http: idle sessions expire (httpSessionIdleMs, injected clock)', () => {
  test('a session idle past httpSessionIdleMs is 404 with an id-less error; a new initialize opens another', async () => {
    const server = await start();
    const session = await open(server.url);
    server.advance(LIMITS.httpSessionIdleMs);
    expect((await statusOf(post(server.url, PING, session))).status).toBe(200);
    server.advance(LIMITS.httpSessionIdleMs + 1);
    expect(await statusOf(post(server.url, PING, session))).toEqual({
      status: 404,
      body: { jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('session expired: idle for more than') } },
    });
    const again = await open(server.url);
    expect(again['mcp-session-id']).not.toBe(session['mcp-session-id']);
    expect((await statusOf(post(server.url, PING, again))).status).toBe(200);
  });

  test(`${LIMITS.httpSessions} abandoned sessions do not keep the server full: once they expire, an initialize is answered`, async () => {
    const server = await start();
    const sessions: Record<string, string>[] = [];
    for (let n = 0; n < LIMITS.httpSessions; n++) sessions.push(await open(server.url));
    const full = await post(server.url, INIT);
    expect([full.status, full.headers.get('mcp-session-id')]).toEqual([503, null]);
    await full.arrayBuffer();
    server.advance(LIMITS.httpSessionIdleMs / 2);
    expect((await statusOf(post(server.url, PING, sessions[0]!))).status).toBe(200);
    server.advance(LIMITS.httpSessionIdleMs / 2 + 1);
    const fresh = await open(server.url);
    // The one in use kept its slot; the abandoned ones are gone.
    expect((await statusOf(post(server.url, PING, sessions[0]!))).status).toBe(200);
    expect((await statusOf(post(server.url, PING, sessions[1]!))).status).toBe(404);
    expect((await statusOf(post(server.url, PING, fresh))).status).toBe(200);
    server.stop.abort('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('2 sessions ended');
  });
});

describe('serve --http: a POST must accept JSON and SSE answers (406)', () => {
  test.each([
    [''],
    ['application/json'],
    ['text/event-stream'],
    ['*/*'],
    ['application/*, text/*'],
    ['application/jsonx, text/event-stream'],
  ])('Accept %p is 406 with an id-less JSON-RPC error, and opens no session', async (accept) => {
    const server = await start();
    const response = await post(server.url, INIT, { accept });
    expect([response.status, response.headers.get('mcp-session-id')]).toEqual([406, null]);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('Accept must list both') } });
  });

  test.each([[ACCEPT_BOTH], ['text/event-stream, application/json'], ['Application/JSON; q=0.9, text/event-stream;q=1'], ['text/html, application/json, text/event-stream']])(
    'Accept %p is fine',
    async (accept) => {
      const server = await start();
      const response = await post(server.url, INIT, { accept });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    },
  );
});

describe('serve --http: a second signal during the stop', () => {
  test('ends the grace at once: the request still sending its body is cut, and the server returns 0 (the CLI ranks the first signal)', async () => {
    const server = await start();
    const session = await open(server.url);
    // A raw socket that announces a body it never sends: the request stays in flight, holding the grace.
    let received = '';
    const socket = await Bun.connect({ hostname: '127.0.0.1', port: server.port, socket: { data: (_s, data) => void (received += data.toString()), error() {}, close() {} } });
    const head = ['POST /mcp HTTP/1.1', `Host: 127.0.0.1:${server.port}`, 'Content-Type: application/json', `Accept: ${ACCEPT_BOTH}`, 'Content-Length: 100',
      'Expect: 100-continue', `Mcp-Session-Id: ${session['mcp-session-id']}`, `MCP-Protocol-Version: ${VERSION}`];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    await until(() => received.includes('100 Continue'));
    server.stop.abort('SIGTERM');
    await until(() => server.stderr().includes('SIGTERM: stopping'));
    expect(server.stderr()).toContain('SIGTERM: stopping (listener closed; 1 requests in flight)');
    server.force.abort('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: stopped at once by a second SIGINT (listener closed, 1 requests in flight cut, 1 sessions ended)');
    socket.end();
  });
});
