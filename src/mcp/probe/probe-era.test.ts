import { describe, expect, test } from 'bun:test';
import { memoryTransportPair } from '../wire/index.ts';
import { runProbe, type ProbeRun, type ProbeRunOptions } from './probe-run.ts';

/**
 * Probe's 2026-07-28 era and `--protocol auto`, against a scripted server in
 * memory: what it sends (the envelope on each request, no initialize, no
 * ping), what it holds results to, and the order `auto` falls back in.
 */
type Message = { readonly id?: number; readonly method?: string; readonly params?: Record<string, unknown> };
/** What the scripted server answers one request with: a result, an error, or nothing (silence). */
type Answer = { readonly result: Record<string, unknown> } | { readonly error: { code: number; message: string; data?: unknown } } | undefined;

const SERVER_META = { _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } } };
const TOOL = { name: 'echo', inputSchema: { type: 'object' } };
const MODERN: Record<string, Answer> = {
  'server/discover': { result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete', ttlMs: 0, cacheScope: 'private', ...SERVER_META } },
  'tools/list': { result: { tools: [TOOL], resultType: 'complete', ttlMs: 5000, cacheScope: 'public', ...SERVER_META } },
  'tools/call': { result: { content: [{ type: 'text', text: 'hi' }], resultType: 'complete', ...SERVER_META } },
};
const LEGACY: Record<string, Answer> = {
  'server/discover': { error: { code: -32601, message: 'Method not found' } },
  initialize: { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } } },
  'tools/list': { result: { tools: [TOOL] } },
  'tools/call': { result: { content: [{ type: 'text', text: 'hi' }] } },
  ping: { result: {} },
};
const FAST: ProbeRunOptions['timeouts'] = { startupMs: 2_000, requestMs: 300 };

/** Runs probe against a server answering each method from `script` (a function of the n-th request of that method, for changes mid-session). */
async function probeScripted(
  script: Record<string, Answer | ((nth: number) => Answer)>,
  options: Partial<ProbeRunOptions> = {},
): Promise<ProbeRun<void> & { received: Message[] }> {
  const [transport, peer] = memoryTransportPair();
  const received: Message[] = [];
  const seen = new Map<string, number>();
  peer.onmessage = (raw) => {
    const message = raw as Message;
    received.push(message);
    if (message.id === undefined || message.method === undefined) return;
    const nth = (seen.get(message.method) ?? 0) + 1;
    seen.set(message.method, nth);
    const entry = script[message.method];
    const answer = typeof entry === 'function' ? entry(nth) : (entry ?? { error: { code: -32601, message: 'Method not found' } });
    if (answer) peer.send({ jsonrpc: '2.0', id: message.id, ...answer });
  };
  const run = await runProbe(transport, { ...options, timeouts: { ...FAST, ...options.timeouts } });
  return { ...run, received };
}

const requests = (received: readonly Message[]) => received.filter((m) => m.id !== undefined).map((m) => m.method);
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'caplab-strict-client', version: '1.0.0' },
};
const CALL = { name: 'echo', arguments: {} };

