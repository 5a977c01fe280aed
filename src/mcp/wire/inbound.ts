import type { Failure } from '../../contract/index.ts';
import { LineSplitter } from './framing.ts';
import { decodeLine, type InboundMessage } from './messages.ts';

/** One decoded message and the bytes its line took on the wire (newline included). */
export interface InboundLine {
  readonly message: InboundMessage;
  readonly lineBytes: number;
}

/**
 * The client's inbound side of MCP stdio: bytes in, decoded messages out.
 * Framing (`LineSplitter`) then decoding (`decodeLine`), one line at a time;
 * the first bad line ends the stream for good, like the splitter's own failures.
 */
export class InboundReader {
  readonly #splitter: LineSplitter;
  #failure: Failure | undefined;

  constructor(maxLineBytes: number) {
    this.#splitter = new LineSplitter(maxLineBytes);
  }

  /**
   * Reads one chunk (any split, even inside a UTF-8 sequence).
   *
   * @returns The messages of the lines it completed, in order, up to the
   *   first bad one; `failure` names that line's fault (too_large, encoding,
   *   framing, duplicate_key, unknown_id, not_jsonrpc) and every later push
   *   repeats it.
   */
  push(chunk: Uint8Array): { readonly messages: InboundLine[]; readonly failure?: Failure } {
    if (this.#failure) return { messages: [], failure: this.#failure };
    const lines = this.#splitter.push(chunk);
    if (!lines.ok) return { messages: [], failure: (this.#failure = lines) };
    const messages: InboundLine[] = [];
    for (const line of lines.value) {
      const decoded = decodeLine(line);
      if (!decoded.ok) return { messages, failure: (this.#failure = decoded) };
      messages.push({ message: decoded.value, lineBytes: line.byteLength + 1 });
    }
    return { messages };
  }

  /** Bytes received after the last newline: at EOF, a truncated line. */
  get pendingBytes(): number {
    return this.#splitter.pendingBytes;
  }
}
