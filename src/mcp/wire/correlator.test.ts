import { describe, expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { fail } from '../../contract/index.ts';
import { refuse } from './basis.ts';
import { Correlator } from './correlator.ts';
import { memoryTransportPair, type MemoryPeer } from './memory-transport.ts';
import type { InboundMessage } from './messages.ts';
import type { Transport } from './transport.ts';

/** A correlator over an in-memory pair; the test plays the server. */
function pair(options: ConstructorParameters<typeof Correlator>[1] = {}) {
  const [transport, server] = memoryTransportPair();
  const seen: Record<string, unknown>[] = [];
  server.onmessage = (message) => seen.push(message);
  const correlator = new Correlator(transport, options);
  return { correlator, server, seen, transport };
}

const answer = (server: MemoryPeer, id: unknown, result: Record<string, unknown> = {}) => server.send({ jsonrpc: '2.0', id, result });
const LONG = { timeoutMs: 5_000 };

describe('correlation', () => {
  test('ids count from 1; each answer settles its own request with both sizes, in any order', async () => {
    const { correlator, server, seen } = pair();
    const first = correlator.request('a', {}, LONG);
    const second = correlator.request('b', { x: 1 }, LONG);
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first.requestBytes).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'a', params: {} }).length + 1);
    await until(() => seen.length === 2);
    server.send({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'no' } });
    answer(server, 1, { ok: true });
    expect(await second.reply).toMatchObject({ ok: true, value: { id: 2, answer: { error: { code: -32000 } } } });
    const reply = await first.reply;
    expect(reply).toMatchObject({ ok: true, value: { id: 1, requestBytes: first.requestBytes, answer: { result: { ok: true } } } });
    expect(reply.ok && reply.value.responseBytes).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } }).length + 1);
  });

  test.each([
    ['an id no request has', 1001, 'unknown_id'],
    ['the right number as a string (JSON type counts)', '1', 'unknown_id'],
    ['id null', null, 'unknown_id'],
  ] as const)('a response for %s fails the session (basis spec MUST); later requests get the same failure', async (_name, id, kind) => {
    const { correlator, server } = pair();
    const sent = correlator.request('a', {}, LONG);
    if (id === null) server.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    else answer(server, id);
    expect(await sent.reply).toMatchObject({ ok: false, class: 'protocol', kind, basis: 'spec MUST' });
    expect(correlator.failure).toMatchObject({ kind });
    const later = correlator.request('b', {}, LONG);
    expect(later.requestBytes).toBeGreaterThan(0);
    expect(await later.reply).toMatchObject({ ok: false, class: 'protocol', kind });
    expect(server.closed).toBe(true);
  });

  test('a second response for an id fails the session: the first answer stands', async () => {
    const { correlator, server } = pair();
    const first = correlator.request('a', {}, LONG);
    answer(server, 1, { n: 1 });
    expect(await first.reply).toMatchObject({ ok: true, value: { answer: { result: { n: 1 } } } });
    const second = correlator.request('b', {}, LONG);
    answer(server, 1, { n: 2 });
    expect(await second.reply).toMatchObject({ ok: false, class: 'protocol', kind: 'duplicate_response', basis: 'spec MUST' });
  });

  test('what the transport reports ends the session: an error with its rule, a hang-up as connection_lost', async () => {
    const broken = pair();
    const a = broken.correlator.request('a', {}, LONG);
    broken.server.send({ jsonrpc: '1.0', id: 1, result: {} });
    expect(await a.reply).toMatchObject({ ok: false, class: 'protocol', kind: 'not_jsonrpc' });
    const gone = pair();
    const b = gone.correlator.request('b', {}, LONG);
    gone.server.close();
    expect(await b.reply).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    expect(gone.correlator.notify('n', {})).toMatchObject({ ok: false, kind: 'connection_lost' });
  });
  test('after the session failed, nothing more is read, even from a transport that keeps delivering', async () => {
    // A transport that breaks the seam's rule and delivers after close().
    const written: unknown[] = [];
    const leaky: Transport = {
      start() {},
      send: (message) => (written.push(message), { bytes: 1 }),
      measure: () => 1,
      close: async () => {},
    };
    const correlator = new Correlator(leaky);
    const deliver = (message: InboundMessage) => leaky.onmessage?.(message, { bytes: 1 });
    const sent = correlator.request('a', {}, LONG);
    deliver({ type: 'result', message: { jsonrpc: '2.0', id: 9, result: {} } });
    expect(await sent.reply).toMatchObject({ ok: false, kind: 'unknown_id' });
    deliver({ type: 'request', message: { jsonrpc: '2.0', id: 'srv-1', method: 'ping' } });
    deliver({ type: 'result', message: { jsonrpc: '2.0', id: 1, result: {} } });
    expect(correlator.failure).toMatchObject({ kind: 'unknown_id' });
    expect(written).toHaveLength(1);
  });
});

