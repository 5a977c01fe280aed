/**
 * The SDK baseline server over Streamable HTTP: read_source
 * (sdk-read-source.ts) behind the SDK's StreamableHTTPServerTransport on a
 * node:http server, stateful, the way the SDK's own examples write it (a
 * random session id at initialize, one transport and one Server per session,
 * DELETE ends it). With `--json` its answers are JSON bodies
 * (`enableJsonResponse`, the shape `caplab serve --http` answers in); without,
 * the SDK's default, each answer an SSE stream. Binds 127.0.0.1 on a port the
 * system picks, prints `listening http://127.0.0.1:PORT/mcp`, and exits when
 * its stdin ends (the bench holds it open). Imports nothing from caplab.
 *
 * Usage: bun scripts/bench/sdk-http-server.ts SOURCES_DIR [--json]
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { readSourceServer } from './sdk-read-source.ts';

const [dir, mode] = process.argv.slice(2);
if (!dir || (mode !== undefined && mode !== '--json')) throw new Error('usage: sdk-http-server.ts SOURCES_DIR [--json]');
const newServer = readSourceServer(dir);
const transports = new Map<string, StreamableHTTPServerTransport>();

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (req, res) => {
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') return void res.writeHead(404).end();
  const body = req.method === 'POST' ? await bodyOf(req) : undefined;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport && id === undefined && req.method === 'POST' && isInitializeRequest(body)) {
    const fresh = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: mode === '--json',
      onsessioninitialized: (sessionId) => void transports.set(sessionId, fresh),
    });
    fresh.onclose = () => void (fresh.sessionId && transports.delete(fresh.sessionId));
    await newServer().connect(fresh);
    transport = fresh;
  }
  if (!transport) {
    res.writeHead(id === undefined ? 400 : 404, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: id === undefined ? 'no session id' : 'unknown session' }, id: null }));
  }
  await transport.handleRequest(req, res, body);
});

http.listen(0, '127.0.0.1', () => process.stdout.write(`listening http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`));
for await (const _ of Bun.stdin.stream());
for (const transport of transports.values()) await transport.close();
http.closeAllConnections();
http.close();
