import type { Failure } from '../../contract/index.ts';
import type { InboundMessage, OutboundMessage } from './messages.ts';

/** What one `send` did. */
export interface Written {
  /** The bytes the message takes on the wire (for stdio: its JSON line, newline included). */
  readonly bytes: number;
  /** Why it was not written: the transport is closed, or its peer is gone. */
  readonly failure?: Failure;
}

/** What the transport knows of one received message beyond its content. */
export interface MessageInfo {
  /** The bytes it took on the wire. */
  readonly bytes: number;
}

/**
 * The seam between the wire and the JSON-RPC correlator, in the shape of the
 * MCP SDK's `Transport` (start, send, close, onmessage, onerror, onclose),
 * with failures as values: `send` returns what it did instead of rejecting,
 * and the callbacks carry caplab failures instead of `Error`s.
 *
 * A transport delivers only well-formed JSON-RPC messages (`decodeText`);
 * anything else is reported through `onerror`. The strict client treats
 * every `onerror` and `onclose` as the end of the session: after a stream
 * broke once, nothing later on it can be read with certainty. A transport
 * reports at most one of them, once, and neither after `close()` was called;
 * it delivers nothing after either, nor after `close()`. Delivery is never
 * re-entrant: nothing arrives from inside `send` or `close`.
 *
 * `Closed` is what closing reports: for stdio, how the process group was
 * stopped (`CloseReport`); for HTTP, whether the server's session was ended
 * (`HttpCloseReport`).
 */
export interface Transport<Closed = void> {
  /** Starts reading. Call it once, after the callbacks are set: nothing is delivered before. */
  start(): void;
  /** Sends one message. A closed transport writes nothing and says so, still with the message's size. */
  send(message: OutboundMessage): Written;
  /** The bytes `send` would put on the wire for this message, without sending it. */
  measure(message: OutboundMessage): number;
  /**
   * The revision `initialize` negotiated, handed over by the session layer
   * before anything else is sent (as in the SDK's `Transport`): HTTP sends it
   * as `MCP-Protocol-Version` on every later message; stdio has no use for it.
   */
  setProtocolVersion?(version: string): void;
  /** Ends the connection; idempotent, every call gets the same report. */
  close(): Promise<Closed>;
  onmessage?: (message: InboundMessage, info: MessageInfo) => void;
  /** The inbound stream broke (bad framing, encoding, envelope, size): the failure names the rule. */
  onerror?: (failure: Failure) => void;
  /** The peer went away before `close()` (EOF, exit, stopped reading): outcome of whatever was in flight unknown. */
  onclose?: (failure: Failure) => void;
}
