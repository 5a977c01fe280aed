import { afterEach, describe, expect, test } from 'bun:test';
import { fixtureSnapshot } from '../excerpt/sources.ts';
import { READ_SOURCE_EXPECTED } from '../excerpt/mcp-read-source.ts';
import { openStrictClient, type StrictClient } from './client.ts';
import type { ConnectionLimits } from './connection.ts';
import type { Mode } from './testing/misbehave.ts';
import { announcedPid, FAST, isRunning, misbehaveLaunch } from './testing/servers.ts';

const opened: StrictClient[] = [];
afterEach(async () => {
  // Whatever a test did, no server of it may survive.
  for (const client of opened.splice(0)) {
    const report = await client.close();
    expect(report.survivors).toEqual([]);
    expect(isRunning(client.pid)).toBe(false);
  }
});

async function open(mode: Mode, limits: Partial<ConnectionLimits> = {}, callMs = FAST.callMs): Promise<StrictClient> {
  const client = await openStrictClient({
    launch: misbehaveLaunch(mode),
    tools: [READ_SOURCE_EXPECTED],
    timeouts: { ...FAST, ...(callMs ? { callMs } : {}) },
    limits,
  });
  if (!client.ok) throw new Error(`${client.class}/${client.kind}: ${client.message}`);
  opened.push(client.value);
  return client.value;
}

const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };
const beta = { source_id: 'beta' };

describe('every inbound line is checked on its own; a violation fails the session closed', () => {
  test.each([
    ['stray', 'protocol', 'framing', 'spec MUST'],
    ['unknown_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['string_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['bad_utf8', 'protocol', 'encoding', 'spec MUST'],
    ['list_changed', 'protocol', 'tool_drift', 'caplab host rule'],
  ] as const)('%s → %s/%s (basis: %s), and later calls get the same failure', async (mode, errorClass, kind, basis) => {
    const client = await open(mode);
    const first = await client.callTool('read_source', beta, ids);
    expect(first).toMatchObject({ ok: false, class: errorClass, kind, basis });
    expect(client.failure()).toMatchObject({ class: errorClass, kind });
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: errorClass, kind });
  });

  test('over-size line → protocol/too_large (cap 64 KiB)', async () => {
    const client = await open('oversize', { maxLineBytes: 64 * 1024 });
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'protocol', kind: 'too_large' });
  });

  test('duplicate response → protocol/duplicate_response (the first answer stands)', async () => {
    const client = await open('duplicate');
    expect((await client.callTool('read_source', beta, ids)).ok).toBe(true);
    // The duplicate precedes any answer to a second request in the stream, so this call sees the failure.
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'protocol', kind: 'duplicate_response' });
  });
});

describe('tools/call results', () => {
  test('a response written one byte at a time, CJK split across writes, arrives byte-exact', async () => {
    const client = await open('trickle');
    const result = await client.callTool('read_source', beta, ids);
    if (!result.ok) throw new Error(result.message);
    const expected = fixtureSnapshot().sources.find((source) => source.id === 'beta')!;
    expect(Buffer.from(new TextEncoder().encode((result.value.structured as { text: string }).text))).toEqual(Buffer.from(expected.bytes));
    expect(result.value.exchange).toMatchObject({ jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-1', isError: false });
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
  ] as const)('%s → %s/%s (basis: %s), session stays usable', async (mode, errorClass, kind, basis) => {
    const client = await open(mode);
    const called = await client.callTool('read_source', beta, ids);
    expect(called).toMatchObject({ ok: false, class: errorClass, kind });
    expect(!called.ok && (called.basis ?? 'none')).toBe(basis);
    expect(client.failure()).toBeUndefined();
    expect(client.exchanges()).toEqual([
      expect.objectContaining({ jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-1', isError: mode === 'is_error', outcome: `${errorClass}/${kind}` }),
    ]);
  });
});

describe('unknown outcomes and shutdown', () => {
  test('hang → timeout/deadline at the configured limit; never re-sent', async () => {
    const client = await open('hang', {}, 300);
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    expect(client.exchanges()).toHaveLength(1);
    expect(client.failure()).toBeUndefined();
  });

  test('a late answer to a timed-out request is ignored once (cancelled), and the session goes on', async () => {
    const client = await open('slow', {}, 100);
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'timeout', kind: 'deadline' });
    // The server answers #3 late, then #4: the late answer must neither fail the session nor satisfy #4.
    const second = await client.callTool('read_source', beta, { ...ids, timeoutMs: 5_000 });
    expect(second.ok && second.value.jsonrpcId).toBe(4);
    expect(client.failure()).toBeUndefined();
  });

  test('a server ping is answered, and the call then completes', async () => {
    const client = await open('ping');
    expect((await client.callTool('read_source', beta, ids)).ok).toBe(true);
  });

  test('abort by the caller → timeout/aborted (unknown outcome)', async () => {
    const client = await open('hang');
    const controller = new AbortController();
    const call = client.callTool('read_source', beta, { ...ids, signal: controller.signal });
    // Logged when sent: a caller that stops waiting can still name the request it gave up on.
    expect(client.exchanges()).toEqual([expect.objectContaining({ ...ids, jsonrpcId: 3, outcome: 'pending', responseBytes: 0 })]);
    controller.abort();
    expect(await call).toMatchObject({ ok: false, class: 'timeout', kind: 'aborted' });
    expect(client.exchanges()).toEqual([expect.objectContaining({ ...ids, jsonrpcId: 3, outcome: 'timeout/aborted' })]);
  });

  test('crash mid-call → closed/connection_lost (unknown outcome)', async () => {
    const client = await open('crash');
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
  });

  test('a server that ignores SIGTERM and stdin EOF is SIGKILLed, group and all', async () => {
    const client = await open('ignore_term', {}, 200);
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'timeout' });
    const report = await client.close();
    expect(report.steps).toEqual(['stdin_end', 'sigterm', 'sigkill']);
    expect(report.survivors).toEqual([]);
    expect(isRunning(client.pid)).toBe(false);
  });

  test('a grandchild left behind (holding stdout open) is killed with the group', async () => {
    const client = await open('grandchild');
    expect((await client.callTool('read_source', beta, ids)).ok).toBe(true);
    const report = await client.close();
    const grandchild = announcedPid(client.stderr(), 'grandchild');
    expect(grandchild).toBeNumber();
    expect(report.steps).toContain('sigterm');
    expect(isRunning(grandchild!)).toBe(false);
  });

  test('calls in flight when the session closes settle as closed, not as "not executed"', async () => {
    const client = await open('hang');
    const call = client.callTool('read_source', beta, ids);
    await client.close();
    expect(await call).toMatchObject({ ok: false, class: 'closed', kind: 'session_closed' });
  });
});
