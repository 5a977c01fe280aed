import type { CallRecord, ProtocolExchange } from '../pipeline/index.ts';

/**
 * A call as the run records it: the pipeline's record plus, for a call that
 * reached an MCP server, the exchange behind it — whether the call succeeded
 * or failed (isError, evidence mismatch, timeout).
 */
export interface RecordedCall extends CallRecord {
  readonly protocol?: ProtocolExchange;
}

/** How a call was carried out: over MCP, by a local handler, or not at all (stopped before the handler). */
export function viaOf(call: RecordedCall): 'mcp' | 'local' | 'not_executed' {
  return call.protocol ? 'mcp' : call.handlerEntered ? 'local' : 'not_executed';
}

/**
 * Joins a pipeline record with the exchange behind its action: the session's
 * log first (it names failed and abandoned requests too), else what a
 * successful handler reported.
 */
export function recordedCall(record: CallRecord, protocolOf?: (actionId: string) => ProtocolExchange | undefined): RecordedCall {
  const protocol = protocolOf?.(record.actionId) ?? (record.outcome.ok ? record.outcome.value.protocol : undefined);
  return protocol ? { ...record, protocol } : record;
}
