import { expect, test } from 'bun:test';
import { protocolExchange } from './adapter.ts';
import type { Exchange, StrictClient } from './client.ts';

test('a call\'s exchange names its server by the key the host gave it, never by the serverInfo.name it reported', () => {
  const identity = { key: 'b', name: 'same-name', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['srv'], cwd: '/', envNames: [] }, instanceId: 'i' } as const;
  const client: Pick<StrictClient, 'identity'> = { identity };
  const exchange: Exchange = { method: 'tools/call', tool: 'echo', jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-01', requestBytes: 10, responseBytes: 20, isError: false, outcome: 'ok' };
  expect(protocolExchange(client, exchange)).toEqual({ transport: 'mcp-stdio', server: 'b', method: 'tools/call', jsonrpcId: 3, requestBytes: 10, responseBytes: 20, isError: false });
});
