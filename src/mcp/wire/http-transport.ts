import { fail, LIMITS, ok, sha256Hex, type Failure, type Outcome } from '../../contract/index.ts';
import { refuse } from './basis.ts';
import { decodeHttp, dropped, mediaType, readBodyBounded } from './http-body.ts';
import { fetchFailure, sessionIdFailure, shown, statusFailure } from './http-status.ts';
import { idKey, type InboundMessage, type OutboundMessage } from './messages.ts';
import { SseParser } from './sse.ts';
import type { MessageInfo, Transport, Written } from './transport.ts';

/** Where an HTTP server is, as the binding may record it: the URL and the names (never the values) of the headers sent. */
export interface HttpEndpoint {
  readonly kind: 'http';
  readonly url: string;
  readonly headerNames: readonly string[];
}

export interface HttpLimits {
  readonly bodyBytes: number;
  readonly sseEventBytes: number;
  readonly sessionIdBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  bodyBytes: LIMITS.httpBodyBytes,
  sseEventBytes: LIMITS.sseEventBytes,
  sessionIdBytes: LIMITS.httpSessionIdBytes,
};

/** `fetch` as the transport calls it (Bun's options: `proxy`); injectable for tests. */
export type FetchFn = (url: string, init: RequestInit & { readonly proxy?: false }) => Promise<Response>;

/** What closing did: whether the server's session was ended (DELETE) and how many POSTs were cut off. */
export interface HttpCloseReport {
  readonly url: string;
  /** The DELETE of an issued session and its status (404 or 405 are fine: the session is over either way), or why none was sent. */
  readonly session:
    | { readonly deleted: false; readonly why: 'no session id was issued' | 'the server had ended it (404)' }
    | { readonly deleted: true; readonly status: number }
    | { readonly deleted: true; readonly error: string };
  /** POSTs still in flight when closing began: aborted, their outcome unknown. */
  readonly aborted: number;
}

type Sending = 'request' | 'notification' | 'response';

/** The headers the transport sets itself: a configured header of the same name is refused (see `openHttpTransport`). */
export const OWN_HEADERS: ReadonlySet<string> = new Set(['accept', 'connection', 'content-length', 'content-type', 'host', 'last-event-id', 'mcp-protocol-version', 'mcp-session-id', 'transfer-encoding']);

interface Sent {
  readonly kind: Sending;
  /** The message as a failure names it (`tools/call #3`). */
  readonly what: string;
  /** A request's id key: the answer that settles it. */
  readonly key?: string;
  /** Aborts its POST; it leaves the transport's in-flight set once its answer (or its failure) is taken. */
  readonly controller: AbortController;
}

function sending(message: OutboundMessage, controller: AbortController): Sent {
  if ('method' in message) {
    return 'id' in message ? { kind: 'request', what: `${message.method} #${message.id}`, key: idKey(message.id), controller } : { kind: 'notification', what: message.method, controller };
  }
  return { kind: 'response', what: `the answer to server request #${message.id}`, controller };
}

const isAnswerTo = (message: InboundMessage, key: string | undefined): boolean =>
  (message.type === 'result' || message.type === 'error') && message.message.id !== null && idKey(message.message.id) === key;

const utf8 = new TextEncoder();

/**
 * MCP's Streamable HTTP (2025-06-18) for the client, on `fetch`: each message
 * is one POST; what comes back — a JSON body, an SSE stream, 202, an HTTP
 * error — arrives through the callbacks, so `send` stays synchronous and the
 * correlator sees the same seam as stdio. Every request goes to the pinned URL
 * only: `redirect: 'manual'` (a 3xx is protocol/redirect, never followed),
 * `proxy: false` (Bun's fetch would take `HTTP_PROXY` even to loopback), and
 * `Connection: close`, so no pooled socket outlives `close()`. Bodies and SSE
 * events are read bounded as they stream. A message sent after a
 * notification or answer waits until that POST got its status, so the server
 * sees them in order; requests do not wait for each other. No GET stream is
 * opened: server messages arrive on POST streams only.
 */
export class HttpTransport implements Transport<HttpCloseReport> {
  readonly #url: string;
  readonly #headers: readonly (readonly [string, string])[];
  readonly #limits: HttpLimits;
  readonly #closeMs: number;
  readonly #fetch: FetchFn;
  #sessionId: string | undefined;
  #sessionGone = false;
  #protocolVersion: string | undefined;
  #start: () => void = () => {};
  readonly #started = new Promise<void>((resolve) => (this.#start = resolve));
  /** Settles once the last notification or answer POSTed got its status. */
  #ordered: Promise<void> = Promise.resolve();
  readonly #inflight = new Set<AbortController>();
  readonly #tasks = new Set<Promise<void>>();
  #ended = false;
  #closing: Promise<HttpCloseReport> | undefined;
  onmessage?: (message: InboundMessage, info: MessageInfo) => void;
  onerror?: (failure: Failure) => void;
  onclose?: (failure: Failure) => void;