describe('deadlines and cancellation', () => {
  test('past its deadline → timeout/deadline, notifications/cancelled sent; the late answer is ignored once and the session goes on', async () => {
    const { correlator, server, seen } = pair();
    const late = correlator.request('tools/call', {}, { timeoutMs: 30 });
    expect(await late.reply).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    await until(() => seen.length === 2);
    expect(seen[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'deadline' } });
    answer(server, 1);
    const next = correlator.request('tools/call', {}, LONG);
    answer(server, 2);
    expect(await next.reply).toMatchObject({ ok: true, value: { id: 2 } });
    expect(correlator.failure).toBeUndefined();
    // Ignored once: a second late answer to the same id is a duplicate.
    const third = correlator.request('tools/call', {}, LONG);
    answer(server, 1);
    expect(await third.reply).toMatchObject({ ok: false, kind: 'duplicate_response' });
  });

  test('abort by the caller → timeout/aborted, cancelled with that reason; an already-aborted signal writes only the cancellation', async () => {
    const { correlator, seen } = pair();
    const controller = new AbortController();
    const sent = correlator.request('tools/call', {}, { ...LONG, signal: controller.signal });
    controller.abort();
    expect(await sent.reply).toMatchObject({ ok: false, class: 'timeout', kind: 'aborted' });
    const gaveUp = correlator.request('tools/call', {}, { ...LONG, signal: controller.signal });
    expect(gaveUp.requestBytes).toBe(sent.requestBytes);
    expect(await gaveUp.reply).toMatchObject({ ok: false, kind: 'aborted' });
    await until(() => seen.length === 3);
    expect(seen.map((m) => [m['method'], (m['params'] as Record<string, unknown>)['requestId'] ?? m['id']])).toEqual([
      ['tools/call', 1],
      ['notifications/cancelled', 1],
      ['notifications/cancelled', 2],
    ]);
  });

  test('initialize is never cancelled: giving up on it closes the session instead', async () => {
    const { correlator, server, seen } = pair();
    const init = correlator.request('initialize', {}, { timeoutMs: 30 });
    const other = correlator.request('tools/list', {}, LONG);
    const reply = await init.reply;
    expect(reply).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(!reply.ok && reply.message).toContain('session closed (initialize is never cancelled)');
    expect(await other.reply).toMatchObject({ ok: false, kind: 'deadline' });
    await until(() => server.closed);
    expect(seen.map((m) => m['method'])).toEqual(['initialize', 'tools/list']);
  });

  test('close() settles requests in flight as closed/session_closed (outcome unknown), once', async () => {
    const { correlator, server } = pair();
    const sent = correlator.request('tools/call', {}, LONG);
    const closing = correlator.close();
    expect(correlator.close()).toBe(closing);
    await closing;
    expect(await sent.reply).toMatchObject({ ok: false, class: 'closed', kind: 'session_closed' });
    expect(server.closed).toBe(true);
  });
});

