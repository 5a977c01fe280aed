import { expect, test } from 'bun:test';
import { fail, ok } from '../contract/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { openProviders, openRecorded } from './open-tools.ts';
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

test('every set\'s configured servers join in provider order, starts and ends alike; a failure names those that had started, read after their close', async () => {
  const log: string[] = [];
  const start = (key: string) => ({ key, status: 'started' as const, tools: [], notices: [] });
  const servers = (key: string) => ({ start: [start(key)], end: () => [{ key, close: log.includes(`close ${key}`) ? 'closed' : null, list_changed: { seen: 0, relists: [] }, stderr: '' }] });
  const joined = await openProviders([provider(log, 'a', { servers: servers('a') }), provider(log, 'b', {}), provider(log, 'c', { servers: servers('c') })], { runId: 'r' });
  if (!joined.ok) throw new Error(joined.message);
  expect(joined.value.servers?.start.map((s) => s.key)).toEqual(['a', 'c']);
  await joined.value.close();
  expect(joined.value.servers?.end().map((e) => [e.key, e.close])).toEqual([['a', 'closed'], ['c', 'closed']]);
  // No set with a server started: no servers at all.
  const none = await openProviders([provider(log, 'd', { servers: { start: [], end: () => [] } })], { runId: 'r' });
  expect(none.ok && 'servers' in none.value).toBe(false);
  const failed = await openRecorded([provider(log, 'e', { servers: servers('e') }), provider(log, 'x', 'fail')], { runId: 'r' });
  if (failed.ok) throw new Error('opened');
  expect([failed.failure.kind, failed.servers?.start.map((s) => s.key), failed.servers?.end().map((e) => e.close)]).toEqual(['spawn_failed', ['e'], ['closed']]);
  const plain = await openRecorded([provider(log, 'y', 'fail')], { runId: 'r' });
  expect(plain.ok || 'servers' in plain).toBe(false);
});
