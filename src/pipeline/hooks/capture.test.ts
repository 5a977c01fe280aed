import { expect, test } from 'bun:test';
import { captureBounded, TRUNCATION_MARK } from './capture.ts';

/**
 * A stream of `count` chunks of `size` bytes. Before it closes, it collects
 * garbage and counts how many of the chunks it already handed out are still
 * reachable: a reader that drops what it does not keep holds almost none.
 */
function flood(count: number, size: number): { stream: ReadableStream<Uint8Array>; heldAtEnd: () => number } {
  const refs: WeakRef<Uint8Array>[] = [];
  let sent = 0;
  let held = -1;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ === count) {
        Bun.gc(true);
        held = refs.filter((ref) => ref.deref() !== undefined).length;
        return controller.close();
      }
      const chunk = new Uint8Array(size).fill(0x61);
      refs.push(new WeakRef(chunk));
      controller.enqueue(chunk);
    },
  });
  return { stream, heldAtEnd: () => held };
}

test('chunks beyond the kept bytes are dropped while reading, not held until the end', async () => {
  const { stream, heldAtEnd } = flood(64, 1024 * 1024);
  const captured = await captureBounded(stream, 1024, new Promise<void>(() => undefined));
  expect(captured.truncated).toBe(true);
  expect(captured.text).toBe('a'.repeat(1024) + TRUNCATION_MARK);
  // Before the fix a Promise.race per chunk left every chunk reachable from the pending stop signal (64 of 64).
  expect(heldAtEnd()).toBeGreaterThanOrEqual(0);
  expect(heldAtEnd()).toBeLessThan(8);
});

test('a stop signal ends the read of a stream that never closes, marked truncated', async () => {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('partial'));
    },
  });
  const captured = await captureBounded(stream, 1024, Bun.sleep(10));
  expect(captured).toEqual({ text: `partial${TRUNCATION_MARK}`, truncated: true });
});

test('a stream within the limit is kept whole and not marked', async () => {
  const { stream } = flood(3, 10);
  expect(await captureBounded(stream, 30, new Promise<void>(() => undefined))).toEqual({ text: 'a'.repeat(30), truncated: false });
});
