import { afterEach, describe, expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { LIMITS } from '../../contract/index.ts';
import { fixtureSnapshot } from '../../excerpt/sources.ts';
import { spawnChild, type SpawnFn } from '../wire/child.ts';
import { openStrictClient, type StrictClient } from './client.ts';
import type { Launch } from '../wire/launch.ts';
import type { ConnectionLimits } from '../wire/stdio-transport.ts';
import { MISBEHAVE_TOOL, type Mode } from '../../excerpt/testing/misbehave-server.ts';
import { announcedPid, isRunning } from '../wire/testing/processes.ts';
import { FAST } from './testing/timeouts.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';

/**
 * The strict client over a real server process: what only stdio has — bytes
 * on a real pipe (framing, UTF-8, the line cap, trickled writes), spawning,
 * crashing and stopping a process group. Protocol-level behaviour is tested
 * without a process (correlator, handshake and strict-session tests).
 */
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
    key: 'misbehaving',
    launch: misbehaveLaunch(mode),
    tools: [MISBEHAVE_TOOL],
    timeouts: { ...FAST, ...(callMs ? { callMs } : {}) },
    limits,
  });
  if (!client.ok) throw new Error(`${client.class}/${client.kind}: ${client.message}`);
  opened.push(client.value);
  return client.value;
}

/** Opens a client and remembers the pid it spawned, so /proc can be checked afterwards. */
async function openWatched(launch: Launch) {
  const pids: number[] = [];
  const spawn: SpawnFn = (l) => {
    const child = spawnChild(l);
    if (child.ok) pids.push(child.value.pid);
    return child;
  };
  const client = await openStrictClient({ key: 'misbehaving', launch, tools: [MISBEHAVE_TOOL], timeouts: FAST, spawn });
  return { client, pids };
}

const ids = { toolCallId: 'toolu_1', actionId: 'act-1' };
const beta = { source_id: 'beta' };

describe('every inbound line is checked on its own; a violation fails the session closed', () => {
  test.each([
    ['stray', 'protocol', 'framing', 'spec MUST'],
    ['bad_utf8', 'protocol', 'encoding', 'spec MUST'],
    // The answer's id written 3.0: equal to 3 in value, not in JSON text.
    ['float_id', 'protocol', 'unknown_id', 'spec MUST'],
    ['dup_key', 'protocol', 'duplicate_key', 'caplab host rule'],
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

  test('a response written one byte at a time, CJK split across writes, arrives byte-exact', async () => {
    const client = await open('trickle');
    const result = await client.callTool('read_source', beta, ids);
    if (!result.ok) throw new Error(result.message);
    const expected = fixtureSnapshot().sources.find((source) => source.id === 'beta')!;
    expect(Buffer.from(new TextEncoder().encode((result.value.structured as { text: string }).text))).toEqual(Buffer.from(expected.bytes));
    expect(result.value.exchange).toMatchObject({ jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-1', isError: false });
  });
});

describe('starting: the handshake over a real process', () => {
  test('a banner before initialize → protocol/framing (basis: spec MUST), and no process is left', async () => {
    const { client, pids } = await openWatched(misbehaveLaunch('banner'));
    expect(client).toMatchObject({ ok: false, class: 'protocol', kind: 'framing', basis: 'spec MUST' });
    expect(pids).toHaveLength(1);
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a well-behaved server passes and reports its identity; closing is the polite stdin EOF', async () => {
    const { client, pids } = await openWatched(misbehaveLaunch('ok'));
    if (!client.ok) throw new Error(client.message);
    // The key is the host's name for the server; serverInfo is kept as the server reported it.
    expect(client.value.identity).toMatchObject({ key: 'misbehaving', name: 'misbehave-ok', version: '0.0.1', protocolVersion: '2025-06-18' });
    expect(client.value.identity.endpoint).toEqual({ kind: 'stdio', argv: misbehaveLaunch('ok').command, cwd: '/', envNames: [] });
    const report = await client.value.close();
    expect(report.steps).toEqual(['stdin_end']);
    expect(report.exitCode).toBe(0);
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a command that cannot be started → spawn/spawn_failed', async () => {
    const { client, pids } = await openWatched({ command: ['/nonexistent/caplab-server'], cwd: '/', env: {} });
    expect(client).toMatchObject({ ok: false, class: 'spawn', kind: 'spawn_failed' });
    expect(pids).toHaveLength(0);
  });

  test('a server that exits before answering → spawn/exited_early, with its stderr kept', async () => {
    const launch = { command: [process.execPath, '-e', 'console.error("no config"); process.exit(2)'], cwd: '/', env: {} };
    const { client, pids } = await openWatched(launch);
    expect(client).toMatchObject({ ok: false, class: 'spawn', kind: 'exited_early' });
    expect(!client.ok && client.issues?.join('\n')).toContain('no config');
    expect(isRunning(pids[0]!)).toBe(false);
  });

  test('a failure carries the end of the server stderr, at most LIMITS.serverStderrBytes of UTF-8, no half character', async () => {
    // 3-byte characters then an 8-byte end: the bound falls inside a character, which is dropped whole.
    const launch = { command: [process.execPath, '-e', 'console.error("語".repeat(5000) + "THE END!"); process.exit(2)'], cwd: '/', env: {} };
    const { client } = await openWatched(launch);
    const issue = (!client.ok && client.issues?.find((i) => i.startsWith('server stderr (tail): '))) || '';
    const kept = Math.floor((LIMITS.serverStderrBytes - 'THE END!'.length) / 3);
    expect(issue).toBe(`server stderr (tail): ${'語'.repeat(kept)}THE END!`);
  });
});

describe('unknown outcomes and shutdown', () => {
  test('crash mid-call → closed/connection_lost (unknown outcome)', async () => {
    const client = await open('crash');
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
  });

  test('a call the session ended carries the server stderr tail', async () => {
    const client = await open('slow');
    const call = client.callTool('read_source', beta, ids);
    // The server logs the call on stderr; wait until caplab has read it.
    await until(() => client.stderr().includes('tools/call #3 received'));
    await client.close();
    const ended = await call;
    expect(ended).toMatchObject({ ok: false, class: 'closed', kind: 'session_closed' });
    expect(!ended.ok && ended.issues).toEqual(['server stderr (tail): tools/call #3 received']);
  });

  test('a server that stops reading (closes its stdin) mid-session: a call too big for the pipe is closed/connection_lost, "server stopped reading", and the host lives on', async () => {
    const client = await open('deaf');
    // 100 KB: more than the pipe takes at once, so Bun reports the broken pipe later, as a rejected flush.
    const called = await client.callTool('read_source', { source_id: 'x'.repeat(100_000) }, ids);
    expect(called).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    expect(!called.ok && called.message).toContain('server stopped reading');
    expect(await client.callTool('read_source', beta, ids)).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
  });

  test('a server that pings with 512 KB ids and reads nothing: its answers stop at LIMITS.mcpUnsentBytes, the session ends closed/peer_not_reading', async () => {
    // 16 pings: 8 MiB of answers it never reads.
    const { client, pids } = await openWatched(misbehaveLaunch('ping_flood'));
    expect(client).toMatchObject({ ok: false, class: 'closed', kind: 'peer_not_reading' });
    expect(!client.ok && client.message).toContain(`would pass ${LIMITS.mcpUnsentBytes}`);
    expect(isRunning(pids[0]!)).toBe(false);
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
});
