import { afterEach, describe, expect, test } from 'bun:test';
import type { Failure, ValidationIssue } from '../../contract/index.ts';
import { until } from '../../../test/until.ts';
import { startHostSession, type HostSession } from './host-session.ts';
import { HANG, hostPeer, initializeResult, listedTool, type Handler, type HostPeer } from './testing/host-peer.ts';

/**
 * The host session over hostile in-process servers (no process): the
 * handshake's revisions, pagination within bounds, results read by what the
 * tool listed, `list_changed` answered by a re-list, and a server that dies.
 */
const TIMEOUTS = { handshakeMs: 5_000, callMs: 5_000 };
const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };

/** A hand validator for an outputSchema `{ n: number }` (the real ones compile JSON Schema; the session only calls `validate`). */
const needsN = {
  validate: (value: unknown): readonly ValidationIssue[] =>
    typeof (value as { n?: unknown }).n === 'number' ? [] : [{ keyword: 'type', path: '/n', message: 'must be number' }],
};

const peers: HostPeer[] = [];
const sessions: HostSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  // Whatever a test did, the connection it opened ends closed (a refused handshake closes it itself).
  for (const server of peers.splice(0)) expect(server.transport.closed).toBe(true);
});

function serve(handlers: Record<string, Handler>): HostPeer {
  const server = hostPeer({ 'tools/list': () => ({ tools: [listedTool('echo'), listedTool('sum')] }), ...handlers });
  peers.push(server);
  return server;
}

async function open(server: HostPeer, options: { maxPages?: number; explainClosed?: (f: Failure) => Failure } = {}): Promise<HostSession> {
  const session = await startHostSession(server.transport, { timeouts: TIMEOUTS, ...options });
  if (!session.ok) throw new Error(`${session.class}/${session.kind}: ${session.message}`);
  sessions.push(session.value);
  return session.value;
}

