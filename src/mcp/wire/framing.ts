import { ok, type Failure, type Outcome } from '../../contract/index.ts';
import { refuse } from './basis.ts';

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines on `\n` only (MCP stdio framing). Pure: no
 * I/O, no decoding. A line longer than `maxLineBytes` is refused as soon as
 * the buffered bytes exceed the cap, without waiting for its newline, so a
 * peer cannot make the host buffer without bound.
 *
 * After the first failure the splitter stays failed: a stream whose framing
 * broke once cannot be resynchronised with certainty.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  #failure: Failure | undefined;

  constructor(maxLineBytes: number) {
    if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) throw new RangeError('maxLineBytes must be a positive integer');
    this.#maxLineBytes = maxLineBytes;
  }

  /**
   * Appends a chunk and returns every line it completes (without the `\n`).
   *
   * @param chunk Bytes as they arrived; any split, including inside a UTF-8 sequence.
   * @returns The complete lines, or the failure that ended the stream.
   */
  push(chunk: Uint8Array): Outcome<Uint8Array[]> {
    if (this.#failure) return this.#failure;
    const lines: Uint8Array[] = [];
    let start = 0;
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, index);
      if (this.#partBytes + piece.byteLength > this.#maxLineBytes) return this.#tooLarge();
      lines.push(this.#take(piece));
      start = index + 1;
    }
    const rest = chunk.subarray(start);
    if (this.#partBytes + rest.byteLength > this.#maxLineBytes) return this.#tooLarge();
    if (rest.byteLength > 0) {
      // Copy: the caller may reuse the chunk's buffer.
      this.#parts.push(rest.slice());
      this.#partBytes += rest.byteLength;
    }
    return ok(lines);
  }

  /** Bytes received after the last newline (a line still in transit). */
  get pendingBytes(): number {
    return this.#partBytes;
  }

  #take(tail: Uint8Array): Uint8Array {
    if (this.#parts.length === 0) return tail.slice();
    const line = new Uint8Array(this.#partBytes + tail.byteLength);
    let offset = 0;
    for (const part of this.#parts) {
      line.set(part, offset);
      offset += part.byteLength;
    }
    line.set(tail, offset);
    this.#parts = [];
    this.#partBytes = 0;
    return line;
  }

  #tooLarge(): Failure {
    this.#parts = [];
    this.#partBytes = 0;
    this.#failure = refuse('protocol', 'too_large', `inbound line exceeds ${this.#maxLineBytes} bytes`);
    return this.#failure;
  }
}
