/**
 * The client's layers as a library user reaches them: caplab's code only
 * through package.json `exports` (`caplab/mcp`, `caplab/contract`), an
 * in-process server on the in-memory pair, the strict session on top. No process.
 */
import { expect, test } from 'bun:test';
import * as v from 'valibot';
import { exportContract } from 'caplab/contract';
import { Correlator, memoryTransportPair, PROTOCOL_VERSION, startStrictSession, type MemoryPeer } from 'caplab/mcp';
import { echoContractWith } from '../pipeline/testing/echo-contract.ts';

// Test data, not library code: the pipeline tests' echo contract.
const echo = echoContractWith(v.strictObject({ text: v.string() }));

/** A minimal MCP server for `echo`, answering on the peer end of the pair. */
function serveEcho(server: MemoryPeer): void {
  const { inputSchema, resultSchema } = exportContract(echo);
  server.onmessage = (message) => {
    const { id, method, params } = message as { id?: number; method: string; params: Record<string, unknown> };
    if (id === undefined) return;
    const answers: Record<string, () => unknown> = {
      initialize: () => ({ protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: 'echo-server', version: '1.0.0' } }),
      'tools/list': () => ({ tools: [{ name: 'echo', inputSchema, outputSchema: resultSchema }] }),
      'tools/call': () => {
        const structured = { echoed: (params['arguments'] as { text: string }).text };
        return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
      },
    };
    server.send({ jsonrpc: '2.0', id, result: answers[method]?.() ?? {} });
  };
}

test('an in-process server through caplab/mcp: the strict session over the in-memory transport', async () => {
  const [transport, server] = memoryTransportPair();
  serveEcho(server);
  const session = await startStrictSession(transport, { tools: [{ contract: echo }], timeouts: { handshakeMs: 1_000, callMs: 1_000 } });
  if (!session.ok) throw new Error(session.message);
  expect(session.value.serverInfo.name).toBe('echo-server');
  const called = await session.value.callTool('echo', { text: 'hi' }, { toolCallId: 'toolu_1', actionId: 'act-1' });
  expect(called.ok && called.value.structured).toEqual({ echoed: 'hi' });
  expect(session.value.exchanges()).toEqual([expect.objectContaining({ tool: 'echo', jsonrpcId: 3, outcome: 'ok' })]);
  await session.value.close();
  expect(server.closed).toBe(true);
});

test('the correlator alone over the same pair: raw JSON-RPC with ids and deadlines', async () => {
  const [transport, server] = memoryTransportPair();
  server.onmessage = (message) => server.send({ jsonrpc: '2.0', id: message['id'], result: { method: message['method'] } });
  const correlator = new Correlator(transport);
  const reply = await correlator.request('anything/at_all', {}, { timeoutMs: 1_000 }).reply;
  expect(reply.ok && reply.value.answer).toEqual({ result: { method: 'anything/at_all' } });
  await correlator.close();
});
