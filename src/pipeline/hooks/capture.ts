/** What a bounded read of a stream kept. */
export interface Captured {
  readonly text: string;
  readonly truncated: boolean;
}

/** Marks text that was cut at the capture limit. */
export const TRUNCATION_MARK = '…[truncated]';

/**
 * Reads a stream to its end, keeping at most `limit` bytes. The rest is read
 * and dropped so the writer never blocks on a full pipe (a hook that writes a
 * lot must still be able to exit). Decoded as UTF-8 with replacement.
 *
 * @param stream The child's stdout or stderr.
 * @param limit Bytes to keep.
 * @param stop Resolves when reading should give up (a survivor holding the pipe open).
 */
export async function captureBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  stop: Promise<void>,
): Promise<Captured> {
  const reader = stream.getReader();
  const kept = new Uint8Array(limit);
  let used = 0;
  let truncated = false;
  const stopped = stop.then(() => 'stopped' as const);
  for (;;) {
    const next = await Promise.race([reader.read(), stopped]);
    if (next === 'stopped') {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    if (next.done) break;
    const room = limit - used;
    if (next.value.byteLength > room) truncated = true;
    const take = Math.min(room, next.value.byteLength);
    kept.set(next.value.subarray(0, take), used);
    used += take;
  }
  reader.releaseLock();
  // Cut at a character boundary is not needed: `fatal: false` replaces a split sequence.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(kept.subarray(0, used));
  return { text: truncated ? text + TRUNCATION_MARK : text, truncated };
}
