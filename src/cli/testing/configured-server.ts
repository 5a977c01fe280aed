/**
 * TEST ONLY — a stdio MCP server for `--mcp-config` tests, as users'
 * servers misbehave: `bun configured-server.ts MODE`. Every mode reports
 * serverInfo.name `same-name`, so that two entries of it differ only by key.
 *
 * - `echo`: `echo` (its `text` has a `default`) answers with the arguments it
 *   received, as text; `dotted.name` and a 70-character name answer alike.
 * - `drift`: `echo`, and on its first call a `list_changed`, sent before the
 *   answer (so the client has read it by its next call); the re-list shows
 *   `echo` with another description (its next call is tool_drift).
 * - `die`: `echo`, and `crash`, which kills the server before answering.
 * - `names NAME…`: one tool per NAME, each answering as `echo` does.
 * - `display`: answers 2025-11-25, its serverInfo with a description, a
 *   website and an icon, and `echo` with a title and two icons (one a long
 *   `data:` URI), for what `caplab tools` shows and never fetches.
 */

const mode = process.argv[2] ?? 'echo';
const LONG_NAME = `long_${'x'.repeat(65)}`;

const echoTool = (description = 'Echoes its arguments.') => ({
  name: 'echo',
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string', default: 'filled-by-default' } }, additionalProperties: false },
  annotations: { readOnlyHint: true, idempotentHint: true },
});

let echoCalls = 0;

function tools(): unknown[] {
  if (mode === 'echo') return [echoTool(), { ...echoTool(), name: 'dotted.name' }, { ...echoTool(), name: LONG_NAME }];
  if (mode === 'names') return process.argv.slice(3).map((name) => ({ ...echoTool(), name }));
  if (mode === 'drift') return [echoTool(echoCalls > 0 ? 'Echoes, but not as it did.' : undefined)];
  if (mode === 'display') return [{ ...echoTool(), title: 'Echo \u001b[31mback', icons: [{ src: 'https://icons.example.test/echo.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: `data:image/png;base64,${'A'.repeat(4_000)}` }, { nope: 1 }] }];
  return [echoTool(), { name: 'crash', inputSchema: { type: 'object' } }];
}

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function answer(id: number | string, method: string, params: Record<string, unknown>): void {
  if (method === 'initialize') {
    const display = mode === 'display' ? { description: 'Echoes for people.', websiteUrl: 'https://echo.example.test', icons: [{ src: 'https://echo.example.test/i.svg' }] } : {};
    send({ jsonrpc: '2.0', id, result: { protocolVersion: mode === 'display' ? '2025-11-25' : '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'same-name', version: '1.0.0', ...display } } });
  } else if (method === 'tools/list') {
    send({ jsonrpc: '2.0', id, result: { tools: tools() } });
  } else if (method === 'tools/call') {
    if (params['name'] === 'crash') process.exit(3);
    echoCalls += 1;
    if (mode === 'drift' && echoCalls === 1) send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(params['arguments'] ?? null) }] } });
  } else if (method === 'ping') {
    send({ jsonrpc: '2.0', id, result: {} });
  } else {
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as { id?: number | string; method?: string; params?: Record<string, unknown> };
    if (message.id !== undefined && message.method !== undefined) answer(message.id, message.method, message.params ?? {});
  }
});
process.stdin.on('end', () => process.exit(0));
