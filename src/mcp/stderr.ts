/**
 * A bounded tail of the server's stderr, for diagnostics only. Never parsed:
 * stderr is the server's free-form log channel, not protocol.
 */
export class StderrTail {
  readonly #maxBytes: number;
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Appends a chunk, dropping the oldest bytes beyond the bound. */
  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk.slice());
    this.#bytes += chunk.byteLength;
    while (this.#bytes > this.#maxBytes) {
      const first = this.#chunks[0]!;
      const excess = this.#bytes - this.#maxBytes;
      if (first.byteLength <= excess) {
        this.#chunks.shift();
        this.#bytes -= first.byteLength;
        this.#dropped += first.byteLength;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#bytes -= excess;
        this.#dropped += excess;
      }
    }
  }

  /** Bytes dropped from the front so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The kept tail, decoded leniently (it is for humans, and may start mid-character). */
  text(): string {
    return new TextDecoder('utf-8').decode(Buffer.concat(this.#chunks));
  }

  /** Reads a stream to its end into this tail. */
  async drain(stream: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stream) this.push(chunk);
    } catch {
      // The stream broke with the process; what arrived is kept.
    }
  }
}
