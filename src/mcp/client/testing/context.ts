/**
 * TEST ONLY — a call context as the pipeline would pass it to a handler.
 */
import type { CallContext } from '../../../pipeline/index.ts';

export function callContext(toolCallId: string, actionId: string, signal: AbortSignal = new AbortController().signal): CallContext {
  return {
    runDir: '/nonexistent-run-dir',
    actionId,
    toolCallId,
    request: { id: 'req-1', payload: new Uint8Array(), payloadSha256: '', bindings: {} },
    signal,
  };
}
