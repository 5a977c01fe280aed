/**
 * The SDK v2 (2.4.0, test-only devDependencies; nothing fetched at test
 * time) against caplab, in the 2026-07-28 era: its client, pinned to the
 * revision and in `auto`, calls `read_source` on `caplab serve` with no
 * `initialize` on the wire.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sourceById } from '../excerpt/snapshot.ts';
import { fixtureSnapshot } from '../excerpt/sources.ts';

const ROOT = join(import.meta.dir, '../..');
const ENV = { PATH: '/usr/bin:/bin' };

type Negotiation = { mode: 'auto' } | { mode: { pin: '2026-07-28' } };

async function withServe<T>(versionNegotiation: Negotiation, use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'src/main.ts'), 'serve'], env: ENV, cwd: ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'caplab-v2-peer-test', version: '0.0.0' }, { versionNegotiation });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('the SDK v2 client against caplab serve, 2026-07-28', () => {
  test.each<[string, Negotiation]>([
    ['pinned to 2026-07-28', { mode: { pin: '2026-07-28' } }],
    ['auto', { mode: 'auto' }],
  ])('%s: negotiates the modern era, lists and calls read_source', async (_name, negotiation) => {
    const seen = await withServe(negotiation, async (client) => ({
      version: client.getNegotiatedProtocolVersion(),
      server: client.getServerVersion(),
      tools: (await client.listTools()).tools.map((tool) => tool.name),
      result: await client.callTool({ name: 'read_source', arguments: { source_id: 'alpha' } }),
    }));
    expect(seen.version).toBe('2026-07-28');
    expect(seen.server).toMatchObject({ name: 'caplab-fixture', version: '1.0.0' });
    expect(seen.tools).toEqual(['read_source']);
    expect(seen.result.isError).toBeFalsy();
    expect(seen.result.structuredContent).toMatchObject({ source_id: 'alpha', text: sourceById(fixtureSnapshot(), 'alpha')!.text });
  });
});
