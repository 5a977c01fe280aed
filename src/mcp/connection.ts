import { fail, LIMITS, ok, type Failure, type Outcome } from '../contract/index.ts';
import { terminate, type ChildProcess, type CloseReport, type Graces } from './child.ts';
import { InboundReader } from './inbound.ts';
import { encodeLine, idKey, type ErrorObject, type InboundMessage, type JsonRpcId } from './messages.ts';
import { StderrTail } from './stderr.ts';
import { refuse } from './basis.ts';

export interface ConnectionLimits {
  readonly maxLineBytes: number;
  readonly stderrBytes: number;
  /** After the server exits, how long stdout may take to reach EOF (a grandchild may hold it). */
  readonly drainMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { maxLineBytes: LIMITS.mcpLineBytes, stderrBytes: 64 * 1024, drainMs: 250 };

/** A correlated answer to one request. */
export interface Reply {
  readonly id: JsonRpcId;
  readonly requestBytes: number;
  readonly responseBytes: number;
  readonly answer: { readonly result: Record<string, unknown> } | { readonly error: ErrorObject };
}

/** A request on the wire: its id is known before its answer. */
export interface Sent {
  readonly id: JsonRpcId;
  readonly requestBytes: number;
  readonly reply: Promise<Outcome<Reply>>;
}

export interface RequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** MCP 2025-06-18: "The `initialize` request MUST NOT be cancelled by clients." Giving up on it ends the session. */
const NEVER_CANCELLED: ReadonlySet<string> = new Set(['initialize']);

/** Decides about a server notification; a failure ends the session. */
export type NotificationPolicy = (method: string) => Failure | undefined;

/** Sees each request the server sends (after it is answered); probe reports those it did not expect. */
export type RequestObserver = (method: string) => void;

interface Pending {
  readonly settle: (outcome: Outcome<Reply>) => void;
  readonly id: JsonRpcId;
  readonly requestBytes: number;
}

/**
 * One strict JSON-RPC session over a child's stdio. Every inbound line is
 * checked on its own; any violation fails the whole session closed, settles
 * every pending request and stops the server. Requests are never re-sent.
 */
export class Connection {
  readonly #child: ChildProcess;
  readonly #limits: ConnectionLimits;
  readonly #graces: Graces;
  readonly #reader: InboundReader;
  readonly #stderr: StderrTail;
  readonly #onNotification: NotificationPolicy;
  readonly #onRequest: RequestObserver;
  /** Settles when the server's stderr reached EOF (or broke). */
  readonly #stderrDrained: Promise<void>;
  readonly #pending = new Map<string, Pending>();
  /** Ids we stopped waiting for (timeout/abort): one late answer is expected and ignored. */
  readonly #abandoned = new Set<string>();
  readonly #answered = new Set<string>();
  #nextId = 1;
  #failure: Failure | undefined;
  #closing: Promise<CloseReport> | undefined;

