import { ok, type Outcome } from '../../contract/index.ts';
import type { Correlator, Reply } from '../wire/index.ts';
import type { CallOptions, Exchange } from './strict-session.ts';

/**
 * Sends one tools/call and logs its exchange twice: when sent (so a caller
 * that stops waiting, a pipeline timeout, can still name the request) and
 * when settled, with its size, `isError` and outcome. `interpret` reads the
 * reply under the session's profile (strict or host): one engine for both.
 */
export async function loggedCall<T>(
  correlator: Correlator<unknown>,
  exchanges: Exchange[],
  request: { readonly name: string; readonly args: unknown },
  call: CallOptions & { readonly timeoutMs: number },
  interpret: (reply: Reply) => Outcome<T>,
): Promise<Outcome<T & { readonly exchange: Exchange }>> {
  const sent = correlator.request('tools/call', { name: request.name, arguments: request.args }, { timeoutMs: call.timeoutMs, ...(call.signal ? { signal: call.signal } : {}) });
  const logged: Exchange = {
    method: 'tools/call',
    tool: request.name,
    jsonrpcId: sent.id,
    toolCallId: call.toolCallId,
    actionId: call.actionId,
    requestBytes: sent.requestBytes,
    responseBytes: 0,
    isError: false,
    outcome: 'pending',
  };
  const index = exchanges.push(logged) - 1;
  const reply = await sent.reply;
  const result = reply.ok ? interpret(reply.value) : reply;
  const exchange: Exchange = {
    ...logged,
    responseBytes: reply.ok ? reply.value.responseBytes : 0,
    isError: !result.ok && result.class === 'business' && result.kind === 'tool_error',
    outcome: result.ok ? 'ok' : `${result.class}/${result.kind}`,
  };
  exchanges[index] = exchange;
  return result.ok ? ok({ ...result.value, exchange }) : result;
}
