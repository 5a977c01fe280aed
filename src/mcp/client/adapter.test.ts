import { expect, test } from 'bun:test';
import { MCP_GAPS, MCP_HTTP_GAPS, mcpGapsOf, protocolExchange } from './adapter.ts';
import type { Exchange, StrictClient } from './client.ts';

test('a call\'s exchange names its server by the key the host gave it, never by the serverInfo.name it reported', () => {
  const identity = { key: 'b', name: 'same-name', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['srv'], cwd: '/', envNames: [] }, instanceId: 'i' } as const;
  const client: Pick<StrictClient, 'identity'> = { identity };
  const exchange: Exchange = { method: 'tools/call', tool: 'echo', jsonrpcId: 3, toolCallId: 'toolu_1', actionId: 'act-01', requestBytes: 10, responseBytes: 20, isError: false, outcome: 'ok' };
  expect(protocolExchange(client, exchange)).toEqual({ transport: 'mcp-stdio', server: 'b', method: 'tools/call', jsonrpcId: 3, requestBytes: 10, responseBytes: 20, isError: false });
});

test('an exchange with a server reached over HTTP is mcp-http; its gaps are the HTTP ones, a stdio server\'s stay MCP_GAPS', () => {
  const identity = { key: 'h', name: 'h', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'http', url: 'http://127.0.0.1:9/mcp', headerNames: [] }, instanceId: 'i' } as const;
  const exchange: Exchange = { method: 'tools/call', tool: 'echo', jsonrpcId: 4, toolCallId: 'toolu_2', actionId: 'act-02', requestBytes: 1, responseBytes: 2, isError: true, outcome: 'error' };
  expect(protocolExchange({ identity }, exchange)).toEqual({ transport: 'mcp-http', server: 'h', method: 'tools/call', jsonrpcId: 4, requestBytes: 1, responseBytes: 2, isError: true });
  expect(mcpGapsOf(identity.endpoint)).toBe(MCP_HTTP_GAPS);
  expect(mcpGapsOf({ kind: 'stdio' })).toBe(MCP_GAPS);
  expect(MCP_HTTP_GAPS.join('\n')).toContain('effects after a dropped connection unknown');
  expect(MCP_HTTP_GAPS.join('\n')).toContain('host name resolved at connect time');
  expect(MCP_HTTP_GAPS.join('\n')).not.toContain('setsid');
});
