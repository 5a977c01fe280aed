import { afterEach, describe, expect, test } from 'bun:test';
import type { Failure } from '../../contract/index.ts';
import { startStrictSession, type SessionTimeouts, type StrictSession } from './strict-session.ts';
import { memoryServer, type MemoryServer } from '../../excerpt/testing/memory-server.ts';
import { MISBEHAVE_TOOL, type Mode } from '../../excerpt/testing/misbehave-server.ts';

/**
 * The strict session over the misbehaving server in memory (no process):
 * what the fixed profile does with each protocol-level misbehaviour. The
 * byte-level ones (stray stdout, bad UTF-8, over-size lines, trickled bytes)
 * and the process ones (crash, teardown) are the stdio client's, in client.test.ts.
 */
const TIMEOUTS: SessionTimeouts = { handshakeMs: 5_000, callMs: 5_000 };
const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };
const beta = { source_id: 'beta' };

const servers: MemoryServer[] = [];
const opened: StrictSession[] = [];
afterEach(async () => {
  for (const session of opened.splice(0)) await session.close();
  // Whatever a test did, the connection it opened ends closed (a refused handshake closes it itself).
  for (const server of servers.splice(0)) expect(server.closed()).toBe(true);
});

async function open(mode: Mode, callMs = TIMEOUTS.callMs): Promise<StrictSession> {
  const server = memoryServer(mode);
  servers.push(server);
  const session = await startStrictSession(server.transport, { tools: [MISBEHAVE_TOOL], timeouts: { ...TIMEOUTS, callMs } });
  if (!session.ok) throw new Error(`${session.class}/${session.kind}: ${session.message}`);
  opened.push(session.value);
  return session.value;
}

describe('every inbound message is checked on its own; a violation fails the session closed', () => {
  test.each([
    ['unknown_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['string_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['float_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['dup_key', 'protocol', 'duplicate_key', 'caplab host rule'],
    ['list_changed', 'protocol', 'tool_drift', 'caplab host rule'],
  ] as const)('%s → %s/%s (basis: %s), and later calls get the same failure', async (mode, errorClass, kind, basis) => {
    const session = await open(mode);
    const first = await session.callTool('read_source', beta, ids);
    expect(first).toMatchObject({ ok: false, class: errorClass, kind, basis });
    expect(session.failure()).toMatchObject({ class: errorClass, kind });
    expect(await session.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: errorClass, kind });
  });

  test('duplicate response → protocol/duplicate_response (the first answer stands)', async () => {
    const session = await open('duplicate');
    expect((await session.callTool('read_source', beta, ids)).ok).toBe(true);
    // The duplicate precedes any answer to a second request in the stream, so this call sees the failure.
    expect(await session.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'protocol', kind: 'duplicate_response' });
  });
});

describe('tools/call results', () => {
  test('a result checked against the pinned contract, with its three correlated ids', async () => {
    const session = await open('ok');
    const result = await session.callTool('read_source', beta, ids);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.structured).toMatchObject({ source_id: 'beta' });
    expect(result.value.exchange).toMatchObject({ jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-1', isError: false, outcome: 'ok' });
    expect(result.value.exchange.responseBytes).toBe(result.value.responseBytes);
  });

  test.each([
    ['is_error', 'business', 'tool_error', 'none'],
    ['rpc_error', 'protocol', 'jsonrpc_error', 'caplab host rule'],
    ['no_structured', 'protocol', 'output_invalid', 'spec MUST'],
    ['bad_output', 'protocol', 'output_invalid', 'spec MUST'],
    // The text block is JSON, but not the structuredContent sent beside it.
    ['conflict', 'evidence', 'result_conflict', 'caplab host rule'],
    // The text block is the source text, not the serialized structuredContent.
    ['text_only', 'evidence', 'result_conflict', 'caplab host rule'],
    // isError "true": the spec's boolean, as a string.
    ['is_error_string', 'protocol', 'malformed_result', 'spec MUST'],
    // An image without mimeType, a resource without uri …: each block lacks what its type requires.
    ['bad_blocks', 'protocol', 'malformed_result', 'spec MUST'],
  ] as const)('%s → %s/%s (basis: %s), session stays usable', async (mode, errorClass, kind, basis) => {
    const session = await open(mode);
    const called = await session.callTool('read_source', beta, ids);
    expect(called).toMatchObject({ ok: false, class: errorClass, kind });
    expect(!called.ok && (called.basis ?? 'none')).toBe(basis);
    expect(session.failure()).toBeUndefined();
    expect(session.exchanges()).toEqual([
      expect.objectContaining({ jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-1', isError: mode === 'is_error', outcome: `${errorClass}/${kind}` }),
    ]);
  });

  test('a name that is not a pinned tool is a programmer error', async () => {
    const session = await open('ok');
    expect(session.callTool('delete_everything', {}, ids)).rejects.toThrow('not a pinned tool');
  });
});

describe('unknown outcomes and shutdown', () => {
  test('hang → timeout/deadline at the configured limit; never re-sent', async () => {
    const session = await open('hang', 300);
    expect(await session.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(session.exchanges()).toHaveLength(1);
    expect(session.failure()).toBeUndefined();
  });

  test('a late answer to a timed-out request is ignored once (cancelled), and the session goes on', async () => {
    const session = await open('slow', 100);
    expect(await session.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    // The server answers #3 late, then #4: the late answer must neither fail the session nor satisfy #4.
    const second = await session.callTool('read_source', beta, { ...ids, timeoutMs: 5_000 });
    expect(second.ok && second.value.jsonrpcId).toBe(4);
    expect(session.failure()).toBeUndefined();
  });

  test('a server ping is answered, and the call then completes', async () => {
    const session = await open('ping');
    expect((await session.callTool('read_source', beta, ids)).ok).toBe(true);
  });

  test('abort by the caller → timeout/aborted (unknown outcome)', async () => {
    const session = await open('hang');
    const controller = new AbortController();
    const call = session.callTool('read_source', beta, { ...ids, signal: controller.signal });
    // Logged when sent: a caller that stops waiting can still name the request it gave up on.
    expect(session.exchanges()).toEqual([expect.objectContaining({ ...ids, jsonrpcId: 3, outcome: 'pending', responseBytes: 0 })]);
    controller.abort();
    expect(await call).toMatchObject({ ok: false, class: 'timeout', kind: 'aborted' });
    expect(session.exchanges()).toEqual([expect.objectContaining({ ...ids, jsonrpcId: 3, outcome: 'timeout/aborted' })]);
  });

  test('a server that hangs up mid-call → closed/connection_lost (unknown outcome), explained by the transport', async () => {
    const server = memoryServer('crash');
    servers.push(server);
    const explained: string[] = [];
    const explainClosed = (failure: Failure): Failure => (explained.push(failure.kind), { ...failure, issues: ['why'] });
    const session = await startStrictSession(server.transport, { tools: [MISBEHAVE_TOOL], timeouts: TIMEOUTS, explainClosed });
    if (!session.ok) throw new Error(session.message);
    expect(await session.value.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost', issues: ['why'] });
    expect(explained).toEqual(['connection_lost']);
  });

  test('calls in flight when the session closes settle as closed, not as "not executed"', async () => {
    const session = await open('hang');
    const call = session.callTool('read_source', beta, ids);
    await session.close();
    expect(await call).toMatchObject({ ok: false, class: 'closed', kind: 'session_closed' });
  });
});