  constructor(
    child: ChildProcess,
    limits: ConnectionLimits,
    graces: Graces,
    onNotification: NotificationPolicy = () => undefined,
    onRequest: RequestObserver = () => undefined,
  ) {
    this.#child = child;
    this.#limits = limits;
    this.#graces = graces;
    this.#reader = new InboundReader(limits.maxLineBytes);
    this.#stderr = new StderrTail(limits.stderrBytes, child.redactor);
    this.#onNotification = onNotification;
    this.#onRequest = onRequest;
    this.#stderrDrained = this.#stderr.drain(child.stderr);
    void this.#readStdout();
    void child.exited.then((code) => this.#onExit(code));
  }

  /** The failure that ended the session, if any. */
  get failure(): Failure | undefined {
    return this.#failure;
  }

  get pid(): number {
    return this.#child.pid;
  }

  /** The kept tail of the server's stderr (diagnostics only). */
  stderr(): string {
    return this.#stderr.text();
  }

  /** Sends a request; the reply settles once, with a value, never a throw. */
  send(method: string, params: Record<string, unknown>, options: RequestOptions): Sent {
    const id = this.#nextId++;
    const key = idKey(id);
    const bytes = encodeLine({ jsonrpc: '2.0', id, method, params });
    const requestBytes = bytes.byteLength;
    if (this.#failure) return { id, requestBytes, reply: Promise.resolve(this.#failure) };
    const reply = new Promise<Outcome<Reply>>((resolve) => {
      const stopWaiting = (failure: Failure): void => {
        if (!this.#pending.has(key)) return;
        // Never cancelled: the session ends, settling this request (and any other) with the failure.
        if (NEVER_CANCELLED.has(method)) return this.#fail({ ...failure, message: `${failure.message}; session closed (${method} is never cancelled)` });
        this.#pending.delete(key);
        this.#abandoned.add(key);
        // Tell the server; a late answer to this id is then expected and ignored.
        this.notify('notifications/cancelled', { requestId: id, reason: failure.kind });
        settle(failure);
      };
      const timer = setTimeout(
        () => stopWaiting(fail('timeout', 'deadline', `${method} #${id}: no answer within ${options.timeoutMs} ms; outcome unknown`)),
        options.timeoutMs,
      );
      const onAbort = (): void =>
        stopWaiting(fail('timeout', 'aborted', `${method} #${id}: caller stopped waiting; outcome unknown`));
      const settle = (outcome: Outcome<Reply>): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.#pending.set(key, { settle, id, requestBytes });
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const written = this.#child.write(bytes);
      if (!written.ok) this.#fail(written);
    });
    return { id, requestBytes, reply };
  }

  /** Sends a notification (no answer expected). */
  notify(method: string, params: Record<string, unknown>): Outcome<void> {
    if (this.#failure) return this.#failure;
    const written = this.#child.write(encodeLine({ jsonrpc: '2.0', method, params }));
    if (!written.ok) this.#fail(written);
    return written;
  }

  /**
   * Ends the session: settles pending requests as closed (outcome unknown)
   * and stops the server's whole process group. Idempotent. Resolves once
   * the server's stderr is read to its end too (at most `drainMs` after the
   * group is gone), so the kept tail does not depend on scheduling.
   */
  close(): Promise<CloseReport> {
    if (!this.#closing) {
      this.#settleAll(fail('closed', 'session_closed', 'session closed while a request was pending; outcome unknown'));
      this.#failure ??= fail('closed', 'session_closed', 'session closed');
      this.#closing = terminate(this.#child, this.#graces).then(async (report) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([this.#stderrDrained, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#limits.drainMs)))]);
        clearTimeout(timer);
        return report;
      });
    }
    return this.#closing;
  }

  #fail(failure: Failure): void {
    if (this.#failure) return;
    this.#failure = failure;
    this.#settleAll(failure);
    void this.close();
  }

  #settleAll(failure: Failure): void {
    for (const pending of this.#pending.values()) pending.settle(failure);
    this.#pending.clear();
  }

  async #readStdout(): Promise<void> {
    const reader = this.#child.stdout.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.#failure) break;
        this.#onChunk(value);
      }
    } catch {
      // A broken pipe is the same as EOF here.
    } finally {
      reader.releaseLock();
    }
    const partial = this.#reader.pendingBytes > 0 ? ` (${this.#reader.pendingBytes} bytes of an unfinished line)` : '';
    this.#fail(fail('closed', 'connection_lost', `server closed stdout${partial}; outcome of pending requests unknown`));
  }

  #onExit(code: number | null): void {
    if (this.#failure) return;
    // Let stdout drain first: the answer may be in the pipe behind the exit.
    setTimeout(
      () =>
        this.#fail(
          fail('closed', 'connection_lost', `server exited (${code === null ? 'by signal' : `code ${code}`}); outcome of pending requests unknown`),
        ),
      this.#limits.drainMs,
    );
  }

  #onChunk(chunk: Uint8Array): void {
    const { messages, failure } = this.#reader.push(chunk);
    for (const { message, lineBytes } of messages) {
      if (this.#failure) return;
      this.#dispatch(message, lineBytes);
    }
    if (failure) this.#fail(failure);
  }

  #dispatch(inbound: InboundMessage, lineBytes: number): void {
    switch (inbound.type) {
      case 'request': {
        // Servers may ping at any time; everything else needs a capability we did not declare.
        const { id, method } = inbound.message;
        const answer =
          method === 'ping' ? { result: {} } : { error: { code: -32601, message: `method not supported by this client: ${method}` } };
        this.#child.write(encodeLine({ jsonrpc: '2.0', id, ...answer }));
        this.#onRequest(method);
        return;
      }
      case 'notification': {
        const refused = this.#onNotification(inbound.message.method);
        if (refused) this.#fail(refused);
        return;
      }
      default:
        return this.#correlate(inbound, lineBytes);
    }
  }

  #correlate(inbound: Extract<InboundMessage, { type: 'result' | 'error' }>, lineBytes: number): void {
    const { id } = inbound.message;
    if (id === null) {
      const error = inbound.type === 'error' ? inbound.message.error.message : '';
      return this.#fail(refuse('protocol', 'unknown_id', `error response with id null: ${error}`));
    }
    const key = idKey(id);
    const pending = this.#pending.get(key);
    if (pending) {
      this.#pending.delete(key);
      this.#answered.add(key);
      const answer = inbound.type === 'result' ? { result: inbound.message.result } : { error: inbound.message.error };
      pending.settle(ok({ id: pending.id, requestBytes: pending.requestBytes, responseBytes: lineBytes, answer }));
      return;
    }
    if (this.#abandoned.delete(key)) {
      this.#answered.add(key);
      return;
    }
    if (this.#answered.has(key)) return this.#fail(refuse('protocol', 'duplicate_response', `second response for id ${key}`));
    this.#fail(refuse('protocol', 'unknown_id', `response for id ${key}, which matches no pending request (JSON type included)`));
  }
}
