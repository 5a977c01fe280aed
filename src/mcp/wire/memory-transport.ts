import { fail, type Failure } from '../../contract/index.ts';
import { decodeText, type InboundMessage, type OutboundMessage } from './messages.ts';
import type { MessageInfo, Transport, Written } from './transport.ts';

const encoder = new TextEncoder();

/** What a message takes as a stdio line (its JSON and newline): the same measure on both transports. */
const lineBytes = (json: string): number => encoder.encode(json).byteLength + 1;

/**
 * The server's end of an in-memory pair: what an in-process server (or a
 * test) holds. It sees every message the client sent, as a fresh copy, in
 * order; what it sends reaches the client end only as JSON could carry it.
 */
export interface MemoryPeer {
  /** Sends any JSON value to the client, which checks it as it would a line from a server; a value JSON cannot carry throws (a programmer error). */
  send(message: unknown): void;
  /** Sends one JSON text as written (a repeated key, `1.0`), checked as a line from a server would be. */
  sendText(json: string): void;
  /** Each message from the client; a throw hangs up, as a crashed server (the client sees connection_lost). */
  onmessage?: (message: Record<string, unknown>) => void;
  /** The client end closed. */
  onclose?: () => void;
  /** Hangs up, as a server that exits: the client sees closed/connection_lost. */
  close(): void;
  readonly closed: boolean;
}

class MemoryClientEnd implements Transport<void> {
  onmessage?: (message: InboundMessage, info: MessageInfo) => void;
  onerror?: (failure: Failure) => void;
  onclose?: (failure: Failure) => void;
  /** Messages from the peer that arrived before start(). */
  #queued: (() => void)[] | undefined = [];
  #ended = false;
  #closed = false;
  readonly #toPeer: (message: Record<string, unknown>) => void;
  readonly #peerClosed: () => void;
  readonly #peerGone: () => boolean;

  constructor(toPeer: (message: Record<string, unknown>) => void, peerClosed: () => void, peerGone: () => boolean) {
    this.#toPeer = toPeer;
    this.#peerClosed = peerClosed;
    this.#peerGone = peerGone;
  }

  get closed(): boolean {
    return this.#closed;
  }

  start(): void {
    const queued = this.#queued ?? [];
    this.#queued = undefined;
    for (const deliver of queued) queueMicrotask(deliver);
  }

  send(message: OutboundMessage): Written {
    const json = JSON.stringify(message);
    const bytes = lineBytes(json);
    if (this.#closed) return { bytes, failure: fail('closed', 'session_closed', 'transport closed; nothing written') };
    // As stdio's write to a server that exited: the peer is gone, so nothing is written.
    if (this.#peerGone()) return { bytes, failure: fail('closed', 'connection_lost', 'cannot write: the server hung up') };
    queueMicrotask(() => this.#toPeer(JSON.parse(json) as Record<string, unknown>));
    return { bytes };
  }

  measure(message: OutboundMessage): number {
    return lineBytes(JSON.stringify(message));
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      queueMicrotask(this.#peerClosed);
    }
    return Promise.resolve();
  }

  /** From the peer: one message as JSON text, read as `decodeText` reads a stdio line. */
  receive(json: string): void {
    this.#deliver(() => {
      const decoded = decodeText(json);
      if (decoded.ok) return this.onmessage?.(decoded.value, { bytes: lineBytes(json) });
      this.#ended = true;
      this.onerror?.(decoded);
    });
  }

  /** From the peer: it hung up (`why`: its handler threw, as a server process that crashed). */
  hangUp(why = 'server hung up'): void {
    this.#deliver(() => {
      this.#ended = true;
      this.onclose?.(fail('closed', 'connection_lost', `${why}; outcome of pending requests unknown`));
    });
  }

  /** In order, never from inside a call into this end, nothing after an end or close(). */
  #deliver(event: () => void): void {
    const guarded = (): void => {
      if (!this.#ended && !this.#closed) event();
    };
    if (this.#queued) this.#queued.push(guarded);
    else queueMicrotask(guarded);
  }
}

/**
 * A linked client transport and server peer in one process: no process, no
 * bytes, the same message discipline as stdio (delivery in order, never
 * re-entrant, envelopes checked, sizes measured as stdio lines). For tests of
 * the correlator and the session, and for embedding an in-process server.
 *
 * @example
 * const [transport, server] = memoryTransportPair();
 * server.onmessage = (m) => { if (m.method === 'ping') server.send({ jsonrpc: '2.0', id: m.id, result: {} }); };
 * const correlator = new Correlator(transport);
 */
export function memoryTransportPair(): readonly [client: Transport<void> & { readonly closed: boolean }, server: MemoryPeer] {
  let peerClosed = false;
  const hangUp = (why?: string): void => {
    if (peerClosed) return;
    peerClosed = true;
    client.hangUp(why);
  };
  const peer: MemoryPeer = {
    send(message) {
      if (peerClosed) return; // a server that hung up has nowhere to write
      const json = JSON.stringify(message);
      if (json === undefined) throw new TypeError('MemoryPeer.send: not a JSON value');
      client.receive(json);
    },
    sendText(json) {
      if (!peerClosed) client.receive(json);
    },
    close: () => hangUp(),
    get closed() {
      return peerClosed;
    },
  };
  const client: MemoryClientEnd = new MemoryClientEnd(
    (message) => {
      if (peerClosed) return;
      // The server's handler runs in a queued task, where a throw would be uncaught: a server
      // that throws is a server that crashed, and the client sees it hang up.
      try {
        peer.onmessage?.(message);
      } catch (error) {
        hangUp(`server handler threw (${error instanceof Error ? error.message : String(error)})`);
      }
    },
    () => {
      if (peerClosed) return;
      peerClosed = true;
      peer.onclose?.();
    },
    () => peerClosed,
  );
  return [client, peer];
}