  constructor(url: string, headers: readonly (readonly [string, string])[], limits: HttpLimits, closeMs: number, fetchFn: FetchFn) {
    this.#url = url;
    this.#headers = headers;
    this.#limits = limits;
    this.#closeMs = closeMs;
    this.#fetch = fetchFn;
  }

  get endpoint(): HttpEndpoint {
    return { kind: 'http', url: this.#url, headerNames: this.#headers.map(([name]) => name) };
  }

  /** The sha256 of the session id the server issued (the id itself is never exposed), if any. */
  get sessionIdSha256(): string | undefined {
    return this.#sessionId === undefined ? undefined : sha256Hex(this.#sessionId);
  }

  start(): void {
    this.#start();
  }

  /** The revision initialize negotiated: every later message carries it as `MCP-Protocol-Version`. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  send(message: OutboundMessage): Written {
    const body = JSON.stringify(message);
    const bytes = utf8.encode(body).byteLength;
    if (this.#done) return { bytes, failure: fail('closed', 'session_closed', 'transport closed; nothing sent') };
    const task = this.#post(message, body);
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
    return { bytes };
  }

  measure(message: OutboundMessage): number {
    return utf8.encode(JSON.stringify(message)).byteLength;
  }

  /** Aborts every POST in flight, then ends the server's session with a DELETE if it issued one (at most `closeMs`). Idempotent. */
  close(): Promise<HttpCloseReport> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  get #done(): boolean {
    return this.#ended || this.#closing !== undefined;
  }

