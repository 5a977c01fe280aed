import type { ServeStreams } from '../mcp/index.ts';

/**
 * The CLI's only window on the process: streams, environment, cwd. `main.ts`
 * supplies the real ones; tests pass their own and read what was written.
 */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Whether stdout is a terminal (colour is used only then, and never with NO_COLOR). */
  readonly isTTY: boolean;
  /** The raw process streams, for `caplab serve` only (it speaks MCP on stdin/stdout). */
  readonly streams?: ServeStreams;
  /**
   * Aborted when the process gets SIGINT or SIGTERM, with the signal's name
   * as its reason (main.ts wires it; a test aborts its own).
   */
  readonly interrupt?: AbortSignal;
  /**
   * Aborted on a second SIGINT or SIGTERM, with its name (main.ts wires it
   * for `serve --http` only): a stop under way ends at once instead of
   * waiting out its grace.
   */
  readonly forceStop?: AbortSignal;
}

/** The part of a process stream `outputWriter` uses (a `NodeJS.WriteStream` has it). */
export interface OutputStream {
  write(text: string, callback: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A process stream as `fileSink` makes it: an `OutputStream` that also takes bytes (for `serve`). */
export interface ProcessSink {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The chain of pending writes one or more `fileSink`s append to. */
export interface WriteOrder {
  tail: Promise<unknown>;
}

/** A new, empty write chain. */
export const writeOrder = (): WriteOrder => ({ tail: Promise.resolve() });

/**
 * A process stream (`Bun.stdout`, `Bun.stderr`) written with `Bun.write`,
 * not Node's stream module, whose first use costs a cold start about 20 ms of
 * cpu. Writes are chained so they land in order, whole; each callback fires
 * once its bytes are written or failed, and a failure (EPIPE, ENOSPC) also
 * goes to the 'error' listeners, as a Node stream would send it.
 * @param write The writer (a test passes one that fails).
 * @param order The chain the writes wait on. Sinks that share one (main's
 *   stdout and stderr) land in program order across them too, as synchronous
 *   writes did: `caplab demo > log 2>&1` keeps each stderr line where it was
 *   written, instead of ahead of stdout writes still queued.
 */
export function fileSink(
  file: Bun.BunFile,
  write: (file: Bun.BunFile, chunk: string | Uint8Array) => Promise<number> = Bun.write,
  order: WriteOrder = writeOrder(),
): ProcessSink {
  const listeners: ((error: Error) => void)[] = [];
  return {
    write(chunk, callback) {
      order.tail = order.tail
        .then(() => write(file, chunk))
        .then(
          () => callback?.(null),
          (error: Error) => {
            callback?.(error);
            for (const listener of listeners) listener(error);
          },
        );
      return true;
    },
    on(_event, listener) {
      listeners.push(listener);
    },
  };
}

/** A guarded stream: `write` never throws; `settled` says, once every write has finished, whether one failed. */
export interface OutputWriter {
  readonly write: (text: string) => void;
  /** Waits for every pending write; the first failure that was not a closed pipe, if any. */
  readonly settled: () => Promise<Error | undefined>;
}

/**
 * Writes to a stream that may fail. A reader closing the pipe early
 * (`caplab demo | head`, EPIPE) stops further output quietly and the run goes
 * on to its end, record included. Any other failure (`> /dev/full`: ENOSPC,
 * EIO) also stops output, and is kept so the program can end with a message
 * and `EXIT.io` instead of pretending its output arrived.
 */
export function outputWriter(stream: OutputStream): OutputWriter {
  let stopped = false;
  let failure: Error | undefined;
  let pending = 0;
  let idle: (() => void) | undefined;
  const failed = (error: Error): void => {
    stopped = true;
    if (!failure && (error as NodeJS.ErrnoException).code !== 'EPIPE') failure = error;
  };
  const done = (): void => {
    pending -= 1;
    if (pending === 0) idle?.();
  };
  stream.on('error', failed);
  return {
    write: (text) => {
      if (stopped) return;
      pending += 1;
      try {
        stream.write(text, (error) => {
          if (error) failed(error);
          done();
        });
      } catch (error) {
        failed(error as Error);
        done();
      }
    },
    settled: async () => {
      if (pending > 0) await new Promise<void>((resolve) => (idle = resolve));
      return failure;
    },
  };
}

export interface Paint {
  readonly ok: (text: string) => string;
  readonly bad: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

/** Colours for this output: none unless a TTY, and never with NO_COLOR set (no-color.org). */
export function paint(io: Io): Paint {
  const on = io.isTTY && (io.env['NO_COLOR'] === undefined || io.env['NO_COLOR'] === '');
  const wrap = (code: string) => (text: string) => (on ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { ok: wrap('32'), bad: wrap('31'), dim: wrap('2'), bold: wrap('1') };
}
