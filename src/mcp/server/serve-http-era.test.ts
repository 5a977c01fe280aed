/**
 * `serve --http` stays in the initialize era: the 2026-07-28 envelope, which
 * stdio `serve` answers per request, changes nothing over HTTP (the modern
 * era there needs its header rules, not built).
 */
import { expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { serveToolsHttp } from './serve-http.ts';
import type { ToolServer } from './tool-server.ts';

const SERVER: ToolServer = { info: { name: 'in-process', version: '0' }, tools: [] };
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

test('over HTTP an enveloped tools/list is answered as 2025-06-18, and server/discover is not found', async () => {
  let stdout = '';
  const stop = new AbortController();
  const exited = serveToolsHttp(SERVER, { host: '127.0.0.1', port: 0, allowOrigins: [], exitOnStdinEof: false }, {
    stdout: (text) => void (stdout += text),
    stderr: () => undefined,
    stop: stop.signal,
    force: new AbortController().signal,
  });
  try {
    await until(() => stdout.includes('\n'));
    const url = /^listening (\S+)\n$/.exec(stdout)![1]!;
    const post = (message: unknown, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', connection: 'close', ...headers }, body: JSON.stringify(message), proxy: false } as RequestInit);
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const listed = (await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } }, headers)).json()) as { result: Record<string, unknown> };
    expect(listed.result).toEqual({ tools: [] });
    const discovered = (await (await post({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: ENVELOPE } }, headers)).json()) as { error: { code: number } };
    expect(discovered.error.code).toBe(-32601);
  } finally {
    stop.abort('test over');
    expect(await exited).toBe(0);
  }
});
