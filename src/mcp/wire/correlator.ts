import { fail, ok, type Failure, type Outcome } from '../../contract/index.ts';
import { refuse } from './basis.ts';
import { idKey, type ErrorObject, type InboundMessage, type JsonRpcId } from './messages.ts';
import type { MessageInfo, Transport, Written } from './transport.ts';

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

/** Decides about a server notification; a failure ends the session. */
export type NotificationPolicy = (method: string) => Failure | undefined;

/** Sees each request the server sends (after it is answered); probe reports those it did not expect. */
export type RequestObserver = (method: string) => void;

/** Decides about a result before its request sees it; a failure ends the session (probe's 2026-07-28 checks). */
export type ResultPolicy = (method: string, result: Readonly<Record<string, unknown>>) => Failure | undefined;

/** Rewrites each request's params as it is sent (probe's 2026-07-28 envelope: `_meta` on every request). */
export type RequestStamp = (method: string, params: Record<string, unknown>) => Record<string, unknown>;

export interface CorrelatorOptions {
  readonly onNotification?: NotificationPolicy;
  readonly onRequest?: RequestObserver;
  readonly onResult?: ResultPolicy;
  readonly stamp?: RequestStamp;
}

/** MCP 2025-06-18: "The `initialize` request MUST NOT be cancelled by clients." Giving up on it ends the session. */
const NEVER_CANCELLED: ReadonlySet<string> = new Set(['initialize']);

/** One request awaiting its answer; its size and settle are filled in as it is sent. */
interface Pending {
  settle: (outcome: Outcome<Reply>) => void;
  readonly id: JsonRpcId;
  readonly method: string;
  requestBytes: number;
}

/**
 * One strict JSON-RPC session over any transport: ids, per-request deadlines,
 * cancellation, server requests and notifications. A violation — a response
 * no pending request owns, a second response, a refused notification, or
 * anything the transport reports — fails the whole session closed, settles
 * every pending request and closes the transport. Requests are never re-sent.
 */
export class Correlator<Closed = void> {
  readonly #transport: Transport<Closed>;
  readonly #onNotification: NotificationPolicy;
  readonly #onRequest: RequestObserver;
  readonly #onResult: ResultPolicy;
  readonly #stamp: RequestStamp;
  readonly #pending = new Map<string, Pending>();
  /** Ids we stopped waiting for (timeout/abort): one late answer is expected and ignored. */
  readonly #abandoned = new Set<string>();
  readonly #answered = new Set<string>();
  #nextId = 1;
  #failure: Failure | undefined;
  #closing: Promise<Closed> | undefined;

  /** Takes over the transport's callbacks and starts it. */
  constructor(transport: Transport<Closed>, options: CorrelatorOptions = {}) {
    this.#transport = transport;
    this.#onNotification = options.onNotification ?? (() => undefined);
    this.#onRequest = options.onRequest ?? (() => undefined);
    this.#onResult = options.onResult ?? (() => undefined);
    this.#stamp = options.stamp ?? ((_method, params) => params);
    transport.onmessage = (message, info) => this.#dispatch(message, info);
    transport.onerror = (failure) => this.#fail(failure);
    transport.onclose = (failure) => this.#fail(failure);
    transport.start();
  }

  /** The failure that ended the session, if any. */
  get failure(): Failure | undefined {
    return this.#failure;
  }

