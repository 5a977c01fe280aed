import { expect, test } from 'bun:test';
import { fail, ok } from '../contract/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { openProviders } from './open-tools.ts';
import type { ToolProvider, ToolSet } from './tools.ts';

const named = (name: string) => ({ binding: { tool: name } }) as unknown as RuntimeTool;

/** A provider that opens `set` (or fails or throws) and logs its opens and closes. */
function provider(log: string[], name: string, set: Partial<ToolSet> | 'fail' | 'throw'): ToolProvider {
  return {
    offers: [],
    open: async () => {
      log.push(`open ${name}`);
      if (set === 'throw') throw new Error(`${name} broke`);
      if (set === 'fail') return fail('spawn', 'spawn_failed', `${name} did not start`);
      return ok({ transport: 'local', tools: [named(name)], close: async () => (log.push(`close ${name}`), undefined), ...set });
    },
  };
}

test('providers open in order into one set: tools in order, mcp if any is, the server and exchanges of the one that has them', async () => {
  const log: string[] = [];
  const exchange = { transport: 'mcp-stdio', server: 's', method: 'tools/call', jsonrpcId: 1, requestBytes: 1, responseBytes: 1, isError: false } as const;
  const server = { serverInfo: { name: 's', version: '1' }, protocolVersion: 'p', launch: [], cwd: '/', envNames: [], instanceId: 'i', gaps: [] };
  const mcp = provider(log, 'b', { transport: 'mcp', server, protocolOf: (id) => (id === 'act-01' ? exchange : undefined), close: async () => (log.push('close b'), { report: 'b' }) });
  const joined = await openProviders([provider(log, 'a', {}), mcp, provider(log, 'c', {})], { runId: 'r' });
  if (!joined.ok) throw new Error(joined.message);
  expect([joined.value.tools.map((t) => t.binding.tool), joined.value.transport, joined.value.server, joined.value.protocolOf?.('act-01'), joined.value.protocolOf?.('act-02')]).toEqual([['a', 'b', 'c'], 'mcp', server, exchange, undefined]);
  // Closed last opened first; the one report there is, as it is.
  expect(await joined.value.close()).toEqual({ report: 'b' });
  expect(log).toEqual(['open a', 'open b', 'open c', 'close c', 'close b', 'close a']);
});

test('a provider that fails or throws closes those opened before it, and opens none after it', async () => {
  for (const how of ['fail', 'throw'] as const) {
    const log: string[] = [];
    const opening = openProviders([provider(log, 'a', {}), provider(log, 'b', {}), provider(log, 'x', how), provider(log, 'c', {})], { runId: 'r' });
    if (how === 'throw') await expect(opening).rejects.toThrow('x broke');
    else expect(await opening).toMatchObject({ ok: false, kind: 'spawn_failed' });
    expect(log).toEqual(['open a', 'open b', 'open x', 'close b', 'close a']);
  }
});

test('every set is closed even when one close throws; that error then propagates', async () => {
  const log: string[] = [];
  const broken = provider(log, 'b', { close: async () => (log.push('close b'), Promise.reject(new Error('close broke'))) });
  const joined = await openProviders([provider(log, 'a', {}), broken, provider(log, 'c', {})], { runId: 'r' });
  if (!joined.ok) throw new Error(joined.message);
  await expect(joined.value.close()).rejects.toThrow('close broke');
  expect(log.slice(3)).toEqual(['close c', 'close b', 'close a']);
});
