/**
 * TEST ONLY — a hostile Streamable HTTP server, run as its own process (so the
 * test process's sockets are its client's alone): `bun hostile-http.ts MODE
 * [ARG]`. It prints `{"port":N}`, then one JSON line per request it got (or,
 * as `decoy`, per TCP connection), and exits when its stdin closes.
 *
 * Modes: `well` (a server that behaves: session `s-1`, a JSON initialize, an
 * SSE tools/list with a comment, a foreign event and a server ping before the
 * answer, a JSON tools/call), `redirect-301` / `redirect-307` (every POST sent
 * to ARG), `unauthorized`, `forbidden`, `server-error`, `teapot` (418),
 * `big-json`, `big-sse`, `drop-sse` (tools/call: a stream that breaks before its
 * answer), `hang` (tools/call: a stream that never answers), `session-404`
 * (every tools/call 404s; each initialize a fresh session), `notify-200` (notifications answered 200), `bad-session-id`
 * (ARG: `long` or `space`), `wrong-type` (tools/call: its JSON answer labelled
 * text/plain), `request-202` (tools/call answered 202), `other-id` (tools/call:
 * a JSON answer to another id), `decoy` (a raw TCP listener).
 */
import { LIMITS } from '../../../contract/index.ts';

const [mode = 'well', arg = ''] = process.argv.slice(2);
const log = (entry: unknown): void => void process.stdout.write(`${JSON.stringify(entry)}\n`);
const json = (value: unknown, init: ResponseInit = {}): Response =>
  new Response(JSON.stringify(value), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
const sse = (chunks: readonly string[], end = true): Response => {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(new TextEncoder().encode(chunk));
        await Bun.sleep(1);
      }
      if (end) controller.close();
      else controller.error(new Error('dropped'));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
};
/** A body streamed in 64 KiB chunks, with no Content-Length to trust. */
const chunked = (text: string, contentType: string): Response => {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
  return new Response(body, { headers: { 'content-type': contentType } });
};

const TOOLS = { tools: [{ name: 'add', inputSchema: { type: 'object' } }] };
let sessions = 0;

function initialize(id: unknown): Response {
  sessions += 1;
  const session = mode === 'bad-session-id' ? (arg === 'long' ? 'x'.repeat(LIMITS.httpSessionIdBytes + 1) : 'has space') : `s-${sessions}`;
  return json({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } } }, { headers: { 'mcp-session-id': session } });
}

function answer(message: { id?: unknown; method?: string; result?: unknown }): Response {
  const { id, method } = message;
  if (method === 'initialize') return initialize(id);
  if (method === undefined || id === undefined) return mode === 'notify-200' ? json({}) : new Response(null, { status: 202 });
  if (method === 'tools/list') {
    if (mode === 'big-sse') return sse([`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { pad: 'x'.repeat(LIMITS.sseEventBytes) } })}\n\n`]);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    const listed = JSON.stringify({ jsonrpc: '2.0', id, result: TOOLS });
    return sse([': comment\n\n', 'event: other\ndata: {"not":"delivered"}\n\n', `data: ${ping}\r\n\r\n`, `data: ${listed.slice(0, 20)}`, `${listed.slice(20)}\n\n`]);
  }
  if (method === 'tools/call') {
    if (mode === 'drop-sse') return sse([': working\n\n'], false);
    if (mode === 'hang') return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(': working\n\n')) }), { headers: { 'content-type': 'text/event-stream' } });
    if (mode === 'session-404') return new Response('unknown session', { status: 404 });
    if (mode === 'wrong-type') return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }), { headers: { 'content-type': 'text/plain' } });
    if (mode === 'request-202') return new Response(null, { status: 202 });
    if (mode === 'other-id') return json({ jsonrpc: '2.0', id: 'not-yours', result: { content: [] } });
    if (mode === 'big-json') return chunked(JSON.stringify({ jsonrpc: '2.0', id, result: { pad: 'x'.repeat(LIMITS.httpBodyBytes) } }), 'application/json');
    return json({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } });
  }
  return json({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } });
}

function modeResponse(): Response | undefined {
  if (mode === 'redirect-301' || mode === 'redirect-307') return new Response(null, { status: Number(mode.slice(-3)), headers: { location: arg } });
  if (mode === 'unauthorized') return new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token", resource_metadata="https://auth.example/.well-known/oauth-protected-resource"' } });
  if (mode === 'forbidden') return new Response('no', { status: 403 });
  if (mode === 'server-error') return new Response('boom', { status: 500 });
  if (mode === 'teapot') return new Response('no', { status: 418 });
  return undefined;
}

const HEADERS = ['accept', 'content-type', 'connection', 'mcp-session-id', 'mcp-protocol-version', 'authorization', 'x-extra'];

async function handle(request: Request): Promise<Response> {
  const text = request.method === 'POST' ? await request.text() : '';
  const body = text === '' ? null : (JSON.parse(text) as { id?: unknown; method?: string });
  const headers = Object.fromEntries(HEADERS.flatMap((name) => (request.headers.has(name) ? [[name, request.headers.get(name)]] : [])));
  log({ method: request.method, path: new URL(request.url).pathname, headers, body });
  if (request.method === 'DELETE') return new Response(null, { status: 200 });
  return modeResponse() ?? answer(body ?? {});
}

if (mode === 'decoy') {
  const listener = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { open: (socket) => {
        log({ connection: true });
        socket.end();
      }, data: () => {} } });
  log({ port: listener.port });
} else {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle });
  log({ port: server.port });
}
// Ends when the test closes stdin (or kills it).
for await (const _ of Bun.stdin.stream()) void _;
process.exit(0);
