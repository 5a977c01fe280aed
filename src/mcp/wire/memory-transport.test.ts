import { describe, expect, test } from 'bun:test';
import type { Failure } from '../../contract/index.ts';
import { memoryTransportPair } from './memory-transport.ts';
import type { InboundMessage } from './messages.ts';

/** Lets every queued delivery run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function collect() {
  const [client, server] = memoryTransportPair();
  const got: { message: InboundMessage; bytes: number }[] = [];
  const ends: { how: 'error' | 'close'; failure: Failure }[] = [];
  client.onmessage = (message, info) => got.push({ message, bytes: info.bytes });
  client.onerror = (failure) => ends.push({ how: 'error', failure });
  client.onclose = (failure) => ends.push({ how: 'close', failure });
  return { client, server, got, ends };
}

describe('memoryTransportPair', () => {
  test('delivers in order, never from inside send, each message a copy measured as a stdio line', async () => {
    const { client, server, got } = collect();
    const seen: Record<string, unknown>[] = [];
    server.onmessage = (message) => seen.push(message);
    client.start();
    const params = { text: '茶' };
    const written = client.send({ jsonrpc: '2.0', id: 1, method: 'm', params });
    const line = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm', params })}\n`;
    expect(written).toEqual({ bytes: new TextEncoder().encode(line).byteLength });
    expect(client.measure({ jsonrpc: '2.0', id: 1, method: 'm', params })).toBe(written.bytes);
    expect(seen).toEqual([]);
    await settled();
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 1, method: 'm', params }]);
    expect(seen[0]!['params']).not.toBe(params);

    server.send({ jsonrpc: '2.0', id: 1, result: { a: 1 } });
    server.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(got).toEqual([]);
    await settled();
    expect(got.map((g) => g.message.type)).toEqual(['result', 'notification']);
    expect(got[0]!.bytes).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { a: 1 } }).length + 1);
  });

  test('holds what arrives before start()', async () => {
    const { client, server, got } = collect();
    server.send({ jsonrpc: '2.0', id: 1, result: {} });
    await settled();
    expect(got).toEqual([]);
    client.start();
    await settled();
    expect(got).toHaveLength(1);
  });

  test('an envelope that is not JSON-RPC is onerror (not_jsonrpc), and nothing is delivered after it', async () => {
    const { client, server, got, ends } = collect();
    client.start();
    server.send([{ jsonrpc: '2.0', id: 1, result: {} }]);
    server.send({ jsonrpc: '2.0', id: 2, result: {} });
    server.close();
    await settled();
    expect(got).toEqual([]);
    expect(ends).toEqual([{ how: 'error', failure: expect.objectContaining({ class: 'protocol', kind: 'not_jsonrpc', basis: 'spec MUST' }) }]);
  });

  test('the server hanging up is onclose (connection_lost), after what it sent before', async () => {
    const { client, server, got, ends } = collect();
    client.start();
    server.send({ jsonrpc: '2.0', id: 1, result: {} });
    server.close();
    server.send({ jsonrpc: '2.0', id: 2, result: {} });
    await settled();
    expect(got).toHaveLength(1);
    expect(ends).toEqual([{ how: 'close', failure: expect.objectContaining({ class: 'closed', kind: 'connection_lost' }) }]);
  });

  test('close(): the server sees it; nothing is delivered or written after it, and no end is reported', async () => {
    const { client, server, got, ends } = collect();
    let serverSawClose = 0;
    server.onclose = () => serverSawClose++;
    client.start();
    server.send({ jsonrpc: '2.0', id: 1, result: {} });
    await client.close();
    await client.close();
    const written = client.send({ jsonrpc: '2.0', method: 'late', params: {} });
    expect(written).toMatchObject({ failure: { class: 'closed' } });
    expect(written.bytes).toBeGreaterThan(0);
    await settled();
    expect([got, ends, serverSawClose, server.closed, client.closed]).toEqual([[], [], 1, true, true]);
  });
});

describe('memoryTransportPair, used carelessly', () => {
  test("a server handler that throws is a crashed server: the client sees connection_lost, not an uncaught error", async () => {
    const { client, server, ends } = collect();
    server.onmessage = () => {
      throw new Error('server bug');
    };
    client.start();
    client.send({ jsonrpc: '2.0', id: 1, method: 'm', params: {} });
    await settled();
    expect(server.closed).toBe(true);
    expect(ends).toEqual([{ how: 'close', failure: expect.objectContaining({ class: 'closed', kind: 'connection_lost', message: expect.stringContaining('server bug') }) }]);
  });

  test('a send after the server hung up writes nothing and says so (connection_lost), as stdio does', async () => {
    const { client, server } = collect();
    const seen: unknown[] = [];
    server.onmessage = (message) => seen.push(message);
    client.start();
    server.close();
    const written = client.send({ jsonrpc: '2.0', id: 1, method: 'm', params: {} });
    expect(written).toMatchObject({ failure: { class: 'closed', kind: 'connection_lost' } });
    expect(written.bytes).toBeGreaterThan(0);
    await settled();
    expect(seen).toEqual([]);
  });
});
