import { ok, type Failure, type Outcome } from '../../contract/index.ts';
import type { TaskTrace } from '../../pipeline/index.ts';
import { Correlator, type ServerInfo, type JsonRpcId, type ListedTool, refuse, type Transport } from '../wire/index.ts';
import { interpretCall, type CallResult, type ExpectedTool } from './call.ts';
import { handshake } from './handshake.ts';
import { loggedCall } from './logged-call.ts';

/** The waits of a session; the transport's own (closing) are its business. */
export interface SessionTimeouts {
  readonly handshakeMs: number;
  readonly callMs: number;
}

export interface SessionOptions {
  /** Exactly the tools the server must list, pinned to their contracts. */
  readonly tools: readonly ExpectedTool[];
  readonly timeouts: SessionTimeouts;
  /**
   * Adds what the transport knows to a call that failed because the session
   * ended (class `closed`), such as a server's stderr tail.
   */
  readonly explainClosed?: (failure: Failure) => Failure;
}

/** The correlation of one tools/call: protocol id ↔ model tool_call_id ↔ action id. */
export interface Exchange {
  readonly method: 'tools/call';
  readonly tool: string;
  readonly jsonrpcId: JsonRpcId;
  readonly toolCallId: string;
  readonly actionId: string;
  readonly requestBytes: number;
  readonly responseBytes: number;
  readonly isError: boolean;
  /** `ok`, the failure's class/kind, or `pending` while no answer has settled the request. */
  readonly outcome: string;
  /** A call made as a task (host session, 2025-11-25): its trace, once it settled. */
  readonly task?: TaskTrace;
}

export interface CallOptions {
  readonly toolCallId: string;
  readonly actionId: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A handshaken session with one server under the fixed profile, over any transport. */
export interface StrictSession<Closed = void> {
  readonly serverInfo: ServerInfo;
  readonly protocolVersion: string;
  readonly tools: readonly ListedTool[];
  /** The server's free-form `instructions` from initialize (never shown to the model by this client). */
  readonly instructions: string | undefined;
  callTool(name: string, args: unknown, options: CallOptions): Promise<Outcome<CallResult & { readonly exchange: Exchange }>>;
  /** Every tools/call so far, in send order; each is logged when sent, so a call given up on is still there. */
  exchanges(): readonly Exchange[];
  /** The failure that ended the session, if any. */
  failure(): Failure | undefined;
  close(): Promise<Closed>;
}

/**
 * Runs the fixed-profile handshake over a transport (see `handshake`) and
 * returns the session. On a failed handshake the transport is closed before
 * the failure is returned. A `notifications/tools/list_changed` ends the
 * session: the listed tool set is no longer the one pinned.
 *
 * @example
 * const [transport, server] = memoryTransportPair();
 * … wire `server` to an in-process server …
 * const session = await startStrictSession(transport, { tools: [expected], timeouts: { handshakeMs: 5_000, callMs: 5_000 } });
 */
export async function startStrictSession<Closed>(transport: Transport<Closed>, options: SessionOptions): Promise<Outcome<StrictSession<Closed>>> {
  const { timeouts } = options;
  const explainClosed = options.explainClosed ?? ((failure: Failure) => failure);
  const correlator = new Correlator(transport, {
    onNotification: (method) =>
      method === 'notifications/tools/list_changed'
        ? refuse('protocol', 'tool_drift', 'server announced tools/list_changed; the pinned tool set no longer holds')
        : undefined,
  });
  const shaken = await handshake(
    correlator,
    options.tools.map((tool) => tool.contract),
    timeouts.handshakeMs,
    (version) => transport.setProtocolVersion?.(version),
  );
  if (!shaken.ok) {
    await correlator.close();
    return shaken;
  }
  const { serverInfo, protocolVersion, instructions } = shaken.value.initialize;
  const expected = new Map(options.tools.map((tool) => [tool.contract.name, tool]));
  const exchanges: Exchange[] = [];

  return ok({
    serverInfo,
    protocolVersion,
    tools: shaken.value.tools,
    instructions,
    async callTool(name, args, call) {
      const tool = expected.get(name);
      if (!tool) throw new Error(`callTool: ${name} is not a pinned tool of this session`);
      const result = await loggedCall(correlator, exchanges, { name, args }, { ...call, timeoutMs: call.timeoutMs ?? timeouts.callMs }, (reply) => interpretCall(tool, reply));
      return result.ok || result.class !== 'closed' ? result : explainClosed(result);
    },
    exchanges: () => exchanges.slice(),
    failure: () => correlator.failure,
    close: () => correlator.close(),
  });
}
