import { describe, expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { LIMITS, type Failure } from '../../contract/index.ts';
import type { InboundMessage } from './messages.ts';
import { DEFAULT_CONNECTION_LIMITS, StdioTransport, type ConnectionLimits } from './stdio-transport.ts';
import { fakeChild, type FakeChild } from './testing/fake-child.ts';

const GRACES = { exitMs: 1_000, termMs: 1_000, killMs: 1_000 };

function started(fake: FakeChild = fakeChild(), limits: Partial<ConnectionLimits> = {}) {
  const transport = new StdioTransport(fake.child, { ...DEFAULT_CONNECTION_LIMITS, ...limits }, GRACES);
  const got: { message: InboundMessage; bytes: number }[] = [];
  const ends: { how: 'error' | 'close'; failure: Failure }[] = [];
  transport.onmessage = (message, info) => got.push({ message, bytes: info.bytes });
  transport.onerror = (failure) => ends.push({ how: 'error', failure });
  transport.onclose = (failure) => ends.push({ how: 'close', failure });
  transport.start();
  return { fake, transport, got, ends };
}

describe('StdioTransport over an in-memory child (no process)', () => {
  test('a line split across chunks, inside a character, arrives once with its wire size', async () => {
    const { fake, got } = started();
    const line = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"result":{"t":"茶"}}\n');
    fake.stdout(line.subarray(0, 35));
    fake.stdout(line.subarray(35));
    await until(() => got.length > 0);
    expect(got).toEqual([{ message: { type: 'result', message: { jsonrpc: '2.0', id: 1, result: { t: '茶' } } }, bytes: line.byteLength }]);
  });

  test('send writes one JSON line and reports its size; measure agrees without writing', () => {
    const { fake, transport } = started();
    const message = { jsonrpc: '2.0', id: 1, method: 'ping', params: {} } as const;
    const line = `${JSON.stringify(message)}\n`;
    expect(transport.measure(message)).toBe(line.length);
    expect(fake.written).toEqual([]);
    expect(transport.send(message)).toEqual({ bytes: line.length });
    expect(fake.written).toEqual([line]);
  });

  test('a failed write is the failure of send', () => {
    const { fake, transport } = started();
    fake.breakStdin();
    expect(transport.send({ jsonrpc: '2.0', method: 'x', params: {} })).toMatchObject({ failure: { class: 'closed', kind: 'connection_lost' } });
  });

  test('a write that fails after send returned ends the stream: onclose connection_lost, once', async () => {
    const { fake, transport, ends } = started();
    expect(transport.send({ jsonrpc: '2.0', method: 'x', params: {} }).failure).toBeUndefined();
    fake.loseStdin('EPIPE');
    await until(() => ends.length > 0);
    expect(ends).toEqual([{ how: 'close', failure: expect.objectContaining({ class: 'closed', kind: 'connection_lost', message: 'server stopped reading: EPIPE' }) }]);
  });

  test('a server that reads nothing: past maxUnsentBytes nothing more is written, the send fails closed/peer_not_reading', () => {
    const { fake, transport } = started(fakeChild(), { maxUnsentBytes: 120 });
    fake.stallStdin();
    const ping = { jsonrpc: '2.0', id: 'p'.repeat(20), result: {} } as const;
    const line = transport.measure(ping);
    expect([transport.send(ping), transport.send(ping)]).toEqual([{ bytes: line }, { bytes: line }]);
    const refused = transport.send(ping);
    expect(refused).toMatchObject({ bytes: line, failure: { class: 'closed', kind: 'peer_not_reading' } });
    expect(refused.failure?.message).toContain(`has not read ${2 * line} bytes`);
    expect(fake.child.unsentBytes()).toBe(2 * line);
  });

  test('maxUnsentBytes defaults to LIMITS.mcpUnsentBytes', () => {
    expect(DEFAULT_CONNECTION_LIMITS.maxUnsentBytes).toBe(LIMITS.mcpUnsentBytes);
  });

  test('a bad line is onerror with its rule; the lines before it arrive, nothing after it', async () => {
    const { fake, got, ends } = started();
    fake.stdout('{"jsonrpc":"2.0","id":1,"result":{}}\nnot json\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
    fake.stdout('{"jsonrpc":"2.0","id":3,"result":{}}\n');
    fake.endStdout();
    await until(() => ends.length > 0);
    await Bun.sleep(5);
    expect(got.map((g) => g.message.type === 'result' && g.message.message.id)).toEqual([1]);
    expect(ends).toEqual([{ how: 'error', failure: expect.objectContaining({ class: 'protocol', kind: 'framing', basis: 'spec MUST' }) }]);
  });

  test('a line over maxLineBytes is refused before its newline arrives', async () => {
    const { fake, ends } = started(fakeChild(), { maxLineBytes: 64 });
    fake.stdout(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${'x'.repeat(64)}`);
    await until(() => ends.length > 0);
    expect(ends).toEqual([{ how: 'error', failure: expect.objectContaining({ class: 'protocol', kind: 'too_large', basis: 'caplab host rule' }) }]);
  });

  test('EOF inside a line is onclose (connection_lost) naming the unfinished bytes', async () => {
    const { fake, ends } = started();
    fake.stdout('{"jsonrpc":"2.0"');
    fake.endStdout();
    await until(() => ends.length > 0);
    expect(ends).toEqual([{ how: 'close', failure: expect.objectContaining({ class: 'closed', kind: 'connection_lost' }) }]);
    expect(ends[0]!.failure.message).toBe('server closed stdout (16 bytes of an unfinished line); outcome of pending requests unknown');
  });

  test('an exit while stdout stays open (a grandchild holds it) is onclose after drainMs, with the code', async () => {
    const { fake, ends } = started(fakeChild(), { drainMs: 20 });
    fake.exit(3);
    await until(() => ends.length > 0);
    expect(ends).toEqual([{ how: 'close', failure: expect.objectContaining({ class: 'closed', kind: 'connection_lost' }) }]);
    expect(ends[0]!.failure.message).toBe('server exited (code 3); outcome of pending requests unknown');
  });

  test('after close(): no end is reported, nothing delivered, nothing written', async () => {
    const { fake, transport, got, ends } = started();
    const closing = transport.close();
    expect(transport.send({ jsonrpc: '2.0', method: 'late', params: {} })).toMatchObject({ bytes: 46, failure: { class: 'closed' } });
    fake.stdout('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    fake.endStdout();
    fake.endStderr();
    expect(await closing).toMatchObject({ steps: ['stdin_end'], exitCode: 0 });
    expect(transport.close()).toBe(closing);
    await Bun.sleep(5);
    expect([got, ends, fake.written]).toEqual([[], [], []]);
  });

  test('closing while a chunk is being delivered stops delivery at once, mid-chunk', async () => {
    const { fake, transport, got } = started();
    transport.onmessage = (message, info) => {
      got.push({ message, bytes: info.bytes });
      void transport.close();
    };
    fake.stdout('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
    await until(() => got.length > 0);
    await transport.close();
    expect(got).toHaveLength(1);
  });

  test('close() returns only after the server stderr has ended, so its last line is kept', async () => {
    // The last stderr line arrives only after the server exited, as a pipe may deliver it.
    const fake = fakeChild((f) => {
      f.exit(0);
      f.endStdout();
      setImmediate(() => {
        f.stderr('server: stdin closed, exiting\n');
        f.endStderr();
      });
    });
    const { transport } = started(fake);
    const report = await transport.close();
    expect(report).toEqual({ exitCode: 0, steps: ['stdin_end'], survivors: [], orphans: expect.objectContaining({ killed: [], survivors: [] }) });
    expect(transport.stderr()).toBe('server: stdin closed, exiting\n');
  });

  test('by default the newest LIMITS.serverStderrTailBytes of the server stderr are kept, the older dropped', async () => {
    const fake = fakeChild((f) => {
      f.exit(0);
      f.endStdout();
      f.stderr(`${'old '.repeat(10_000)}\n`);
      f.stderr(`${'n'.repeat(LIMITS.serverStderrTailBytes - 4)}END\n`);
      f.endStderr();
    });
    const { transport } = started(fake);
    await transport.close();
    expect(transport.stderr()).toBe(`${'n'.repeat(LIMITS.serverStderrTailBytes - 4)}END\n`);
  });
});
