/**
 * TEST ONLY — an in-process MCP server for the host session, scripted per
 * method, on the peer end of a memory pair: each handler gets the params and
 * returns the result, `{ error }` to answer with a JSON-RPC error, or `HANG`
 * to never answer; a handler that throws crashes the server (the client
 * sees connection_lost). Every message the client sent is kept, in order.
 */
import { memoryTransportPair, type MemoryPeer, type Transport } from '../../wire/index.ts';

export const HANG: unique symbol = Symbol('hang');

export type Handler = (params: Record<string, unknown>, peer: MemoryPeer) => unknown;

export interface HostPeer {
  readonly transport: Transport<void> & { readonly closed: boolean };
  readonly peer: MemoryPeer;
  /** Every message the client sent, in order. */
  readonly received: Record<string, unknown>[];
  /** The methods of those messages, in order. */
  methods(): string[];
  /** Sends `notifications/tools/list_changed` to the client. */
  listChanged(): void;
}

/** An initialize result for `version`, with the tools capability. */
export function initializeResult(version = '2025-06-18'): Record<string, unknown> {
  return { protocolVersion: version, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'hostile', version: '0.0.1' } };
}

/** A server answering `initialize` (2025-06-18 unless given) and whatever `handlers` name; other requests get -32601. */
export function hostPeer(handlers: Record<string, Handler>): HostPeer {
  const [transport, peer] = memoryTransportPair();
  const received: Record<string, unknown>[] = [];
  const all: Record<string, Handler> = { initialize: () => initializeResult(), ...handlers };
  peer.onmessage = (message) => {
    received.push(message);
    const { id, method, params } = message as { id?: unknown; method?: string; params?: Record<string, unknown> };
    if (id === undefined || method === undefined) return;
    const handler = all[method];
    if (!handler) return peer.send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } });
    const answer = handler(params ?? {}, peer);
    if (answer === HANG) return;
    const error = (answer as { error?: unknown } | undefined)?.error;
    peer.send(error === undefined ? { jsonrpc: '2.0', id, result: answer } : { jsonrpc: '2.0', id, error });
  };
  return {
    transport,
    peer,
    received,
    methods: () => received.map((m) => String(m['method'] ?? '(response)')),
    listChanged: () => peer.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
  };
}

/** A listed tool entry: `name` with an object input schema, and `extra` fields (an outputSchema, a description). */
export function listedTool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, inputSchema: { type: 'object' }, ...extra };
}