/** Sends list_changed and waits (with a deadline) until the session has counted it: a notification in transit is not yet seen. */
async function announce(server: HostPeer, session: HostSession): Promise<void> {
  const seen = session.listChanged().seen;
  server.listChanged();
  await until(() => session.listChanged().seen > seen);
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const answer = (result: unknown): Handler => () => result;

describe('handshake: offers 2025-11-25, reads the revisions of the version table', () => {
  test('offers 2025-11-25 as caplab-host-client; a 2024-11-05 answer is read by its profile', async () => {
    const server = serve({ initialize: answer(initializeResult('2024-11-05')) });
    const session = await open(server);
    expect(server.received[0]).toMatchObject({ method: 'initialize', params: { protocolVersion: '2025-11-25', clientInfo: { name: 'caplab-host-client' } } });
    expect([session.protocolVersion, session.profile.version, session.profile.structured]).toEqual(['2024-11-05', '2024-11-05', false]);
    expect(server.methods().slice(0, 3)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(session.listing).toMatchObject({ entries: [listedTool('echo'), listedTool('sum')], pages: 1, complete: true, beyond: 0 });
  });

  test.each(['2025-11-25', '2025-06-18', '2025-03-26'])('a %s answer is read', async (version) => {
    const session = await open(serve({ initialize: answer(initializeResult(version)) }));
    expect(session.profile.version).toBe(version);
  });

  test.each([
    ['a revision outside the table', { initialize: answer(initializeResult('2099-01-01')) }, 'protocol', 'version_mismatch'],
    ['no tools capability', { initialize: answer({ ...initializeResult(), capabilities: {} }) }, 'protocol', 'unexpected_tools'],
    ['tools/list refused', { 'tools/list': answer({ error: { code: -32603, message: 'no' } }) }, 'protocol', 'jsonrpc_error'],
    ['tools/list not a page', { 'tools/list': answer({ tools: 'many' }) }, 'protocol', 'malformed_result'],
  ] as const)('%s → %s/%s, the connection closed', async (_, handlers, errorClass, kind) => {
    const server = serve(handlers);
    const session = await startHostSession(server.transport, { timeouts: TIMEOUTS });
    expect(session).toMatchObject({ ok: false, class: errorClass, kind });
  });
});

describe('tools/list pagination within bounds', () => {
  /** Pages `p0 … p(n-1)`, each one tool, each naming the next cursor (the last none, unless `endless`). */
  const paged = (n: number, endless = false): Handler => (params) => {
    const at = params['cursor'] === undefined ? 0 : Number(String(params['cursor']).slice(1));
    return { tools: [listedTool(`t${at}`)], ...(at + 1 < n || endless ? { nextCursor: `p${at + 1}` } : {}) };
  };

  test('cursors are sent back until the last page; every entry kept, in order', async () => {
    const server = serve({ 'tools/list': paged(3) });
    const session = await open(server);
    expect(session.listing).toMatchObject({ pages: 3, complete: true, entries: [listedTool('t0'), listedTool('t1'), listedTool('t2')] });
    expect(server.received.filter((m) => m['method'] === 'tools/list').map((m) => m['params'])).toEqual([{}, { cursor: 'p1' }, { cursor: 'p2' }]);
    expect(session.notices()).toEqual([]);
  });

  test('a server still paginating at maxPages is stopped there, with a notice', async () => {
    const server = serve({ 'tools/list': paged(0, true) });
    const session = await open(server, { maxPages: 4 });
    expect(session.listing).toMatchObject({ pages: 4, complete: false, stop: { kind: 'page_limit', page: 4, cursor: 'p4' } });
    expect(server.methods().filter((m) => m === 'tools/list')).toHaveLength(4);
    expect(session.notices()).toEqual(['tools/list stopped at page 4 on the page limit (4 pages): nextCursor "p4"; tools past it are not listed']);
  });

  test.each([
    ['an empty cursor', '', 'empty_cursor'],
    ['a non-string cursor', 7, 'empty_cursor'],
    ['a repeated cursor', 'again', 'repeated_cursor'],
  ] as const)('%s stops the listing, never sent back again', async (_, cursor, kind) => {
    const server = serve({ 'tools/list': () => ({ tools: [listedTool('a')], nextCursor: cursor }) });
    const session = await open(server);
    expect(session.listing).toMatchObject({ complete: false, stop: { kind, cursor } });
    expect(server.methods().filter((m) => m === 'tools/list')).toHaveLength(kind === 'repeated_cursor' ? 2 : 1);
  });
});

describe('tools/call results, read by what the tool listed', () => {
  test('without an outputSchema the text blocks are the result: data is { content } as received', async () => {
    const content = [text('The sum of 1 and 2 is 3.')];
    const server = serve({ 'tools/call': answer({ content }) });
    const session = await open(server);
    const called = await session.callTool({ name: 'sum' }, { a: 1, b: 2 }, ids);
    if (!called.ok) throw new Error(called.message);
    expect(called.value).toMatchObject({ data: { content }, content: [text('The sum of 1 and 2 is 3.')], jsonrpcId: 3 });
    expect(server.received.at(-1)).toMatchObject({ method: 'tools/call', params: { name: 'sum', arguments: { a: 1, b: 2 } } });
    expect(called.value.exchange).toMatchObject({ ...ids, jsonrpcId: 3, outcome: 'ok', isError: false, responseBytes: called.value.responseBytes });
    expect(called.value.requestBytes).toBeGreaterThan(0);
  });

  test('with an outputSchema: structuredContent validated, the agreeing text shown; data is structuredContent', async () => {
    const session = await open(serve({ 'tools/call': answer({ content: [text('{"n":3}')], structuredContent: { n: 3 } }) }));
    const called = await session.callTool({ name: 'sum', output: needsN }, {}, ids);
    expect(called.ok && [called.value.data, called.value.content]).toEqual([{ n: 3 }, [text('{"n":3}')]]);
  });

  test('structuredContent without a text block: the model is shown its JSON', async () => {
    const session = await open(serve({ 'tools/call': answer({ content: [], structuredContent: { n: 3 } }) }));
    const called = await session.callTool({ name: 'sum', output: needsN }, {}, ids);
    expect(called.ok && called.value.content).toEqual([text('{"n":3}')]);
  });

  test.each([
    ['isError', { content: [text('boom')], isError: true }, needsN, 'business', 'tool_error'],
    ['isError without an outputSchema', { content: [text('boom')], isError: true }, undefined, 'business', 'tool_error'],
    ['structuredContent missing', { content: [text('{"n":3}')] }, needsN, 'protocol', 'output_invalid'],
    ['structuredContent not conforming', { content: [text('{"n":"3"}')], structuredContent: { n: '3' } }, needsN, 'protocol', 'output_invalid'],
    ['text disagreeing with structuredContent', { content: [text('{"n":4}')], structuredContent: { n: 3 } }, needsN, 'evidence', 'result_conflict'],
    ['text that is not JSON', { content: [text('three')], structuredContent: { n: 3 } }, needsN, 'evidence', 'result_conflict'],
    ['not a CallToolResult', { content: [{ type: 'image', data: 'AA==' }] }, undefined, 'protocol', 'malformed_result'],
    ['a JSON-RPC error', { error: { code: -32602, message: 'bad' } }, undefined, 'protocol', 'jsonrpc_error'],
  ] as const)('%s → %s/%s, logged, the session goes on', async (_, result, output, errorClass, kind) => {
    const session = await open(serve({ 'tools/call': answer(result) }));
    const called = await session.callTool({ name: 'sum', ...(output ? { output } : {}) }, {}, ids);
    expect(called).toMatchObject({ ok: false, class: errorClass, kind });
    expect(session.exchanges()).toEqual([expect.objectContaining({ jsonrpcId: 3, isError: kind === 'tool_error', outcome: `${errorClass}/${kind}` })]);
    expect(session.failure()).toBeUndefined();
  });

  test('a non-conforming structuredContent names every issue the validator gave', async () => {
    const session = await open(serve({ 'tools/call': answer({ content: [], structuredContent: { n: '3' } }) }));
    const called = await session.callTool({ name: 'sum', output: needsN }, {}, ids);
    expect(!called.ok && called.issues).toEqual(['/n: type: must be number']);
  });

  test('non-text blocks reach the model as one text line each (type, mime, uri, bytes), never their base64', async () => {
    const png = Buffer.alloc(2048, 7).toString('base64');
    const content = [
      text('before'),
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'audio', data: 'AAA', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///x.txt', name: 'x', mimeType: 'text/plain' },
      { type: 'resource_link', uri: 'file:///big.bin', name: 'big', size: 4096 },
      { type: 'resource', resource: { uri: 'file:///note.md', mimeType: 'text/markdown', text: 'héllo' } },
      { type: 'resource', resource: { uri: 'mem://blob', blob: 'AAAA' } },
      { type: 'resource_link', uri: 'file:///two\nlines', name: 'odd' },
    ];
    const session = await open(serve({ 'tools/call': answer({ content }) }));
    const called = await session.callTool({ name: 'echo' }, {}, ids);
    if (!called.ok) throw new Error(called.message);
    expect(called.value.content.map((block) => block.type === 'text' && block.text)).toEqual([
      'before',
      '[image image/png, 2048 bytes]',
      '[audio audio/wav, 2 bytes]',
      '[resource_link file:///x.txt text/plain]',
      '[resource_link file:///big.bin, 4096 bytes]',
      '[resource file:///note.md text/markdown, 6 bytes]',
      '[resource mem://blob, 3 bytes]',
      '[resource_link file:///two lines]',
    ]);
    expect(JSON.stringify(called.value.content)).not.toContain(png.slice(0, 40));
    expect(called.value.data).toEqual({ content });
  });

  test('a name the server did not list first is a programmer error', async () => {
    const session = await open(serve({}));
    expect(session.callTool({ name: 'delete_everything' }, {}, ids)).rejects.toThrow('not a tool this server listed first');
  });
});

describe('list_changed: counted, and answered by a re-list before the next call', () => {
  /** tools/list answers with the current value of `tools`. */
  function changing(first: unknown[]): { tools: unknown[]; server: HostPeer } {
    const state = { tools: first, server: undefined as unknown as HostPeer };
    state.server = serve({ 'tools/list': () => ({ tools: state.tools }), 'tools/call': answer({ content: [text('ok')] }) });
    return state;
  }

  test('unchanged: re-listed before the call (not before), the call goes on', async () => {
    const state = changing([listedTool('echo'), listedTool('sum')]);
    const session = await open(state.server);
    await announce(state.server, session);
    await announce(state.server, session);
    expect(state.server.methods().filter((m) => m === 'tools/list')).toHaveLength(1);
    // Two notifications, one re-list: the next call answers both.
    const called = await session.callTool({ name: 'echo' }, {}, ids);
    expect(called.ok).toBe(true);
    expect(state.server.methods().filter((m) => m.startsWith('tools/'))).toEqual(['tools/list', 'tools/list', 'tools/call']);
    expect(session.listChanged()).toEqual({ seen: 2, relists: [{ outcome: 'unchanged', changed: [], removed: [], added: [] }] });
    // No notification since: the next call lists nothing.
    expect((await session.callTool({ name: 'sum' }, {}, ids)).ok).toBe(true);
    expect(state.server.methods().filter((m) => m === 'tools/list')).toHaveLength(2);
  });

  test('changed and removed tools are tool_drift for the rest of the session, not sent; the others go on', async () => {
    const state = changing([listedTool('echo'), listedTool('sum'), listedTool('gone')]);
    const session = await open(state.server);
    state.tools = [listedTool('echo'), listedTool('sum', { description: 'now different' })];
    await announce(state.server, session);
    const drifted = await session.callTool({ name: 'sum' }, {}, ids);
    expect(drifted).toMatchObject({ ok: false, class: 'protocol', kind: 'tool_drift', basis: 'caplab host rule' });
    expect(await session.callTool({ name: 'gone' }, {}, ids)).toMatchObject({ ok: false, kind: 'tool_drift' });
    expect(session.listChanged().relists).toEqual([{ outcome: 'changed', changed: ['sum'], removed: ['gone'], added: [] }]);
    expect(state.server.methods().filter((m) => m === 'tools/call')).toEqual([]);
    expect(session.exchanges()).toEqual([]);
    expect((await session.callTool({ name: 'echo' }, {}, ids)).ok).toBe(true);
    // Listed as it first was again: still drifted (never re-bound).
    state.tools = [listedTool('echo'), listedTool('sum'), listedTool('gone')];
    await announce(state.server, session);
    expect(await session.callTool({ name: 'sum' }, {}, ids)).toMatchObject({ ok: false, kind: 'tool_drift' });
    expect(session.listChanged().relists.at(-1)).toEqual({ outcome: 'unchanged', changed: [], removed: [], added: [] });
  });

  test('added tools are a notice, never callable', async () => {
    const state = changing([listedTool('echo')]);
    const session = await open(state.server);
    state.tools = [listedTool('echo'), listedTool('fresh')];
    await announce(state.server, session);
    expect((await session.callTool({ name: 'echo' }, {}, ids)).ok).toBe(true);
    expect(session.listChanged().relists).toEqual([{ outcome: 'changed', changed: [], removed: [], added: ['fresh'] }]);
    expect(session.notices()).toEqual(['re-list after tools/list_changed named 1 new tool(s), not callable in this session: fresh']);
    expect(session.callTool({ name: 'fresh' }, {}, ids)).rejects.toThrow('not a tool this server listed first');
  });

  test('a re-list that fails is recorded and fails that call with its failure; the next call re-lists again', async () => {
    let lists = 0;
    const server = serve({
      'tools/list': () => (++lists === 2 ? { error: { code: -32603, message: 'busy' } } : { tools: [listedTool('echo')] }),
      'tools/call': answer({ content: [text('ok')] }),
    });
    const session = await open(server);
    await announce(server, session);
    expect(await session.callTool({ name: 'echo' }, {}, ids)).toMatchObject({ ok: false, class: 'protocol', kind: 'jsonrpc_error' });
    expect(session.listChanged().relists).toEqual([{ outcome: 'failed', changed: [], removed: [], added: [], failure: { class: 'protocol', kind: 'jsonrpc_error', message: expect.stringContaining('busy') } }]);
    expect(session.exchanges()).toEqual([]);
    expect((await session.callTool({ name: 'echo' }, {}, ids)).ok).toBe(true);
    expect(session.listChanged().relists.map((r) => r.outcome)).toEqual(['failed', 'unchanged']);
  });

  test('a list_changed sent during the first listing is answered before the first call', async () => {
    const server = serve({
      'tools/list': (_, peer) => (peer.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }), { tools: [listedTool('echo')] }),
      'tools/call': answer({ content: [text('ok')] }),
    });
    const session = await open(server);
    expect((await session.callTool({ name: 'echo' }, {}, ids)).ok).toBe(true);
    expect(server.methods().filter((m) => m.startsWith('tools/'))).toEqual(['tools/list', 'tools/list', 'tools/call']);
    expect(session.listChanged()).toMatchObject({ seen: 2, relists: [{ outcome: 'unchanged' }] });
  });
});

