import type { Binding } from '../binding/index.ts';
import type { Contract, Failure, Outcome } from '../contract/index.ts';
import type { ResultBlock } from './result-block.ts';

/** One tool call as the model proposed it. `arguments` is the parsed JSON value, untrusted. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** The model request that produced a call: its bytes are the evidence for preconditions. */
export interface ProducingRequest {
  readonly id: string;
  readonly payload: Uint8Array;
  readonly payloadSha256: string;
  /** The bindings this request exposed, by model-visible tool name. */
  readonly bindings: Readonly<Record<string, Binding>>;
  /**
   * The deferred tools this request's payload disclosed (`disclosedTools` of
   * its bytes: a ToolSearch answer in it referenced them); absent when it
   * deferred none. A call to a deferred tool not among them is refused.
   */
  readonly disclosedTools?: readonly string[];
  /** The method stage the host decided for this request (the task's `stageOf` over the calls before it); absent outside a run's loop. */
  readonly stage?: string;
}

/** A protocol exchange behind a call (MCP over stdio or Streamable HTTP): the correlated ids and what crossed the wire. */
export interface ProtocolExchange {
  readonly transport: 'mcp-stdio' | 'mcp-http';
  readonly server: string;
  readonly method: string;
  readonly jsonrpcId: number | string;
  readonly requestBytes: number;
  readonly responseBytes: number;
  readonly isError: boolean;
  /** Set when the call was made as an MCP task (2025-11-25): its receipt, each status, the one cancel, the result's exchange. */
  readonly task?: TaskTrace;
}

/**
 * A call made in the background, as the record keeps it (the contract's
 * `completion`: receipt ≠ completion). Every server string in it is cut at
 * `LIMITS.evidenceChars`; the taskId was checked against `taskIdBytes`.
 */
export interface TaskTrace {
  /** The handle the receipt named; null when no CreateTaskResult came (refused, unanswered, malformed). */
  readonly taskId: string | null;
  /** The receipt: the server's first statement of the task, and when it arrived (ms after the tools/call was sent). */
  readonly receipt: { readonly status: string; readonly createdAt: string; readonly ttl: number | null; readonly pollInterval?: number; readonly acceptedAt: string; readonly ms: number } | null;
  /** Each status as first seen (the receipt's first): the server's version of it (`lastUpdatedAt`), our time. */
  readonly transitions: readonly { readonly status: string; readonly lastUpdatedAt: string; readonly statusMessage?: string; readonly at: string; readonly ms: number }[];
  /** `tasks/get` requests sent. */
  readonly polls: number;
  /** The one `tasks/cancel` (at the deadline or on the signal) and what came back; cancelled proves nothing about the work. */
  readonly cancel: { readonly at: string; readonly ms: number; readonly answer: { readonly status: string } | { readonly error: { readonly code: number; readonly message: string } } | { readonly failure: string } } | null;
  /** The `tasks/result` exchange, once asked: its id, the bytes of its answer, and whether the answer named its task. */
  readonly result: { readonly jsonrpcId: number | string; readonly responseBytes: number; readonly related: boolean } | null;
}

/** What a handler returns on success. */
export interface ToolOutput {
  /**
   * Structured result. The pipeline's result_validate stage checks it against
   * the pinned contract's result schema before the model sees anything.
   */
  readonly data: unknown;
  /**
   * The blocks the model sees, in order (before output limits): text today.
   * result_validate refuses content that is not at least one block, each exactly a `ResultBlock`.
   */
  readonly content: readonly ResultBlock[];
  /** What this result proves: "bytes observed now" is not "object created". */
  readonly evidence: string;
  readonly objectVersion?: string;
  readonly protocol?: ProtocolExchange;
}

/** Everything a handler or tool-specific check may see. No globals. */
export interface CallContext {
  readonly runDir: string;
  readonly actionId: string;
  readonly toolCallId: string;
  readonly request: ProducingRequest;
  readonly signal: AbortSignal;
}

/**
 * Attributes of a runtime tool (seed 002's runtime tool object). caplab reads
 * readOnly (default permission), concurrencySafe (batching), fromMcp (the
 * class of a result_validate failure), references (who may return
 * tool_reference blocks), deferred (its definition is sent with
 * `defer_loading` and it may be called only once a ToolSearch answer
 * disclosed it), maxResultBytes and timeoutMs; needsInteraction is carried
 * for library users and read by nothing in caplab (it has no prompt). The
 * harness sets `deferred` from the run's defer rules, over what a provider gave.
 */
export interface ToolAttributes {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly concurrencySafe: boolean;
  readonly needsInteraction: boolean;
  readonly deferred: boolean;
  readonly fromMcp: boolean;
  /** Its results may hold tool_reference blocks: only a host tool (ToolSearch); result_validate refuses them from any other. */
  readonly references: boolean;
  readonly maxResultBytes: number;
  readonly timeoutMs: number;
}

/**
 * A runtime tool: contract + binding + attributes + handler. The handler is
 * the only place with side effects; caplab calls it only from the pipeline,
 * which runs the tool registered under a call's pinned binding id.
 */
export interface RuntimeTool {
  readonly contract: Contract;
  readonly binding: Binding;
  readonly attributes: ToolAttributes;
  /** Tool-specific validation and preconditions, after the schema, before hooks. */
  readonly check?: (input: unknown, context: CallContext) => Failure | undefined;
  readonly handler: (input: unknown, context: CallContext) => Promise<Outcome<ToolOutput>>;
}

/** Derives runtime attributes from a contract. */
export function attributesOf(contract: Contract, extra: Partial<ToolAttributes> = {}): ToolAttributes {
  return {
    readOnly: contract.readOnly,
    destructive: contract.destructive,
    concurrencySafe: contract.concurrencySafe,
    needsInteraction: !contract.readOnly,
    deferred: false,
    fromMcp: false,
    references: false,
    maxResultBytes: contract.limits.maxResultBytes,
    timeoutMs: contract.limits.timeoutMs,
    ...extra,
  };
}