  /** Sends a request; the reply settles once, with a value, never a throw. */
  request(method: string, params: Record<string, unknown>, options: RequestOptions): Sent {
    const id = this.#nextId++;
    const message = { jsonrpc: '2.0', id, method, params: this.#stamp(method, params) } as const;
    if (this.#failure) return { id, requestBytes: this.#transport.measure(message), reply: Promise.resolve(this.#failure) };
    const key = idKey(id);
    const pending: Pending = { id, method, requestBytes: 0, settle: () => {} };
    const reply = new Promise<Outcome<Reply>>((resolve) => {
      const stopWaiting = (failure: Failure): void => {
        if (!this.#pending.has(key)) return;
        // Never cancelled: the session ends, settling this request (and any other) with the failure.
        if (NEVER_CANCELLED.has(method)) return this.#fail({ ...failure, message: `${failure.message}; session closed (${method} is never cancelled)` });
        this.#pending.delete(key);
        this.#abandoned.add(key);
        // Tell the server; a late answer to this id is then expected and ignored.
        this.notify('notifications/cancelled', { requestId: id, reason: failure.kind });
        pending.settle(failure);
      };
      const timer = setTimeout(
        () => stopWaiting(fail('timeout', 'deadline', `${method} #${id}: no answer within ${options.timeoutMs} ms; outcome unknown`)),
        options.timeoutMs,
      );
      const onAbort = (): void => stopWaiting(fail('timeout', 'aborted', `${method} #${id}: caller stopped waiting; outcome unknown`));
      pending.settle = (outcome) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.#pending.set(key, pending);
      if (options.signal?.aborted) {
        // Given up before it was written: nothing is sent but the cancellation.
        pending.requestBytes = this.#transport.measure(message);
        return onAbort();
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // Registered first: a failed write settles this request with the rest.
      const written = this.#send(message);
      pending.requestBytes = written.bytes;
      if (written.failure) this.#fail(written.failure);
    });
    return { id, requestBytes: pending.requestBytes, reply };
  }

  /** Sends a notification (no answer expected). */
  notify(method: string, params: Record<string, unknown>): Outcome<void> {
    if (this.#failure) return this.#failure;
    const { failure } = this.#send({ jsonrpc: '2.0', method, params });
    if (failure) this.#fail(failure);
    return failure ?? ok(undefined);
  }

  /**
   * Ends the session: settles pending requests as closed (outcome unknown)
   * and closes the transport. Idempotent.
   */
  close(): Promise<Closed> {
    if (!this.#closing) {
      this.#settleAll(fail('closed', 'session_closed', 'session closed while a request was pending; outcome unknown'));
      this.#failure ??= fail('closed', 'session_closed', 'session closed');
      this.#closing = this.#transport.close();
    }
    return this.#closing;
  }

  /** The transport's send; a transport that throws (a bug in it) ends the session like a failed write, never as an exception. */
  #send(message: Parameters<Transport<Closed>['send']>[0]): Written {
    try {
      return this.#transport.send(message);
    } catch (error) {
      return { bytes: 0, failure: fail('closed', 'transport_error', `the transport threw on send: ${String(error)}`) };
    }
  }

  /** Runs a caller's callback from inside delivery; a throw ends the session (failed closed) instead of escaping into the transport. */
  #guard<T>(what: string, callback: () => T): T | undefined {
    try {
      return callback();
    } catch (error) {
      this.#fail(fail('closed', 'callback_error', `the ${what} threw: ${String(error)}`));
      return undefined;
    }
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

  #dispatch(inbound: InboundMessage, info: MessageInfo): void {
    if (this.#failure) return;
    switch (inbound.type) {
      case 'request': {
        // Servers may ping at any time; everything else needs a capability we did not declare.
        const { id, method } = inbound.message;
        const answer =
          method === 'ping' ? { result: {} } : { error: { code: -32601, message: `method not supported by this client: ${method}` } };
        const written = this.#send({ jsonrpc: '2.0', id, ...answer });
        if (written.failure) return this.#fail(written.failure);
        return this.#guard('request observer', () => this.#onRequest(method));
      }
      case 'notification': {
        const refused = this.#guard('notification policy', () => this.#onNotification(inbound.message.method));
        if (refused) this.#fail(refused);
        return;
      }
      default:
        return this.#correlate(inbound, info.bytes);
    }
  }

  #correlate(inbound: Extract<InboundMessage, { type: 'result' | 'error' }>, responseBytes: number): void {
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
      const result = inbound.type === 'result' ? inbound.message.result : undefined;
      const refused = result ? this.#guard('result policy', () => this.#onResult(pending.method, result)) : undefined;
      if (refused) {
        // The answer breaks a rule the session holds every result to: this request fails with it, and so does the session.
        pending.settle(refused);
        return this.#fail(refused);
      }
      pending.settle(ok({ id: pending.id, requestBytes: pending.requestBytes, responseBytes, answer }));
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