describe('a server that dies', () => {
  test('the call in flight is closed/connection_lost (explained); later calls are precondition/server_closed, not sent', async () => {
    const server = serve({ 'tools/call': (_, peer) => (peer.close(), HANG) });
    const session = await open(server, { explainClosed: (failure) => ({ ...failure, issues: ['stderr tail'] }) });
    expect(await session.callTool({ name: 'echo' }, {}, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost', issues: ['stderr tail'] });
    const later = await session.callTool({ name: 'sum' }, {}, { toolCallId: 'toolu_2', actionId: 'act-2' });
    expect(later).toMatchObject({ ok: false, class: 'precondition', kind: 'server_closed' });
    expect(!later.ok && later.message).toContain('closed/connection_lost');
    expect(session.exchanges()).toEqual([expect.objectContaining({ actionId: 'act-1', outcome: 'closed/connection_lost' })]);
  });

  test('a server that dies while re-listing fails that call with the lost connection, the next with server_closed', async () => {
    let lists = 0;
    const server = serve({ 'tools/list': (_, peer) => (++lists === 2 ? (peer.close(), HANG) : { tools: [listedTool('echo')] }) });
    const session = await open(server);
    await announce(server, session);
    expect(await session.callTool({ name: 'echo' }, {}, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    expect(session.listChanged().relists).toEqual([expect.objectContaining({ outcome: 'failed', failure: expect.objectContaining({ kind: 'connection_lost' }) })]);
    expect(await session.callTool({ name: 'echo' }, {}, ids)).toMatchObject({ ok: false, kind: 'server_closed' });
    expect(session.exchanges()).toEqual([]);
  });

  test('a call after the host closed the session is server_closed, not sent', async () => {
    const server = serve({ 'tools/call': answer({ content: [text('ok')] }) });
    const session = await open(server);
    await session.close();
    expect(await session.callTool({ name: 'echo' }, {}, ids)).toMatchObject({ ok: false, class: 'precondition', kind: 'server_closed' });
    expect(server.methods()).not.toContain('tools/call');
    expect(session.exchanges()).toEqual([]);
  });
});