describe('what the server sends unasked', () => {
  test('ping is answered {}; any other request -32601; both observed; the session goes on', async () => {
    const observed: string[] = [];
    const { correlator, server, seen } = pair({ onRequest: (method) => observed.push(method) });
    server.send({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    server.send({ jsonrpc: '2.0', id: 'srv-2', method: 'sampling/createMessage', params: {} });
    await until(() => seen.length === 2);
    expect(seen).toEqual([
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'method not supported by this client: sampling/createMessage' } },
    ]);
    expect(observed).toEqual(['ping', 'sampling/createMessage']);
    expect(correlator.failure).toBeUndefined();
  });

  test('a notification the policy refuses ends the session with the policy failure', async () => {
    const policy = (method: string) => (method === 'bad' ? refuse('protocol', 'tool_drift', 'refused') : undefined);
    const { correlator, server } = pair({ onNotification: policy });
    const sent = correlator.request('a', {}, LONG);
    server.send({ jsonrpc: '2.0', method: 'fine' });
    server.send({ jsonrpc: '2.0', method: 'bad' });
    expect(await sent.reply).toMatchObject({ ok: false, kind: 'tool_drift', message: 'refused' });
  });
});

describe("a library user's own parts that throw end the session as a value, never as an exception", () => {
  /** A transport whose send throws from the n-th call on (a bug in the transport). */
  function throwingFrom(n: number) {
    let calls = 0;
    const transport: Transport = {
      start() {},
      send: () => {
        if (++calls >= n) throw new Error('boom');
        return { bytes: 1 };
      },
      measure: () => 1,
      close: async () => {},
    };
    return transport;
  }

  test('send throws on the request: the reply is closed/transport_error, and no cancellation is sent later', async () => {
    const correlator = new Correlator(throwingFrom(1));
    const sent = correlator.request('a', {}, { timeoutMs: 20 });
    expect(await sent.reply).toMatchObject({ ok: false, class: 'closed', kind: 'transport_error' });
    expect(correlator.failure?.message).toContain('boom');
    // Past the deadline the request is long settled: nothing more is sent, nothing throws.
    await Bun.sleep(40);
    expect(correlator.notify('x', {})).toMatchObject({ ok: false, kind: 'transport_error' });
  });

  test('send throws on the cancellation after a deadline: the session fails closed, the request settles once', async () => {
    const correlator = new Correlator(throwingFrom(2));
    const sent = correlator.request('a', {}, { timeoutMs: 10 });
    expect(await sent.reply).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(correlator.failure).toMatchObject({ class: 'closed', kind: 'transport_error' });
  });

  test('a notification policy or request observer that throws fails the session, with what threw', async () => {
    const throwing = () => {
      throw new Error('policy bug');
    };
    for (const options of [{ onNotification: throwing }, { onRequest: throwing }]) {
      const { correlator, server } = pair(options);
      const sent = correlator.request('a', {}, LONG);
      server.send('onNotification' in options ? { jsonrpc: '2.0', method: 'n' } : { jsonrpc: '2.0', id: 's', method: 'ping' });
      expect(await sent.reply).toMatchObject({ ok: false, class: 'closed', kind: 'callback_error' });
      expect(correlator.failure?.message).toContain('policy bug');
    }
  });

  test('the answer to a server request that cannot be written fails the session', async () => {
    let calls = 0;
    const transport: Transport = {
      start() {},
      send: () => (++calls === 1 ? { bytes: 1 } : { bytes: 1, failure: fail('closed', 'connection_lost', 'gone') }),
      measure: () => 1,
      close: async () => {},
    };
    const correlator = new Correlator(transport);
    const sent = correlator.request('a', {}, LONG);
    transport.onmessage?.({ type: 'request', message: { jsonrpc: '2.0', id: 's', method: 'ping' } }, { bytes: 1 });
    expect(await sent.reply).toMatchObject({ ok: false, kind: 'connection_lost' });
    expect(calls).toBe(2);
  });
});
