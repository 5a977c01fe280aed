import { fail, LIMITS, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { spawnChild, terminate, type ChildProcess, type CloseReport, type Graces, type SpawnFn } from './child.ts';
import { InboundReader } from './inbound.ts';
import type { Launch } from './launch.ts';
import { encodeLine, type InboundMessage, type OutboundMessage } from './messages.ts';
import { StderrTail } from './stderr.ts';
import type { MessageInfo, Transport, Written } from './transport.ts';

export interface ConnectionLimits {
  readonly maxLineBytes: number;
  /** Bytes of the server's stderr kept while it runs (the newest; older ones are dropped). */
  readonly stderrBytes: number;
  /** After the server exits, how long stdout may take to reach EOF (a grandchild may hold it). */
  readonly drainMs: number;
  /** Bytes written to the server's stdin that it has not read, before the session ends closed/peer_not_reading. */
  readonly maxUnsentBytes: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxLineBytes: LIMITS.mcpLineBytes,
  stderrBytes: LIMITS.serverStderrTailBytes,
  drainMs: 250,
  maxUnsentBytes: LIMITS.mcpUnsentBytes,
};

/**
 * MCP over a child's stdio: `\n`-framed JSON-RPC lines on stdin/stdout, each
 * inbound line checked on its own (`InboundReader`: size cap, UTF-8, bare
 * JSON, what only the text shows, envelope), what the server has not read
 * of its stdin bounded (`maxUnsentBytes`), stderr kept as a bounded,
 * redacted tail for diagnostics, and closing stops the server's whole
 * process group. The only layer of the
 * client that touches a process.
 */
export class StdioTransport implements Transport<CloseReport> {
  readonly #child: ChildProcess;
  readonly #limits: ConnectionLimits;
  readonly #graces: Graces;
  readonly #reader: InboundReader;
  readonly #stderr: StderrTail;
  /** Settles when the server's stderr reached EOF (or broke). */
  #stderrDrained: Promise<void> = Promise.resolve();
  /** An end was reported (onerror/onclose): nothing more is delivered or reported. */
  #ended = false;
  #closing: Promise<CloseReport> | undefined;
  onmessage?: (message: InboundMessage, info: MessageInfo) => void;
  onerror?: (failure: Failure) => void;
  onclose?: (failure: Failure) => void;

  constructor(child: ChildProcess, limits: ConnectionLimits, graces: Graces) {
    this.#child = child;
    this.#limits = limits;
    this.#graces = graces;
    this.#reader = new InboundReader(limits.maxLineBytes);
    this.#stderr = new StderrTail(limits.stderrBytes, child.redactor);
  }

  /** The server's pid (also its process group id). */
  get pid(): number {
    return this.#child.pid;
  }

  /** The kept tail of the server's stderr (diagnostics only). */
  stderr(): string {
    return this.#stderr.text();
  }

  start(): void {
    this.#stderrDrained = this.#stderr.drain(this.#child.stderr);
    void this.#readStdout();
    void this.#child.exited.then((code) => this.#onExit(code));
    // A write that failed after it returned: the server stopped reading.
    void this.#child.inputLost.then((failure) => this.#end(failure, this.onclose));
  }

  /**
   * Writes one line, unless the server has not read `maxUnsentBytes` of what
   * it was sent (answers to its own pings included): then nothing more is
   * written and the send fails closed/peer_not_reading.
   */
  send(message: OutboundMessage): Written {
    const line = encodeLine(message);
    if (this.#closing) return { bytes: line.byteLength, failure: fail('closed', 'session_closed', 'transport closed; nothing written') };
    const unsent = this.#child.unsentBytes();
    if (unsent + line.byteLength > this.#limits.maxUnsentBytes) {
      const why = `the server has not read ${unsent} bytes written to it; this ${line.byteLength}-byte line would pass ${this.#limits.maxUnsentBytes}`;
      return { bytes: line.byteLength, failure: fail('closed', 'peer_not_reading', `${why}; nothing more written, outcome of pending requests unknown`) };
    }
    const written = this.#child.write(line);
    return written.ok ? { bytes: line.byteLength } : { bytes: line.byteLength, failure: written };
  }

  measure(message: OutboundMessage): number {
    return encodeLine(message).byteLength;
  }

  /**
   * Stops the server's whole process group (stdin EOF, then SIGTERM, then
   * SIGKILL) and resolves once its stderr is read to its end too (at most
   * `drainMs` after the group is gone), so the kept tail does not depend on
   * scheduling. Idempotent.
   */
  close(): Promise<CloseReport> {
    this.#closing ??= terminate(this.#child, this.#graces).then(async (report) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.#stderrDrained, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#limits.drainMs)))]);
      clearTimeout(timer);
      return report;
    });
    return this.#closing;
  }

  /** Reports the end of the stream once, unless closing was asked for first. */
  #end(failure: Failure, report: ((failure: Failure) => void) | undefined): void {
    if (this.#ended || this.#closing) return;
    this.#ended = true;
    report?.(failure);
  }

  get #done(): boolean {
    return this.#ended || this.#closing !== undefined;
  }

  async #readStdout(): Promise<void> {
    const reader = this.#child.stdout.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.#done) break;
        this.#onChunk(value);
      }
    } catch {
      // A broken pipe is the same as EOF here.
    } finally {
      reader.releaseLock();
    }
    const partial = this.#reader.pendingBytes > 0 ? ` (${this.#reader.pendingBytes} bytes of an unfinished line)` : '';
    this.#end(fail('closed', 'connection_lost', `server closed stdout${partial}; outcome of pending requests unknown`), this.onclose);
  }

  #onExit(code: number | null): void {
    if (this.#done) return;
    // Let stdout drain first: the answer may be in the pipe behind the exit.
    setTimeout(
      () =>
        this.#end(
          fail('closed', 'connection_lost', `server exited (${code === null ? 'by signal' : `code ${code}`}); outcome of pending requests unknown`),
          this.onclose,
        ),
      this.#limits.drainMs,
    );
  }

  #onChunk(chunk: Uint8Array): void {
    const { messages, failure } = this.#reader.push(chunk);
    for (const { message, lineBytes } of messages) {
      if (this.#done) return;
      this.onmessage?.(message, { bytes: lineBytes });
    }
    if (failure) this.#end(failure, this.onerror);
  }
}

export interface StdioOptions {
  readonly limits?: Partial<ConnectionLimits>;
  readonly graces: Graces;
  readonly spawn?: SpawnFn;
}

/** Spawns the server (see `spawnChild`) and wraps its stdio; not started yet. */
export function openStdioTransport(launch: Launch, options: StdioOptions): Outcome<StdioTransport> {
  const child = (options.spawn ?? spawnChild)(launch);
  if (!child.ok) return child;
  return ok(new StdioTransport(child.value, { ...DEFAULT_CONNECTION_LIMITS, ...options.limits }, options.graces));
}
