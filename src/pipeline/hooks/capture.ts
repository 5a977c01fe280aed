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
  let stopped = false;
  let finished = false;
  // One listener on `stop`, not a Promise.race per chunk: each race leaves a
  // reaction on the still-pending `stop` that holds its chunk, so a flood
  // would stay in memory however little of it is kept. Cancelling ends the
  // pending read with `done`.
  void stop.then(() => {
    if (finished) return;
    stopped = true;
    void reader.cancel().catch(() => undefined);
  });
  for (;;) {
    const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (next.done) break;
    const room = limit - used;
    if (next.value.byteLength > room) truncated = true;
    const take = Math.min(room, next.value.byteLength);
    kept.set(next.value.subarray(0, take), used);
    used += take;
  }
  finished = true;
  if (stopped) truncated = true;
  reader.releaseLock();
  // Cut at a character boundary is not needed: `fatal: false` replaces a split sequence.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(kept.subarray(0, used));
  return { text: truncated ? text + TRUNCATION_MARK : text, truncated };
}
