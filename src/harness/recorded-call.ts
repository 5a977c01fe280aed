import type { Binding } from '../binding/index.ts';
import type { CallArguments, CallRecord, ProtocolExchange } from '../pipeline/index.ts';

/**
 * A call as the run records it: the pipeline's record plus, for a call that
 * reached an MCP server, the exchange behind it — whether the call succeeded
 * or failed (isError, evidence mismatch, timeout) — and whether it ran one of
 * the host's own tools.
 */
export interface RecordedCall extends CallRecord {
  readonly protocol?: ProtocolExchange;
  /** Set when the call's pinned binding is a built-in's (implementation kind `host`). */
  readonly host?: true;
  /** Set when the call's pinned binding is an MCP server's, even when nothing reached it (a drifted tool, refused by the adapter before sending). */
  readonly mcp?: true;
}

/** How a call was carried out: over MCP, by a local handler, by the host's own tool, or not at all (stopped before the handler). */
export function viaOf(call: RecordedCall): 'mcp' | 'local' | 'host' | 'not_executed' {
  if (call.protocol) return 'mcp';
  if (!call.handlerEntered) return 'not_executed';
  if (call.host) return 'host';
  return call.mcp ? 'mcp' : 'local';
}

/**
 * Joins a pipeline record with the exchange behind its action: the session's
 * log first (it names failed and abandoned requests too), else what a
 * successful handler reported. `bindings` are the ones its request pinned:
 * the one the call resolved to says whether a built-in ran it.
 */
export function recordedCall(record: CallRecord, protocolOf?: (actionId: string) => ProtocolExchange | undefined, bindings: Readonly<Record<string, Binding>> = {}): RecordedCall {
  const protocol = protocolOf?.(record.actionId) ?? (record.outcome.ok ? record.outcome.value.protocol : undefined);
  const pinned = record.bindingId !== undefined && bindings[record.name]?.id === record.bindingId ? bindings[record.name]!.implementation.kind : undefined;
  return { ...record, ...(protocol ? { protocol } : {}), ...(pinned === 'host' ? { host: true as const } : {}), ...(pinned === 'mcp' ? { mcp: true as const } : {}) };
}

/** The input the handler received: after conversion and any hook rewrite. */
export function effectiveInput(args: CallArguments): unknown {
  return args.rewritten ?? args.converted ?? args.original;
}
