import type { Failure } from '../../contract/index.ts';
import { refuse } from './basis.ts';

/** One dispatched `message` event: its data lines joined by `\n`, and the bytes the event took on the stream. */
export interface SseEvent {
  readonly data: string;
  readonly bytes: number;
}

const LF = 0x0a;
const CR = 0x0d;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * A bounded reader of a `text/event-stream` body (WHATWG HTML §9.2, the parts
 * MCP uses): lines end in LF, CR or CRLF; `data:` lines gather into an event
 * that a blank line dispatches; comments (`:`), `id:`, `retry:` and unknown
 * fields are skipped (caplab does not resume streams); an event whose type is
 * not `message` is dropped. Every byte of one event — each of its lines, the
 * unfinished one included — counts toward `maxEventBytes`, so a server that
 * never ends a line or an event is refused at the bound, never buffered
 * without end. Invalid UTF-8 is refused, never replaced. An event still open
 * when the stream ends is not dispatched (the standard's rule).
 */
export class SseParser {
  readonly #maxEventBytes: number;
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  #data: string[] = [];
  #type = '';
  #eventBytes = 0;
  /** The last line ended in CR: an LF right after it belongs to it. */
  #afterCr = false;
  #firstLine = true;
  #failure: Failure | undefined;

  constructor(maxEventBytes: number) {
    this.#maxEventBytes = maxEventBytes;
  }

  /**
   * Reads one chunk (any split, even inside a character or a CRLF).
   *
   * @returns The events it completed, in order, up to the first fault;
   *   `failure` is protocol/too_large or protocol/encoding, and every later
   *   push repeats it.
   */
  push(chunk: Uint8Array): { readonly events: SseEvent[]; readonly failure?: Failure } {
    if (this.#failure) return { events: [], failure: this.#failure };
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < chunk.byteLength; i++) {
      const byte = chunk[i];
      if (this.#afterCr) {
        this.#afterCr = false;
        if (byte === LF) {
          start = i + 1;
          continue;
        }
      }
      if (byte !== LF && byte !== CR) continue;
      this.#afterCr = byte === CR;
      const fault = this.#endLine(chunk.subarray(start, i), events);
      if (fault) return { events, failure: (this.#failure = fault) };
      start = i + 1;
    }
    if (start < chunk.byteLength) {
      this.#parts.push(chunk.subarray(start));
      this.#partBytes += chunk.byteLength - start;
    }
    if (this.#eventBytes + this.#partBytes > this.#maxEventBytes) return { events, failure: (this.#failure = this.#tooLarge()) };
    return { events };
  }

  #tooLarge(): Failure {
    return refuse('protocol', 'too_large', `an SSE event from the server passed ${this.#maxEventBytes} bytes (sseEventBytes); the stream is not read further`);
  }

  #endLine(tail: Uint8Array, events: SseEvent[]): Failure | undefined {
    this.#parts.push(tail);
    const bytes = concat(this.#parts, this.#partBytes + tail.byteLength);
    this.#parts = [];
    this.#partBytes = 0;
    this.#eventBytes += bytes.byteLength + 1;
    if (this.#eventBytes > this.#maxEventBytes) return this.#tooLarge();
    let line: string;
    try {
      line = decoder.decode(bytes);
    } catch {
      return refuse('protocol', 'encoding', 'an SSE line from the server is not valid UTF-8');
    }
    if (this.#firstLine && line.startsWith('\uFEFF')) line = line.slice(1);
    this.#firstLine = false;
    if (line === '') return this.#dispatch(events);
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#type = value;
    return undefined;
  }

  #dispatch(events: SseEvent[]): undefined {
    if (this.#data.length > 0 && (this.#type === '' || this.#type === 'message')) {
      events.push({ data: this.#data.join('\n'), bytes: this.#eventBytes });
    }
    this.#data = [];
    this.#type = '';
    this.#eventBytes = 0;
    return undefined;
  }
}