describe('probe in the 2026-07-28 era', () => {
  test.each(['auto', '2026-07-28'])('--protocol %s: discover, list, call, discover again; the envelope on each, no initialize, no ping', async (protocol) => {
    const run = await probeScripted(MODERN, { protocol, calls: [CALL] });
    expect(run.failure).toBeUndefined();
    expect(run).toMatchObject({ started: true, protocolVersion: '2026-07-28', serverInfo: { name: 'scripted' }, findings: [], negotiation: { mode: protocol, era: 'modern' } });
    expect(run.negotiation?.signal).toBe('server/discover answered supportedVersions ["2026-07-28"]');
    expect(run.calls.map((call) => call.outcome)).toEqual(['result']);
    expect(requests(run.received)).toEqual(['server/discover', 'tools/list', 'tools/call', 'server/discover']);
    for (const message of run.received.filter((m) => m.id !== undefined)) expect(message.params?.['_meta']).toEqual(ENVELOPE);
    // Not even a notification of the legacy era.
    expect(run.received.map((m) => m.method)).not.toContain('notifications/initialized');
  });

  test.each([
    ['no resultType on tools/list', { ...MODERN, 'tools/list': { result: { tools: [TOOL], ttlMs: 0, cacheScope: 'private' } } }, 'result_type'],
    ['tools/list without cache hints', { ...MODERN, 'tools/list': { result: { tools: [TOOL], resultType: 'complete' } } }, 'cache_hints'],
    ['a cacheScope that is neither public nor private', { ...MODERN, 'tools/list': { result: { tools: [TOOL], resultType: 'complete', ttlMs: 0, cacheScope: 'shared' } } }, 'cache_hints'],
    ['a negative ttlMs', { ...MODERN, 'tools/list': { result: { tools: [TOOL], resultType: 'complete', ttlMs: -1, cacheScope: 'private' } } }, 'cache_hints'],
    ['a discover result without resultType', { ...MODERN, 'server/discover': { result: { supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 0, cacheScope: 'private' } } }, 'result_type'],
  ])('%s ends the session: protocol/%s, spec MUST', async (_name, script, kind) => {
    const run = await probeScripted(script, { protocol: 'auto', calls: [CALL] });
    expect(run.failure).toMatchObject({ class: 'protocol', kind, basis: 'spec MUST' });
    expect(run.calls.map((call) => call.outcome)).toEqual(['not_sent']);
  });

  test.each(['input_required', 'task'])('a tools/call answered resultType %p, never asked for, is unknown and ends the session', async (resultType) => {
    const run = await probeScripted({ ...MODERN, 'tools/call': { result: { resultType, inputRequests: {} } } }, { protocol: '2026-07-28', calls: [CALL, CALL] });
    expect(run.calls.map((call) => call.outcome)).toEqual(['unknown', 'not_sent']);
    expect(run.calls[0]!.findings).toMatchObject([{ kind: 'unrequested_result_type', basis: 'spec MUST' }]);
    expect(requests(run.received).filter((m) => m === 'tools/call')).toHaveLength(1);
  });

  test('a tools/call without resultType is a violation too (the result is not judged)', async () => {
    const run = await probeScripted({ ...MODERN, 'tools/call': { result: { content: [] } } }, { protocol: 'auto', calls: [CALL] });
    expect(run.calls[0]).toMatchObject({ outcome: 'failed', findings: [{ kind: 'result_type' }] });
  });

  test('a discover result that does not name the server is a SHOULD finding, the session goes on', async () => {
    const { _meta: _, ...bare } = (MODERN['server/discover'] as { result: Record<string, unknown> }).result;
    const run = await probeScripted({ ...MODERN, 'server/discover': { result: bare } }, { protocol: 'auto' });
    expect(run.failure).toBeUndefined();
    expect(run.serverInfo).toBeUndefined();
    expect(run.findings).toMatchObject([{ kind: 'no_server_info', basis: 'spec SHOULD' }]);
  });

  test('pinned 2026-07-28 on a server that does not offer it: version_mismatch, no initialize', async () => {
    const run = await probeScripted(LEGACY, { protocol: '2026-07-28' });
    expect(run.failure).toMatchObject({ kind: 'version_mismatch', message: 'the server does not offer 2026-07-28, which --protocol pins' });
    expect(requests(run.received)).toEqual(['server/discover']);
  });
});

