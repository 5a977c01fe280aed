import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

/**
 * `--defer-tool` as a user meets it: a name checked before any work (an
 * unknown one, or ToolSearch itself, exit 2), a notice when ToolSearch is
 * denied, `caplab tools` marking what a run would defer, and a run deferring
 * nothing writing the format and fields it wrote before W7.
 */

const SCENARIOS = join(import.meta.dir, '../../fixtures/scenarios');
type Event = Record<string, any> & { type: string };

async function caplab(args: readonly string[]) {
  const cwd = scratchDir('caplab-defer-');
  const io = testIo(cwd);
  const code = await cli([...args], io);
  return { code, out: io.out(), err: io.err(), cwd };
}

const events = (dir: string): Event[] => readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const formatOf = (dir: string): string => JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format;

test.each([
  ['demo', ['demo', '--transport', 'local']],
  ['demo over MCP', ['demo', '--transport', 'mcp']],
  ['run', ['run', '--scenario', join(SCENARIOS, 'deferred-search.json'), '--transport', 'local']],
  ['tools', ['tools']],
] as const)('%s: --defer-tool=nope is exit 2 (unknown_name), --defer-tool=ToolSearch exit 2 (not_deferrable), nothing run', async (_name, args) => {
  for (const [flag, kind] of [
    ['--defer-tool=nope', 'invalid_arguments/unknown_name'],
    ['--defer-tool=ToolSearch', 'invalid_arguments/not_deferrable'],
  ] as const) {
    const run = await caplab([...args, flag]);
    expect({ flag, code: run.code }).toEqual({ flag, code: 2 });
    expect(run.err).toContain(kind);
    expect(readdirSync(run.cwd)).toEqual([]);
  }
});

test('--deny-tool=ToolSearch with a deferred tool: a notice that nothing deferred can be disclosed, and the run goes on', async () => {
  const run = await caplab(['run', '--scenario', join(SCENARIOS, 'deferred-search.json'), '--transport', 'local', '--deny-tool=ToolSearch', '--out', 'run']);
  expect(run.err).toContain('ToolSearch is denied (--deny-tool=ToolSearch): no deferred tool can be disclosed, so none can be called');
  const dir = join(run.cwd, 'run');
  const calls = events(dir).filter((e) => e.type === 'call');
  expect(calls.map((c) => [c.name, `${c.outcome.class}/${c.outcome.kind}`])).toEqual([
    ['ToolSearch', 'permission_denied/flag'],
    ['read_source', 'precondition/tool_not_disclosed'],
    ['read_source', 'precondition/tool_not_disclosed'],
    ['create_card', expect.any(String)],
  ]);
  expect(run.code).toBe(1);
  expect((await caplab(['verify', dir])).code).toBe(0);
});

test('a run deferring nothing names the format it did before (4) and records no deferral field; its payloads carry no defer_loading and no ToolSearch', async () => {
  const run = await caplab(['demo', '--transport', 'local', '--out', 'run']);
  expect(run.code).toBe(0);
  const dir = join(run.cwd, 'run');
  expect(formatOf(dir)).toBe('caplab.ledger/4');
  const all = events(dir);
  expect('defer' in all[0]!).toBe(false);
  for (const request of all.filter((e) => e.type === 'request')) {
    expect(['disclosed_tools' in request, 'visible_tool_bytes' in request]).toEqual([false, false]);
    expect(request.tools.some((t: object) => 'deferred' in t)).toBe(false);
    const payload = readFileSync(join(dir, request.payload.path), 'utf8');
    expect(payload).not.toContain('defer_loading');
    expect(JSON.parse(payload).tools.map((t: { name: string }) => t.name)).toEqual(['read_source', 'create_card']);
  }
  expect(all.at(-1)!['format']).toBe('caplab.ledger/4');
});

test.each(['local', 'mcp'] as const)('run --defer-tool=read_source over %s: format 8, run_start defer, deferred marked in tools and payload, and it verifies', async (transport) => {
  const run = await caplab(['run', '--scenario', join(SCENARIOS, 'deferred-select.json'), '--transport', transport, '--out', 'run', '--defer-tool=read_source']);
  expect(run.code).toBe(0);
  const dir = join(run.cwd, 'run');
  expect(formatOf(dir)).toBe('caplab.ledger/8');
  const all = events(dir);
  expect(all[0]!['defer']).toEqual(['read_source', 'read_source']);
  const requests = all.filter((e) => e.type === 'request');
  expect(requests.map((r) => r.disclosed_tools)).toEqual([[], ['read_source'], ['read_source'], ['read_source']]);
  for (const request of requests) {
    expect(request.tools.map((t: { name: string; deferred?: true }) => [t.name, t.deferred ?? false])).toEqual([
      ['read_source', true],
      ['create_card', false],
      ['ToolSearch', false],
    ]);
    const payload = JSON.parse(readFileSync(join(dir, request.payload.path), 'utf8'));
    expect(payload.tools.map((t: { name: string; defer_loading?: boolean }) => [t.name, t.defer_loading])).toEqual([
      ['read_source', true],
      ['create_card', undefined],
      ['ToolSearch', undefined],
    ]);
  }
  const reads = all.filter((e) => e.type === 'call' && e.name === 'read_source');
  expect(reads.map((r) => [r.request_id, r.handler_entered, r.protocol?.method ?? null])).toEqual([
    ['req-02', true, transport === 'mcp' ? 'tools/call' : null],
    ['req-02', true, transport === 'mcp' ? 'tools/call' : null],
  ]);
  expect((await caplab(['verify', dir])).code).toBe(0);
});

test('caplab tools --defer-tool=read_source marks it deferred (text and --json) and lists ToolSearch, not deferred', async () => {
  const text = await caplab(['tools', '--defer-tool=read_source']);
  expect(text.code).toBe(0);
  expect(text.out).toMatch(/✓ read_source {2}binding [0-9a-f]+ {2}deferred\n {4}deferred {4}sent with defer_loading/);
  expect(text.out).toMatch(/✓ ToolSearch {2}binding [0-9a-f]+\n/);
  expect(text.out).toMatch(/✓ create_card {2}binding [0-9a-f]+\n/);
  const json = await caplab(['tools', '--defer-tool=read_source', '--json']);
  const tools = JSON.parse(json.out).tools as { tool: string; deferred?: boolean }[];
  expect(tools.filter((t) => t.deferred).map((t) => t.tool)).toEqual(['read_source']);
  expect(tools.map((t) => t.tool)).toContain('ToolSearch');
  const plain = await caplab(['tools', '--json']);
  const listed = JSON.parse(plain.out).tools as { tool: string; deferred?: boolean }[];
  expect([listed.some((t) => t.tool === 'ToolSearch'), listed.some((t) => 'deferred' in t)]).toEqual([false, false]);
  expect(existsSync(join(plain.cwd, 'caplab-runs'))).toBe(false);
});
