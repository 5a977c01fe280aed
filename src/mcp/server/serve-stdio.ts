import { LineSplitter } from '../wire/index.ts';
import { answerBytes, type LineAnswer } from './serve-rpc.ts';

/**
 * Where serve writes: the part of a Node `Writable` it uses. The callback
 * says when the stream let go of the bytes, or why it failed.
 */
export interface ServeSink {
  write(chunk: Uint8Array | string, callback?: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * serve's stdio: any async iterable of chunks in (a Node `Readable`, or a web
 * `ReadableStream` such as `Bun.stdin.stream()`), sinks out.
 */
export interface ServeStreams {
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: ServeSink;
  readonly stderr: ServeSink;
}

export interface ServeStdioLimits {
  /** Bytes of one inbound line; a longer line ends the session (exit 3). */
  readonly maxLineBytes: number;
  /** Bytes written but not yet taken by the reader of stdout/stderr before stdin is no longer read. */
  readonly pendingOutputBytes: number;
}

/** How a stdio session ended: its exit code. */
export const SERVE_EXIT = { ok: 0, protocol: 3 } as const;

const encoder = new TextEncoder();

/**
 * Output with backpressure: counts the bytes each write still holds until
 * its callback, so the reader can stop pulling stdin while a client is not
 * reading what it already asked for.
 */
class Output {
  #pending = 0;
  #failure: Error | undefined;
  #waiter: (() => void) | undefined;
  readonly #bound: number;

  constructor(streams: readonly ServeSink[], bound: number) {
    this.#bound = bound;
    for (const stream of streams) stream.on('error', (error: Error) => this.#fail(error));
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  write(stream: ServeSink, data: string | Uint8Array): void {
    if (this.#failure) return;
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    this.#pending += bytes.byteLength;
    try {
      stream.write(bytes, (error) => {
        this.#pending -= bytes.byteLength;
        if (error) this.#fail(error);
        this.#wake();
      });
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  /** Resolves once at most `bound` bytes are pending (0: every write done), or output failed. */
  async settle(bound = this.#bound): Promise<void> {
    while (this.#pending > bound && !this.#failure) await new Promise<void>((resolve) => (this.#waiter = resolve));
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#wake();
  }
}

/** The chunk cut after each `\n` (views, no copies); the last piece may hold no newline. */
function* upToEachNewline(chunk: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  for (let index = chunk.indexOf(0x0a); index !== -1; index = chunk.indexOf(0x0a, start)) {
    yield chunk.subarray(start, index + 1);
    start = index + 1;
  }
  if (start < chunk.byteLength) yield chunk.subarray(start);
}

/**
 * Serves newline-delimited JSON-RPC on stdio until stdin ends: splits lines
 * with caplab's own framing, answers each with `answer`, writes each answer
 * as one line on stdout and each note as one line on stderr. An over-size
 * line ends the session with one stderr line (exit 3); a failed stdout ends
 * it quietly for a closed pipe (the client left), with a line otherwise.
 *
 * @returns The exit code: 0 at stdin EOF or a closed stdout, 3 after an over-size line or a broken stdout.
 */
export async function serveStdio(
  streams: ServeStreams,
  answer: (line: Uint8Array) => LineAnswer,
  limits: ServeStdioLimits,
  prefix = 'caplab serve',
): Promise<number> {
  const output = new Output([streams.stdout, streams.stderr], limits.pendingOutputBytes);
  const log = (text: string): void => output.write(streams.stderr, `${prefix}: ${text}\n`);
  const splitter = new LineSplitter(limits.maxLineBytes);
  let lineNumber = 0;
  // for-await pulls one chunk at a time: while this loop waits for output to
  // settle, stdin is not read and the pipe's own buffer holds the client back.
  for await (const chunk of streams.stdin) {
    for (const piece of upToEachNewline(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)) {
      // One line per push, so the lines before an over-size one are still answered.
      const lines = splitter.push(piece);
      if (!lines.ok) {
        log(`line ${lineNumber + 1} is longer than ${limits.maxLineBytes} bytes; session ended`);
        await output.settle(0);
        return SERVE_EXIT.protocol;
      }
      for (const line of lines.value) {
        lineNumber += 1;
        const answered = answer(line);
        if (answered.answer) output.write(streams.stdout, answerBytes(answered));
        else if (answered.note) log(`line ${lineNumber}: ${answered.note}`);
        // A deferred answer (a tasks/result waiting on its task) is written when known, between the lines answered meanwhile.
        else if (answered.deferred) void answered.deferred.then((later) => later.answer && output.write(streams.stdout, answerBytes(later)));
      }
    }
    await output.settle();
    if (output.failure) break;
  }
  if (output.failure) {
    const code = (output.failure as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return SERVE_EXIT.ok;
    streams.stderr.write(`${prefix}: could not write: ${output.failure.message}\n`);
    return SERVE_EXIT.protocol;
  }
  if (splitter.pendingBytes > 0) log(`stdin ended inside an unfinished line (${splitter.pendingBytes} bytes); not answered`);
  log('stdin closed, exiting');
  await output.settle(0);
  return SERVE_EXIT.ok;
}
