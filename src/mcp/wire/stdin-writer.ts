import { fail, ok, type Failure, type Outcome } from '../../contract/index.ts';

/** The part of Bun's `FileSink` (a spawned process's stdin) the writer uses. */
export interface Sink {
  write(bytes: Uint8Array): number | Promise<number>;
  flush(): number | Promise<number> | undefined;
  end(): unknown;
}

const isPromise = (value: unknown): value is Promise<unknown> => value instanceof Promise;

/**
 * A server's stdin as a queue whose unsent bytes are known. Bun's FileSink
 * keeps whatever the pipe does not take at once, without bound, and reports a
 * broken pipe either by throwing or, for bytes it kept, by rejecting a
 * promise nobody awaits — an uncaught EPIPE that ends the host. Here the sink
 * holds at most one batch: later lines wait in the queue until it is taken,
 * so `unsentBytes` counts exactly the batch in hand and the queue, and every
 * failure, now or later, becomes one closed/connection_lost value.
 */
export class StdinWriter {
  readonly #sink: Sink;
  readonly #queue: Uint8Array[] = [];
  #unsent = 0;
  /** The sink holds a batch it has not taken yet. */
  #busy = false;
  #ended = false;
  #failure: Failure | undefined;
  #reportLost!: (failure: Failure) => void;
  /** Resolves with the failure once a write fails, now or after `write` returned; never rejects. */
  readonly lost: Promise<Failure> = new Promise((resolve) => (this.#reportLost = resolve));

  constructor(sink: Sink) {
    this.#sink = sink;
  }

  /** Bytes given to `write` that the server has not taken yet. */
  get unsentBytes(): number {
    return this.#unsent;
  }

  /** Writes after everything written before; a failure now means the server stopped reading. */
  write(bytes: Uint8Array): Outcome<void> {
    if (this.#failure) return this.#failure;
    if (this.#ended) return fail('closed', 'session_closed', 'stdin already ended; nothing written');
    this.#unsent += bytes.byteLength;
    if (this.#busy) {
      this.#queue.push(bytes);
      return ok(undefined);
    }
    return this.#hand(bytes) ?? ok(undefined);
  }

  /** Ends stdin (the polite stop): what still waits in the queue is dropped. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#queue.length = 0;
    try {
      const ended = this.#sink.end();
      // Ending flushes what the sink holds; a server gone meanwhile rejects it, which changes nothing now.
      if (isPromise(ended)) ended.catch(() => {});
    } catch {
      // Already closed: the stop signal has been given.
    }
  }

  /** Hands one batch to the sink; the next waits until this one is taken. */
  #hand(bytes: Uint8Array): Failure | undefined {
    let pending: Promise<number>[];
    try {
      pending = [this.#sink.write(bytes), this.#sink.flush()].filter((step) => step instanceof Promise);
    } catch (error) {
      return this.#lose(error);
    }
    if (pending.length === 0) {
      this.#unsent -= bytes.byteLength;
      return undefined;
    }
    this.#busy = true;
    Promise.all(pending).then(
      () => this.#taken(bytes.byteLength),
      (error: unknown) => void this.#lose(error),
    );
    return undefined;
  }

  /** The batch in hand was taken: everything queued meanwhile goes as the next one. */
  #taken(bytes: number): void {
    this.#busy = false;
    this.#unsent -= bytes;
    if (this.#queue.length === 0 || this.#ended || this.#failure) return;
    const next = this.#queue.length === 1 ? this.#queue[0]! : Buffer.concat(this.#queue);
    this.#queue.length = 0;
    this.#hand(next);
  }

  #lose(error: unknown): Failure {
    if (!this.#failure) {
      const why = error instanceof Error ? error.message : String(error);
      this.#failure = fail('closed', 'connection_lost', `server stopped reading: cannot write to its stdin (${why}); outcome of pending requests unknown`);
      this.#queue.length = 0;
      this.#reportLost(this.#failure);
    }
    return this.#failure;
  }
}
