/**
 * Real MCP peers against `caplab serve --http` with a token (test-only
 * devDependencies, from the lockfile): the SDK's Streamable HTTP client and
 * the pinned Inspector CLI call `read_source`; a wrong token fails both.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sourceById } from '../excerpt/snapshot.ts';
import { fixtureSnapshot } from '../excerpt/sources.ts';
import { ROOT, startServe } from './testing/serve-http.ts';

const TOKEN = 'peer-token-51c2e0';
const SERVE_ENV = { CAPLAB_TEST_TOKEN: TOKEN };
const ALPHA = () => sourceById(fixtureSnapshot(), 'alpha')!;

/** The SDK transport on fetch as every client here calls it: no proxy, no pooled socket kept. */
function sdkTransport(url: string, token: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('connection', 'close');
      return fetch(input, { ...init, headers, proxy: false } as RequestInit);
    },
  });
}

describe('the SDK Streamable HTTP client against caplab serve --http', () => {
  test('lists and calls read_source with the token, then ends its session (DELETE)', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], SERVE_ENV);
    const transport = sdkTransport(served.url, TOKEN);
    const client = new Client({ name: 'caplab-peer-test', version: '0.0.0' });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    // The SDK offers 2025-11-25: the session sees that revision's count_words too.
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['read_source', 'count_words']);
    const result = await client.callTool({ name: 'read_source', arguments: { source_id: 'alpha' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source_id: 'alpha', text: ALPHA().text });
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    await client.close();
  });

  test('a wrong token fails the connect (401), and no session opens', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], SERVE_ENV);
    const transport = sdkTransport(served.url, `${TOKEN}-wrong`);
    const client = new Client({ name: 'caplab-peer-test', version: '0.0.0' });
    let failure: unknown;
    await client.connect(transport).catch((error: unknown) => (failure = error));
    // The SDK's StreamableHTTPError carries the HTTP status as its code.
    expect([(failure as { code?: unknown }).code, String(failure)]).toEqual([401, expect.stringContaining('Authorization: Bearer <token> is required')]);
    expect(transport.sessionId).toBeUndefined();
    await client.close();
  });
});

const INSPECTOR_CLI = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');

/** The Inspector CLI, from a folder whose parent holds a package.json (it reads its own through a cwd-relative check). */
async function inspector(url: string, token: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn([process.execPath, INSPECTOR_CLI, url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args], {
    cwd: join(ROOT, 'src'),
    env: { PATH: '/usr/bin:/bin' },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const [out, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out };
}

describe('the Inspector CLI against caplab serve --http', () => {
  test('tools/call read_source source_id=alpha with the token', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], SERVE_ENV);
    const { code, out } = await inspector(served.url, TOKEN, '--method', 'tools/call', '--tool-name', 'read_source', '--tool-arg', 'source_id=alpha');
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source_id: 'alpha', text: ALPHA().text });
  });

  test('a wrong token fails (non-zero exit, no result)', async () => {
    const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], SERVE_ENV);
    const { code, out } = await inspector(served.url, 'wrong', '--method', 'tools/call', '--tool-name', 'read_source', '--tool-arg', 'source_id=alpha');
    expect(code).not.toBe(0);
    expect(out).not.toContain('structuredContent');
  });
});