  async #shutdown(): Promise<HttpCloseReport> {
    const aborted = this.#inflight.size;
    for (const controller of this.#inflight) controller.abort();
    this.#start();
    const session = await this.#deleteSession();
    await Promise.allSettled([...this.#tasks]);
    return { url: this.#url, session, aborted };
  }

  async #deleteSession(): Promise<HttpCloseReport['session']> {
    if (this.#sessionId === undefined) return { deleted: false, why: 'no session id was issued' };
    if (this.#sessionGone) return { deleted: false, why: 'the server had ended it (404)' };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#closeMs);
    try {
      const response = await this.#fetch(this.#url, this.#init('DELETE', undefined, controller.signal));
      await response.body?.cancel().catch(() => {});
      return { deleted: true, status: response.status };
    } catch (error) {
      return { deleted: true, error: fetchFailure('DELETE', error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  #init(method: 'POST' | 'DELETE', body: string | undefined, signal: AbortSignal): RequestInit & { readonly proxy?: false } {
    const headers = new Headers(this.#headers.map(([name, value]) => [name, value]));
    if (body !== undefined) headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('connection', 'close');
    if (this.#sessionId !== undefined) headers.set('mcp-session-id', this.#sessionId);
    if (this.#protocolVersion !== undefined) headers.set('mcp-protocol-version', this.#protocolVersion);
    return { method, headers, signal, redirect: 'manual', proxy: false, ...(body !== undefined ? { body } : {}) };
  }

  /**
   * Reports the end once (a closed-class failure as onclose, any other as
   * onerror), unless closing was asked for first. The POST that failed is
   * over (its answer, an error, arrived or never will): it leaves the
   * in-flight set first, so a close the callback starts does not count it as aborted.
   */
  #end(failure: Failure, sent: Sent): void {
    this.#inflight.delete(sent.controller);
    if (this.#done) return;
    this.#ended = true;
    (failure.class === 'closed' ? this.onclose : this.onerror)?.(failure);
  }

  /** Delivers one message that came back on `sent`'s POST; false once the session is over (the callback may have ended it). */
  #deliver(message: InboundMessage, bytes: number, sent: Sent): boolean {
    if (this.#done) return false;
    if (isAnswerTo(message, sent.key)) this.#inflight.delete(sent.controller);
    this.onmessage?.(message, { bytes });
    return !this.#done;
  }

  async #post(message: OutboundMessage, body: string): Promise<void> {
    const controller = new AbortController();
    const sent = sending(message, controller);
    const after = this.#ordered;
    let statusKnown = (): void => {};
    if (sent.kind !== 'request') this.#ordered = new Promise((resolve) => (statusKnown = resolve));
    this.#inflight.add(controller);
    try {
      await this.#started;
      await after;
      if (this.#done) return;
      const carriedSession = this.#sessionId !== undefined;
      let response: Response;
      try {
        response = await this.#fetch(this.#url, this.#init('POST', body, controller.signal));
      } catch (error) {
        return this.#end(fetchFailure(sent.what, error), sent);
      }
      statusKnown();
      if (sent.kind !== 'request') this.#inflight.delete(controller);
      await this.#answer(response, sent, carriedSession, 'method' in message && message.method === 'initialize');
    } finally {
      statusKnown();
      this.#inflight.delete(controller);
    }
  }

  async #answer(response: Response, sent: Sent, carriedSession: boolean, initialize: boolean): Promise<void> {
    const failed = statusFailure(sent.what, response, carriedSession) ?? (initialize ? this.#takeSessionId(response) : undefined);
    if (failed || sent.kind !== 'request') void response.body?.cancel().catch(() => {});
    if (failed) {
      if (failed.kind === 'session_gone') this.#sessionGone = true;
      return this.#end(failed, sent);
    }
    if (sent.kind !== 'request') {
      if (response.status === 202) return;
      return this.#end(refuse('protocol', 'not_accepted', `${sent.what}: HTTP ${response.status}, not 202 Accepted (a notification or answer the server accepts MUST get 202 with no body)`), sent);
    }
    const type = mediaType(response.headers.get('content-type'));
    if (response.status !== 202 && type === 'application/json') return this.#readJson(response, sent);
    if (response.status !== 202 && type === 'text/event-stream') return this.#readStream(response, sent);
    void response.body?.cancel().catch(() => {});
    this.#end(refuse('protocol', 'bad_content_type', `${sent.what}: HTTP ${response.status} with Content-Type ${shown(response.headers.get('content-type'))}; a request MUST be answered with application/json or text/event-stream`), sent);
  }

  /** The session id issued with the initialize answer, checked (visible ASCII, within the bound). */
  #takeSessionId(response: Response): Failure | undefined {
    const id = response.headers.get('mcp-session-id');
    if (id === null) return undefined;
    const bad = sessionIdFailure(id, this.#limits.sessionIdBytes);
    if (!bad) this.#sessionId = id;
    return bad;
  }

  async #readJson(response: Response, sent: Sent): Promise<void> {
    const body = await readBodyBounded(response, this.#limits.bodyBytes, sent.what);
    if (this.#done) return;
    if (!body.ok) return this.#end(body, sent);
    const decoded = decodeHttp(body.value, `the JSON body answering ${sent.what}`);
    if (!decoded.ok) return this.#end(decoded, sent);
    if (!isAnswerTo(decoded.value, sent.key)) return this.#end(refuse('protocol', 'no_answer', `${sent.what}: the JSON body is not its answer (a request answered as JSON MUST get its response)`), sent);
    this.#deliver(decoded.value, body.value.byteLength, sent);
  }

  /** Delivers the stream's messages until the request's answer (then stops reading); a stream that ends first is closed/stream_dropped. */
  async #readStream(response: Response, sent: Sent): Promise<void> {
    const reader = response.body?.getReader();
    if (!reader) return this.#end(dropped(sent.what, 'the SSE stream had no body'), sent);
    const parser = new SseParser(this.#limits.sseEventBytes);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.#done) return;
        if (done) return this.#end(dropped(sent.what, 'the SSE stream ended'), sent);
        const { events, failure } = parser.push(value);
        for (const event of events) {
          const decoded = decodeHttp(event.data, `an SSE event answering ${sent.what}`);
          if (!decoded.ok) return this.#end(decoded, sent);
          if (!this.#deliver(decoded.value, event.bytes, sent) || isAnswerTo(decoded.value, sent.key)) return;
        }
        if (failure) return this.#end(failure, sent);
      }
    } catch (error) {
      if (!this.#done) this.#end(dropped(sent.what, `the SSE stream broke (${error instanceof Error ? error.message : String(error)})`), sent);
    } finally {
      void reader.cancel().catch(() => {});
    }
  }
}

export interface HttpOptions {
  readonly url: string;
  /** Extra headers sent with every message (an `Authorization` from the environment…): their values are never exposed, only their names. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly limits?: Partial<HttpLimits>;
  /** How long closing waits for the DELETE of the session. */
  readonly closeMs?: number;
  readonly fetch?: FetchFn;
}

/**
 * Checks an HTTP endpoint and returns its transport, not started yet:
 * an `http:` or `https:` URL without credentials in it, and headers the
 * transport does not set itself that `fetch` can send (else
 * invalid_arguments/bad_endpoint, naming the header but never its value).
 */
export function openHttpTransport(options: HttpOptions): Outcome<HttpTransport> {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return fail('invalid_arguments', 'bad_endpoint', `not a URL: ${shown(options.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('invalid_arguments', 'bad_endpoint', `not an http(s) URL: ${shown(url.protocol)}`);
  if (url.username !== '' || url.password !== '') return fail('invalid_arguments', 'bad_endpoint', 'the URL holds credentials; pass them as a header from the environment');
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (OWN_HEADERS.has(name.toLowerCase())) return fail('invalid_arguments', 'bad_endpoint', `header ${shown(name)} is set by the transport itself`);
    try {
      new Headers([[name, value]]);
    } catch {
      return fail('invalid_arguments', 'bad_endpoint', `header ${shown(name)}: its name or value cannot be sent (the value is not shown)`);
    }
    headers.push([name, value]);
  }
  const fetchFn: FetchFn = options.fetch ?? ((target, init) => fetch(target, init));
  return ok(new HttpTransport(url.href, headers, { ...DEFAULT_HTTP_LIMITS, ...options.limits }, options.closeMs ?? 1_000, fetchFn));
}