describe('--protocol auto falls back in order', () => {
  test('-32601 to discover: initialize offering 2025-11-25 on the same connection, the signal named', async () => {
    const run = await probeScripted(LEGACY, { protocol: 'auto', calls: [CALL] });
    expect(run.failure).toBeUndefined();
    expect(run).toMatchObject({ protocolVersion: '2025-11-25', negotiation: { mode: 'auto', era: 'legacy', signal: 'server/discover refused with -32601 ("Method not found")' } });
    expect(requests(run.received)).toEqual(['server/discover', 'initialize', 'tools/list', 'tools/call', 'ping']);
    const initialize = run.received.find((m) => m.method === 'initialize')!;
    expect(initialize.params).toEqual({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'caplab-strict-client', version: '1.0.0' } });
    // The legacy era: no envelope after the discover.
    for (const message of run.received.slice(1)) expect(message.params?.['_meta']).toBeUndefined();
  });

  test('silence past the request deadline: initialize', async () => {
    const run = await probeScripted({ ...LEGACY, 'server/discover': () => undefined }, { protocol: 'auto', timeouts: { startupMs: 2_000, requestMs: 150 } });
    expect(run.failure).toBeUndefined();
    expect(run.negotiation).toEqual({ mode: 'auto', era: 'legacy', signal: 'no answer to server/discover within 150 ms' });
    expect(requests(run.received).slice(0, 2)).toEqual(['server/discover', 'initialize']);
  });

  test('a discover result without 2026-07-28 (or without a list): initialize', async () => {
    const run = await probeScripted({ ...LEGACY, 'server/discover': { result: { supportedVersions: ['2027-01-01'] } } }, { protocol: 'auto' });
    expect(run).toMatchObject({ protocolVersion: '2025-11-25', negotiation: { era: 'legacy' } });
    expect(run.negotiation?.signal).toContain('without 2026-07-28');
  });

  test('-32022 listing nothing probe reads: version_mismatch; listing a legacy revision it reads: initialize', async () => {
    const refuse = (supported: string[]): Answer => ({ error: { code: -32022, message: 'Unsupported protocol version', data: { supported, requested: '2026-07-28' } } });
    const none = await probeScripted({ ...LEGACY, 'server/discover': refuse(['2027-01-01']) }, { protocol: 'auto' });
    expect(none.failure).toMatchObject({ class: 'protocol', kind: 'version_mismatch' });
    expect(none.failure?.evidence).toContain('supported ["2027-01-01"]');
    expect(requests(none.received)).toEqual(['server/discover']);
    const older = await probeScripted({ ...LEGACY, 'server/discover': refuse(['2025-06-18']) }, { protocol: 'auto' });
    expect(older).toMatchObject({ protocolVersion: '2025-11-25', negotiation: { era: 'legacy' } });
  });

  test('silence, then initialize refused with -32022 naming 2026-07-28: discover once more, modern', async () => {
    const script = {
      ...MODERN,
      'server/discover': (nth: number) => (nth === 1 ? undefined : MODERN['server/discover']),
      initialize: { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2025-11-25' } } },
    };
    const run = await probeScripted(script, { protocol: 'auto', timeouts: { startupMs: 2_000, requestMs: 150 } });
    expect(run.failure).toBeUndefined();
    expect(run).toMatchObject({ protocolVersion: '2026-07-28', negotiation: { mode: 'auto', era: 'modern' } });
    expect(run.negotiation?.signal).toContain('initialize refused with -32022 naming 2026-07-28');
    expect(requests(run.received).slice(0, 3)).toEqual(['server/discover', 'initialize', 'server/discover']);
  });

  test('an explicit legacy revision opens exactly as the default does: initialize first, no discover, no negotiation', async () => {
    const plain = await probeScripted(LEGACY, {});
    const pinned = await probeScripted(LEGACY, { protocol: '2025-06-18' });
    expect(pinned.received).toEqual(plain.received);
    expect(requests(pinned.received)[0]).toBe('initialize');
    expect(pinned.negotiation).toBeUndefined();
    const offered = await probeScripted(LEGACY, { protocol: '2025-11-25' });
    expect(offered.received[0]!.params?.['protocolVersion']).toBe('2025-11-25');
  });
});
