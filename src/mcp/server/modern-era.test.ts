import { describe, expect, test } from 'bun:test';
import { driveServe } from '../../excerpt/testing/drive-serve.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
};
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'caplab-fixture', version: '1.0.0' } };
const line = (id: number, method: string, params?: Record<string, unknown>) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`;
const modern = (id: number, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = ENVELOPE) =>
  line(id, method, { ...params, _meta: meta });

describe('caplab serve: 2026-07-28 per request, no initialize', () => {
  test('server/discover answers the revision, capabilities, identity, resultType and the cache hints', async () => {
    const driven = await driveServe(modern(1, 'server/discover'));
    expect(driven.answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: SERVER_META },
      },
    ]);
  });

  test('tools/list carries the cache hints, tools/call only resultType; both name the server', async () => {
    const driven = await driveServe(modern(1, 'tools/list') + modern(2, 'tools/call', { name: 'read_source', arguments: { source_id: 'alpha' } }));
    const [list, call] = driven.answers.map((answer) => answer['result'] as Record<string, unknown>);
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: SERVER_META });
    // count_words is a 2025-11-25 fixture: listed in the modern era too, without `execution` (that era has no such member).
    expect((list!['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual(['read_source', 'count_words']);
    expect((list!['tools'] as Record<string, unknown>[]).some((tool) => 'execution' in tool)).toBe(false);
    expect(call).toMatchObject({ resultType: 'complete', _meta: SERVER_META, structuredContent: { source_id: 'alpha' } });
    expect(call).not.toHaveProperty('ttlMs');
    expect(call).not.toHaveProperty('cacheScope');
  });

  test('a tool error stays a result with resultType, an unknown tool a -32602', async () => {
    const driven = await driveServe(modern(1, 'tools/call', { name: 'read_source', arguments: { source_id: 'gamma' } }) + modern(2, 'tools/call', { name: 'nope' }));
    expect(driven.answers[0]!['result']).toMatchObject({ isError: true, resultType: 'complete' });
    expect(driven.answers[1]!['error']).toMatchObject({ code: -32602 });
  });

  test.each(['2025-06-18', '2099-01-01', ''])('envelope version %p is -32022 naming what is supported', async (version) => {
    const driven = await driveServe(modern(1, 'tools/list', {}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': version }));
    expect(driven.answers).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32022, message: expect.stringContaining('Unsupported protocol version'), data: { supported: ['2026-07-28'], requested: version } } },
    ]);
  });

  test.each([
    ['no clientCapabilities', { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }],
    ['a version that is not a string', { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': 20260728 }],
    ['a clientInfo without a version', { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 't' } }],
  ])('an envelope with %s is -32602', async (_name, meta) => {
    const driven = await driveServe(modern(1, 'server/discover', {}, meta));
    expect(driven.answers[0]!['error']).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid _meta envelope') });
  });

  test('server/discover without the envelope, and initialize or ping with it, are not found', async () => {
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };
    const driven = await driveServe(line(1, 'server/discover') + modern(2, 'initialize', initialize) + modern(3, 'ping'));
    expect(driven.answers.map((answer) => (answer['error'] as { code: number }).code)).toEqual([-32601, -32601, -32601]);
  });

  test('a 2025-06-18 session beside it is answered exactly as before: no resultType, no hints', async () => {
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } };
    const driven = await driveServe(line(1, 'initialize', initialize) + line(2, 'tools/list') + modern(3, 'tools/list') + line(4, 'tools/list'));
    expect(driven.answers[0]!['result']).toEqual({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'caplab-fixture', version: '1.0.0' } });
    expect(Object.keys(driven.answers[1]!['result'] as object)).toEqual(['tools']);
    expect(driven.answers[2]!['result']).toMatchObject({ resultType: 'complete' });
    expect(driven.lines[3]).toBe(driven.lines[1]!.replace('"id":2', '"id":4'));
  });
});
