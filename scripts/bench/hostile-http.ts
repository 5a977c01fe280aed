/**
 * The hostile test server's listings (src/mcp/probe/testing/hostile-server.ts)
 * over Streamable HTTP, for `caplab probe --url` in the bench: each POST
 * carries one message, a request is answered with a JSON body, a
 * notification 202; initialize issues an `Mcp-Session-Id`, DELETE ends the
 * session. The same answers, byte for byte, as the stdio server gives, so
 * probe over HTTP and over stdio list the same tools. Binds 127.0.0.1 on a
 * port the system picks, prints `listening http://127.0.0.1:PORT/mcp`, and
 * exits when its stdin ends (the bench holds it open).
 *
 * Usage: bun scripts/bench/hostile-http.ts MODE [N]
 */
import { randomBytes } from 'node:crypto';
import { HOSTILE_MODES, hostileServer, type HostileMessage, type HostileMode } from '../../src/mcp/probe/testing/hostile-server.ts';

const mode = process.argv[2] ?? 'realistic';
if (!(HOSTILE_MODES as readonly string[]).includes(mode)) throw new Error(`unknown mode ${mode}`);
let answer: string | undefined;
const handle = hostileServer(mode as HostileMode, Number(process.argv[3] ?? 1_000), (json) => void (answer = json));
const sessions = new Set<string>();

function post(message: HostileMessage): Response {
  answer = undefined;
  handle(message);
  if (answer === undefined) return new Response(null, { status: 202 });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (message.method === 'initialize') {
    const id = randomBytes(16).toString('hex');
    sessions.add(id);
    headers['mcp-session-id'] = id;
  }
  return new Response(answer, { headers });
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (new URL(request.url).pathname !== '/mcp') return new Response(null, { status: 404 });
    if (request.method === 'DELETE') return new Response(null, { status: sessions.delete(request.headers.get('mcp-session-id') ?? '') ? 200 : 404 });
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    return post((await request.json()) as HostileMessage);
  },
});
process.stdout.write(`listening http://127.0.0.1:${server.port}/mcp\n`);
for await (const _ of Bun.stdin.stream());
await server.stop(true);
