/**
 * The strict client's refusal of a listing it did not expect names at most
 * 20 of the names and counts the rest: 10,001 listed tools give a message of
 * bounded size, not one that lists them all.
 */
import { expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import { memoryTransportPair } from '../wire/memory-transport.ts';
import { LISTED_NAMES } from './name-list.ts';
import { startStrictSession } from './strict-session.ts';
import { MISBEHAVE_TOOL } from '../../excerpt/testing/misbehave-server.ts';

test('10,001 unexpected tools: unexpected_tools names 20 and counts the other 9,981', async () => {
  const names = Array.from({ length: 10_001 }, (_, i) => `tool_${i}`);
  const [transport, peer] = memoryTransportPair();
  peer.onmessage = (message) => {
    const { id, method } = message;
    if (method === 'initialize') peer.send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'many', version: '1' } } });
    if (method === 'tools/list') peer.send({ jsonrpc: '2.0', id, result: { tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) } });
  };
  const session = await startStrictSession(transport, { tools: [MISBEHAVE_TOOL], timeouts: { handshakeMs: 5_000, callMs: 5_000 } });
  expect(session).toMatchObject({ ok: false, class: 'protocol', kind: 'unexpected_tools' });
  if (session.ok) return;
  expect(session.message).toContain(`tools/list gave 10001 [${names.slice(0, LISTED_NAMES).join(', ')} (+9981 more)]`);
  expect(session.message.length).toBeLessThan(2 * LISTED_NAMES * (LIMITS.evidenceChars + 2) + 200);
});
