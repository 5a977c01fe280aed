import { describe, expect, test } from 'bun:test';
import { StdinWriter, type Sink } from './stdin-writer.ts';

/**
 * A sink shaped like Bun's FileSink on a pipe: a write it cannot finish at
 * once returns a promise that settles when the reader took everything (or
 * rejects with EPIPE); a write to a closed pipe throws.
 */
function pipe() {
  const taken: string[] = [];
  let settle: { resolve: (n: number) => void; reject: (e: Error) => void } | undefined;
  let full = false;
  let closed = false;
  let ends = 0;
  const sink: Sink = {
    write(bytes) {
      if (closed) throw new Error('EPIPE: broken pipe, write');
      if (!full) return taken.push(new TextDecoder().decode(bytes)), bytes.byteLength;
      taken.push(new TextDecoder().decode(bytes));
      return new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
    },
    flush: () => 0,
    end: () => void (ends += 1),
  };
  return {
    sink,
    taken,
    ends: () => ends,
    fill: () => void (full = true),
    drain: () => ((full = false), settle?.resolve(0)),
    breakLater: () => settle?.reject(new Error('EPIPE: broken pipe, write')),
    close: () => void (closed = true),
  };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('StdinWriter', () => {
  test('a reading server takes each line at once: nothing unsent', () => {
    const p = pipe();
    const writer = new StdinWriter(p.sink);
    expect([writer.write(bytes('a\n')), writer.write(bytes('b\n'))]).toEqual([{ ok: true, value: undefined }, { ok: true, value: undefined }]);
    expect([p.taken, writer.unsentBytes]).toEqual([['a\n', 'b\n'], 0]);
  });

  test('while the sink holds a line, later ones wait in order and count as unsent; taken, they go as one batch', async () => {
    const p = pipe();
    const writer = new StdinWriter(p.sink);
    p.fill();
    writer.write(bytes('first\n'));
    writer.write(bytes('second\n'));
    writer.write(bytes('third\n'));
    expect([p.taken, writer.unsentBytes]).toEqual([['first\n'], 19]);
    p.drain();
    await Bun.sleep(0);
    expect([p.taken, writer.unsentBytes]).toEqual([['first\n', 'second\nthird\n'], 0]);
  });

  test('a pipe that breaks after write returned is connection_lost ("server stopped reading") through `lost`, never a rejection', async () => {
    const p = pipe();
    const writer = new StdinWriter(p.sink);
    p.fill();
    expect(writer.write(bytes('x'.repeat(100_000))).ok).toBe(true);
    p.breakLater();
    const lost = await writer.lost;
    expect(lost).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    expect(lost.message).toContain('server stopped reading');
    expect(lost.message).toContain('EPIPE');
    expect(writer.write(bytes('later\n'))).toBe(lost);
  });

  test('a write that throws fails now, and `lost` says the same', async () => {
    const p = pipe();
    const writer = new StdinWriter(p.sink);
    p.close();
    const failed = writer.write(bytes('a\n'));
    expect(failed).toMatchObject({ ok: false, class: 'closed', kind: 'connection_lost' });
    expect(await writer.lost).toBe(failed as never);
  });

  test('end drops what waits and ends the sink once; an end that rejects later is no uncaught error', async () => {
    const p = pipe();
    const writer = new StdinWriter(p.sink);
    p.fill();
    writer.write(bytes('held\n'));
    writer.write(bytes('waiting\n'));
    writer.end();
    writer.end();
    p.drain();
    await Bun.sleep(0);
    expect([p.taken, p.ends()]).toEqual([['held\n'], 1]);
    expect(writer.write(bytes('after\n'))).toMatchObject({ ok: false, kind: 'session_closed' });
    const rejecting = new StdinWriter({ write: () => 0, flush: () => 0, end: () => Promise.reject(new Error('EPIPE')) });
    rejecting.end();
    await Bun.sleep(0);
  });
});
