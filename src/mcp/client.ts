import type { ServerIdentity } from '../binding/index.ts';
import { fail, ok, type Failure, type Outcome } from '../contract/index.ts';
import { interpretCall, type CallResult, type ExpectedTool } from './call.ts';
import { spawnChild, type CloseReport, type Graces, type SpawnFn } from './child.ts';
import { Connection, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection.ts';
import { handshake } from './handshake.ts';
import { launchIdentity, type Launch } from './launch.ts';
import type { JsonRpcId } from './messages.ts';
import type { Implementation, ListedTool } from './results.ts';
import { refuse } from './basis.ts';

/** Every wait the client makes; injectable so tests stay fast. */
export interface Timeouts extends Graces {
  readonly handshakeMs: number;
  readonly callMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { handshakeMs: 10_000, callMs: 10_000, exitMs: 1_000, termMs: 1_000, killMs: 1_000 };

export interface ClientOptions {
  readonly launch: Launch;
  /** Exactly the tools the server must list, pinned to their contracts. */
  readonly tools: readonly ExpectedTool[];
  /** Names this server instance in bindings and records (derive it from the run id for reproducible runs). */
  readonly instanceId?: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
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
}

export interface CallOptions {
  readonly toolCallId: string;
  readonly actionId: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A handshaken session with one server under the fixed profile. */
export interface StrictClient {
  readonly identity: ServerIdentity;
  readonly serverInfo: Implementation;
  readonly tools: readonly ListedTool[];
  /** The server's free-form `instructions` from initialize (never shown to the model by this client). */
  readonly instructions: string | undefined;
  /** The connection's pid (also the process group id). */
  readonly pid: number;
  callTool(name: string, args: unknown, options: CallOptions): Promise<Outcome<CallResult & { readonly exchange: Exchange }>>;
  /** Every tools/call so far, in send order; each is logged when sent, so a call given up on is still there. */
  exchanges(): readonly Exchange[];
  /** The failure that ended the session, if any. */
  failure(): Failure | undefined;
  stderr(): string;
  close(): Promise<CloseReport>;
}

function withStderr(failure: Failure, stderr: string): Failure {
  const tail = stderr.trim();
  if (!tail) return failure;
  return { ...failure, issues: [...(failure.issues ?? []), `server stderr (tail): ${tail.slice(-2000)}`] };
}

/**
 * Spawns the server and runs the fixed-profile handshake. On any failure the
 * server's process group is stopped before the failure is returned.
 */
export async function openStrictClient(options: ClientOptions): Promise<Outcome<StrictClient>> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  const child = (options.spawn ?? spawnChild)(options.launch);
  if (!child.ok) return child;
  // A listed tool set that changes mid-session is no longer the one we pinned.
  const connection = new Connection(child.value, limits, timeouts, (method) =>
    method === 'notifications/tools/list_changed'
      ? refuse('protocol', 'tool_drift', 'server announced tools/list_changed; the pinned tool set no longer holds')
      : undefined,
  );
  const contracts = options.tools.map((tool) => tool.contract);
  const shaken = await handshake(connection, contracts, timeouts.handshakeMs);
  if (!shaken.ok) {
    await connection.close();
    // A server that dies before its first answer could not be started.
    const early = shaken.class === 'closed' && shaken.kind === 'connection_lost';
    const failure = early ? fail('spawn', 'exited_early', `server ended before completing the handshake: ${shaken.message}`) : shaken;
    return withStderr(failure, connection.stderr());
  }
  const { serverInfo, protocolVersion } = shaken.value.initialize;
  const identity: ServerIdentity = {
    name: serverInfo.name,
    version: serverInfo.version,
    protocolVersion,
    ...launchIdentity(options.launch),
    instanceId: options.instanceId ?? crypto.randomUUID(),
  };
  const expected = new Map(options.tools.map((tool) => [tool.contract.name, tool]));
  const exchanges: Exchange[] = [];

  return ok({
    identity,
    serverInfo,
    tools: shaken.value.tools,
    instructions: shaken.value.initialize.instructions,
    pid: connection.pid,
    async callTool(name, args, call) {
      const tool = expected.get(name);
      if (!tool) throw new Error(`callTool: ${name} is not a pinned tool of this session`);
      const sent = connection.send('tools/call', { name, arguments: args }, {
        timeoutMs: call.timeoutMs ?? timeouts.callMs,
        ...(call.signal ? { signal: call.signal } : {}),
      });
      const logged: Exchange = {
        method: 'tools/call',
        tool: name,
        jsonrpcId: sent.id,
        toolCallId: call.toolCallId,
        actionId: call.actionId,
        requestBytes: sent.requestBytes,
        responseBytes: 0,
        isError: false,
        outcome: 'pending',
      };
      // Logged before the answer: a caller that stops waiting (a pipeline timeout) can still name the request.
      const index = exchanges.push(logged) - 1;
      const reply = await sent.reply;
      const result = reply.ok ? interpretCall(tool, reply.value) : reply;
      const exchange: Exchange = {
        ...logged,
        responseBytes: reply.ok ? reply.value.responseBytes : 0,
        isError: !result.ok && result.class === 'business' && result.kind === 'tool_error',
        outcome: result.ok ? 'ok' : `${result.class}/${result.kind}`,
      };
      exchanges[index] = exchange;
      if (!result.ok) return result.class === 'closed' ? withStderr(result, connection.stderr()) : result;
      return ok({ ...result.value, exchange });
    },
    exchanges: () => exchanges.slice(),
    failure: () => connection.failure,
    stderr: () => connection.stderr(),
    close: () => connection.close(),
  });
}
