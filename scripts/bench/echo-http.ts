/**
 * The raw HTTP floor: a Bun.serve that answers each POST with its body
 * unchanged. No JSON-RPC, no session: only the cost of one HTTP exchange on
 * loopback (and, when the client sends `Connection: close`, of a fresh TCP
 * connection per request), which every Streamable HTTP call pays at least.
 * Binds 127.0.0.1 on a port the system picks, prints `listening
 * http://127.0.0.1:PORT/mcp`, and exits when its stdin ends.
 *
 * Usage: bun scripts/bench/echo-http.ts
 */
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    return new Response(await request.arrayBuffer(), { headers: { 'content-type': 'application/json' } });
  },
});
process.stdout.write(`listening http://127.0.0.1:${server.port}/mcp\n`);
for await (const _ of Bun.stdin.stream());
await server.stop(true);
