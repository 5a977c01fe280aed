import { NO_REDACTION, redactCut, type Redactor } from '../../contract/index.ts';

/**
 * A bounded tail of the server's stderr, for diagnostics only. Never parsed:
 * stderr is the server's free-form log channel, not protocol. What it gives
 * out is redacted: a value caplab placed in the server's environment never
 * reaches a record or an error message through it.
 */
export class StderrTail {
  readonly #maxBytes: number;
  readonly #redactor: Redactor;
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(maxBytes: number, redactor: Redactor = NO_REDACTION) {
    this.#maxBytes = maxBytes;
    this.#redactor = redactor;
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

  /**
   * The kept tail, decoded leniently (it is for humans, and may start
   * mid-character), with placed values redacted. Once bytes were dropped, the
   * front may hold the end of a value whose start is gone: it is cut too.
   */
  text(): string {
    const raw = new TextDecoder('utf-8').decode(Buffer.concat(this.#chunks));
    return redactCut(this.#redactor, raw, this.#dropped > 0 ? 'start' : 'none');
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
