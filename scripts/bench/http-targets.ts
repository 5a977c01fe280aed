/**
 * The HTTP bench's targets (http.ts): each does one read_source-sized round
 * trip per `call(i)`, as targets.ts's stdio ones do.
 *
 * - the raw HTTP floor: fetch POSTs to echo-http.ts, with a pooled socket
 *   (keep-alive) or a fresh connection per request (`Connection: close`, as
 *   caplab's transport sends: it keeps no pooled socket);
 * - the SDK baseline: Client + StreamableHTTPClientTransport against
 *   sdk-http-server.ts, written only with the SDK;
 * - caplab's strict client as the product runs it over HTTP (`demo
 *   --transport http`: openFixtureSession with `http`, so openHttpServeClient
 *   spawns the server with a fresh token and reads its `listening` line);
 * - caplab's host session over HTTP (openHttpHostClient: probe `--url` and
 *   `.mcp.json` http entries) against either server.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FIXTURE_HTTP_ARGS, FIXTURE_TOKEN_ENV } from '../../src/excerpt/fixture-launch.ts';
import { openFixtureSession, type FixtureSession } from '../../src/excerpt/fixture-session.ts';
import type { Snapshot } from '../../src/excerpt/snapshot.ts';
import { openHttpHostClient, type HttpHostClient, type Launch } from '../../src/mcp/index.ts';
import type { Listening } from './http-servers.ts';
import { hostCallTarget } from './servers.ts';
import type { Target } from './targets.ts';

const source = (i: number) => (i % 2 === 0 ? 'alpha' : 'beta');
export const SDK_HTTP_SERVER = join(import.meta.dir, 'sdk-http-server.ts');
const CAPLAB_SERVER = join(import.meta.dir, 'caplab-server.ts');

/** fetch POSTs of exactly the response sizes caplab's server sent, each answered with the same bytes. */
export function openHttpEcho(server: Listening, payloadSizes: readonly number[], fresh: boolean): Target {
  const payloads = payloadSizes.map((size) => 'x'.repeat(size));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(fresh ? { connection: 'close' } : {}) };
  return {
    name: `raw HTTP echo (fetch, ${fresh ? 'Connection: close' : 'keep-alive'})`,
    pid: server.pid,
    async call(i) {
      const body = payloads[i % payloads.length]!;
      const response = await fetch(server.url, { method: 'POST', body, headers, proxy: false } as RequestInit);
      if ((await response.text()).length !== body.length) throw new Error('echo-http answered other bytes');
    },
    close: async () => void (await server.stop()),
  };
}

/** The SDK as a user writes it over HTTP: Client + StreamableHTTPClientTransport, connect, listTools. */
export async function sdkHttpConnect(url: string, headers?: Record<string, string>): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined);
  const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
  await client.connect(transport);
  // listTools also primes the SDK client's outputSchema validator for callTool.
  await client.listTools();
  return { client, transport };
}

/** Ends an SDK HTTP session as the SDK has it: DELETE (terminateSession), then the client's close. */
export async function sdkHttpClose(opened: { client: Client; transport: StreamableHTTPClientTransport }): Promise<void> {
  await opened.transport.terminateSession();
  await opened.client.close();
}

/** Steady calls from the SDK client to an SDK server over HTTP; closing ends the session, not the server. */
export async function openSdkHttp(server: Listening, name: string, headers?: Record<string, string>): Promise<Target> {
  const opened = await sdkHttpConnect(server.url, headers);
  return {
    name,
    pid: server.pid,
    async call(i) {
      const result = await opened.client.callTool({ name: 'read_source', arguments: { source_id: source(i) } });
      if (result.isError || result.structuredContent === undefined) throw new Error('SDK read_source over HTTP failed');
    },
    close: () => sdkHttpClose(opened),
  };
}

/** caplab-server.ts over a sources folder, served over HTTP with the fixture's own flags (`--port 0`, stdin EOF, a token variable). */
export const sourcesHttpLaunch = (sourcesDir: string): Launch => ({ command: [process.execPath, CAPLAB_SERVER, sourcesDir, ...FIXTURE_HTTP_ARGS], cwd: '/', env: {} });

/** The fixture session over Streamable HTTP, as `demo --transport http` opens it (its server spawned by `launch` with a fresh token). */
export async function openCaplabHttp(snapshot: Snapshot, launch: Launch): Promise<FixtureSession> {
  const session = await openFixtureSession({ snapshot, instanceId: 'bench', launch, http: { tokenEnv: FIXTURE_TOKEN_ENV } });
  if (!session.ok) throw new Error(`caplab HTTP session: ${session.class}/${session.kind}: ${session.message}`);
  return session.value;
}

/** openHttpHostClient to a running server (handshake, listing); a failure throws. */
export async function openHostHttp(url: string, headers?: Record<string, string>): Promise<HttpHostClient> {
  const opened = await openHttpHostClient({ key: 'bench', url, instanceId: 'bench/http', ...(headers ? { headers } : {}) });
  if (!opened.ok) throw new Error(`openHttpHostClient: ${opened.class}/${opened.kind}: ${opened.message}`);
  return opened.value;
}

/** The host session over HTTP calling read_source on a running server, checked by its listed outputSchema. */
export async function hostHttpTarget(server: Listening, name: string, headers?: Record<string, string>): Promise<Target & { responseBytes(): number[] }> {
  return hostCallTarget(await openHostHttp(server.url, headers), name, server.pid);
}
