/**
 * The SDK v2 (2.4.0, test-only devDependencies; nothing fetched at test
 * time) against caplab, in the 2026-07-28 era: its client, pinned to the
 * revision and in `auto`, calls `read_source` on `caplab serve` with no
 * `initialize` on the wire.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sourceById } from '../excerpt/snapshot.ts';
import { fixtureSnapshot } from '../excerpt/sources.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { probeJson } from './testing/probe-json.ts';

const ROOT = join(import.meta.dir, '../..');
const ENV = { PATH: '/usr/bin:/bin' };

/** Pids whose command line mentions `needle` (a server left behind would show here). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of new Bun.Glob('[0-9]*').scanSync({ cwd: '/proc', onlyFiles: false })) {
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle) && isRunning(Number(entry))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function noneLeft(needle: string): Promise<number[]> {
  const deadline = performance.now() + 5_000;
  let left = processesMentioning(needle);
  while (left.length > 0 && performance.now() < deadline) {
    await Bun.sleep(50);
    left = processesMentioning(needle);
  }
  return left;
}

type Negotiation = { mode: 'auto' } | { mode: { pin: '2026-07-28' } };

async function withServe<T>(versionNegotiation: Negotiation, use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'src/main.ts'), 'serve'], env: ENV, cwd: ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'caplab-v2-peer-test', version: '0.0.0' }, { versionNegotiation });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('the SDK v2 client against caplab serve, 2026-07-28', () => {
  test.each<[string, Negotiation]>([
    ['pinned to 2026-07-28', { mode: { pin: '2026-07-28' } }],
    ['auto', { mode: 'auto' }],
  ])('%s: negotiates the modern era, lists and calls read_source', async (_name, negotiation) => {
    const seen = await withServe(negotiation, async (client) => ({
      version: client.getNegotiatedProtocolVersion(),
      server: client.getServerVersion(),
      tools: (await client.listTools()).tools.map((tool) => tool.name),
      result: await client.callTool({ name: 'read_source', arguments: { source_id: 'alpha' } }),
    }));
    expect(seen.version).toBe('2026-07-28');
    expect(seen.server).toMatchObject({ name: 'caplab-fixture', version: '1.0.0' });
    // count_words is 2025-11-25's fixture: the modern era lists it too (answered synchronously there).
    expect(seen.tools).toEqual(['read_source', 'count_words']);
    expect(seen.result.isError).toBeFalsy();
    expect(seen.result.structuredContent).toMatchObject({ source_id: 'alpha', text: sourceById(fixtureSnapshot(), 'alpha')!.text });
  });
});

const V2_SERVER = join(ROOT, 'test/peers/v2-server.ts');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');


describe('caplab probe --protocol against real peers', () => {
  test.each([
    ['the SDK v2 server, dual-era', ['--protocol', 'auto', '--', process.execPath, V2_SERVER]],
    ['the SDK v2 server, legacy rejected', ['--protocol', 'auto', '--', process.execPath, V2_SERVER, '--legacy', 'reject']],
    ['the SDK v2 server, pinned', ['--protocol', '2026-07-28', '--', process.execPath, V2_SERVER]],
  ])('%s: 2026-07-28, greet called, exit 0, no process left', async (_name, args) => {
    const { code, report } = await probeJson(['--call', 'greet', '--args', '{"name":"x"}', ...args]);
    expect(report.failure).toBeUndefined();
    expect(report.protocolVersion).toBe('2026-07-28');
    expect(report.serverInfo).toMatchObject({ name: 'caplab-v2-peer' });
    expect(report.negotiation).toMatchObject({ era: 'modern', signal: 'server/discover answered supportedVersions ["2026-07-28"]' });
    expect(report.calls).toMatchObject([{ tool: 'greet', outcome: 'result', text: 'Hello, x!' }]);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(await noneLeft(V2_SERVER)).toEqual([]);
  });

  test('caplab serve: 2026-07-28 in auto, read_source called', async () => {
    const { code, report } = await probeJson(['--protocol', 'auto', '--call', 'read_source', '--args', '{"source_id":"alpha"}', '--', process.execPath, join(ROOT, 'src/main.ts'), 'serve']);
    expect(report).toMatchObject({ protocolVersion: '2026-07-28', serverInfo: { name: 'caplab-fixture' }, negotiation: { era: 'modern' }, findings: [] });
    expect(report.calls).toMatchObject([{ tool: 'read_source', outcome: 'result', outputSchema: 'valid' }]);
    expect(code).toBe(0);
  });

  test('server-everything (SDK 1.x): -32601 to discover, then initialize on the same process: 2025-11-25', async () => {
    const { code, report } = await probeJson(['--protocol', 'auto', '--call', 'echo', '--args', '{"message":"hi"}', '--', process.execPath, EVERYTHING, 'stdio']);
    expect(report.failure).toBeUndefined();
    expect(report.protocolVersion).toBe('2025-11-25');
    expect(report.negotiation).toEqual({ mode: 'auto', era: 'legacy', signal: 'server/discover refused with -32601 ("Method not found")' });
    expect(report.calls).toMatchObject([{ tool: 'echo', outcome: 'result' }]);
    expect(code).toBe(0);
    expect(await noneLeft(EVERYTHING)).toEqual([]);
  });

  test('a server that exits on anything before initialize: one restart, initialize, the signal named', async () => {
    // caplab serve behind a gate that exits at a first line naming server/discover (as some 1.x servers do on any early request).
    const gate = join(scratchDir('caplab-exit-at-discover-'), 'gate.ts');
    writeFileSync(gate, EXIT_AT_DISCOVER.replace('MAIN', JSON.stringify(join(ROOT, 'src/main.ts'))));
    {
      const { code, report } = await probeJson(['--protocol', 'auto', '--', process.execPath, gate]);
      expect(report.failure).toBeUndefined();
      // auto's initialize offers 2025-11-25, which caplab serve speaks.
      expect(report.protocolVersion).toBe('2025-11-25');
      expect(report.negotiation).toMatchObject({ mode: 'auto', era: 'legacy' });
      expect(report.negotiation.signal).toStartWith('the server closed the connection after server/discover');
      expect(report.negotiation.signal).toEndWith('; started once more for initialize');
      expect(code).toBe(0);
      expect(await noneLeft(gate)).toEqual([]);
    }
  });

  test('--protocol auto or 2026-07-28 with --url is a usage error; an unknown revision too', async () => {
    for (const args of [['--protocol', 'auto', '--url', 'http://127.0.0.1:9/mcp'], ['--protocol', '2026-07-28', '--url', 'http://127.0.0.1:9/mcp'], ['--protocol', '2099-01-01', '--', 'x']]) {
      const io = testIo(ROOT, { PATH: ENV.PATH });
      expect(await cli(['probe', ...args], io)).toBe(2);
      expect(io.err()).toContain('--protocol');
    }
  });
});

/** The gate: exits at a first line naming server/discover, else runs caplab serve with that line and the rest. */
const EXIT_AT_DISCOVER = `
const reader = Bun.stdin.stream().getReader();
let buffered = new Uint8Array(0);
for (;;) {
  const { value, done } = await reader.read();
  if (done) process.exit(0);
  buffered = new Uint8Array([...buffered, ...value]);
  if (buffered.includes(10)) break;
}
if (new TextDecoder().decode(buffered).includes('server/discover')) process.exit(0);
const child = Bun.spawn([process.execPath, MAIN, 'serve'], { stdin: 'pipe', stdout: 'inherit', stderr: 'inherit' });
child.stdin.write(buffered);
for (;;) {
  const { value, done } = await reader.read();
  if (done) break;
  child.stdin.write(value);
}
child.stdin.end();
process.exit(await child.exited);
`;
