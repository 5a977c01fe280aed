/**
 * Real MCP peers, from the lockfile (test-only devDependencies; nothing is
 * fetched at test time): caplab probe against @modelcontextprotocol/
 * server-everything; the MCP Inspector's CLI and the SDK's own stdio client
 * against `caplab serve`.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { exportContract } from '../contract/index.ts';
import { readSourceContract } from '../excerpt/contracts.ts';
import { sourceById } from '../excerpt/snapshot.ts';
import { fixtureSnapshot } from '../excerpt/sources.ts';
import { isRunning } from '../mcp/wire/testing/processes.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const ROOT = join(import.meta.dir, '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ENV = { PATH: '/usr/bin:/bin' };

/** Pids whose command line mentions `needle` (a server left behind would show here). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of new Bun.Glob('[0-9]*').scanSync({ cwd: '/proc', onlyFiles: false })) {
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(needle) && isRunning(Number(entry))) pids.push(Number(entry));
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

describe('caplab probe against server-everything', () => {
  test('lists every tool (as many as the SDK client lists), validates echo and get-structured-content, leaves no process', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: ENV, stderr: 'ignore' });
    const client = new Client({ name: 'caplab-peer-test', version: '0.0.0' });
    await client.connect(transport);
    const sdkTools = (await client.listTools()).tools.map((t) => t.name);
    await client.close();

    const io = testIo(ROOT, { PATH: ENV.PATH });
    const args = ['--call', 'echo', '--args', '{"message":"hi"}', '--call', 'get-structured-content', '--args', '{"location":"New York"}'];
    const code = await cli(['probe', '--json', ...args, '--', process.execPath, EVERYTHING, 'stdio'], io);
    const report = JSON.parse(io.out());
    expect(report.serverInfo.name).toBe('mcp-servers/everything');
    expect(report.tools.map((t: { name: string }) => t.name).sort()).toEqual([...sdkTools].sort());
    expect(sdkTools.length).toBeGreaterThan(5);
    expect(report.calls).toEqual([
      expect.objectContaining({ tool: 'echo', outcome: 'result', contentTypes: ['text'], findings: [] }),
      expect.objectContaining({ tool: 'get-structured-content', outcome: 'result', outputSchema: 'valid', structuredContent: true, findings: [] }),
    ]);
    expect([code, report.exit, report.findings, report.failure]).toEqual([0, 0, [], undefined]);
    expect(report.close.survivors).toEqual([]);
    expect(await noneLeft(EVERYTHING)).toEqual([]);
  });
});

const INSPECTOR_CLI = join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');

/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, the CLI of
 * @modelcontextprotocol/inspector on its own: the whole inspector cannot be
 * installed with `npm ci` from this registry, its vite names an optional
 * package the registry lacks) against `caplab serve` from source. It reads
 * its own package.json through a cwd-relative existence check, so it runs
 * from a folder whose parent holds a package.json (src/).
 */
async function inspector(...args: string[]): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn([process.execPath, INSPECTOR_CLI, process.execPath, join(ROOT, 'src/main.ts'), 'serve', ...args], {
    cwd: join(ROOT, 'src'),
    env: ENV,
    stdout: 'pipe',
    stderr: 'ignore',
    stdin: 'ignore',
  });
  const out = await new Response(proc.stdout).text();
  return { code: await proc.exited, out };
}

describe('mcp-inspector CLI against caplab serve', () => {
  const pinned = exportContract(readSourceContract);

  test('tools/list shows read_source with both schemas', async () => {
    const { code, out } = await inspector('--method', 'tools/list');
    expect(code).toBe(0);
    const tools = JSON.parse(out).tools;
    // The inspector's SDK offers 2025-11-25, so it sees that revision's fixture too.
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['read_source', 'count_words']);
    expect(tools[0].inputSchema).toEqual(pinned.inputSchema);
    expect(tools[0].outputSchema).toEqual(pinned.resultSchema);
  });

  test('tools/call read_source source_id=alpha matches the snapshot', async () => {
    const { code, out } = await inspector('--method', 'tools/call', '--tool-name', 'read_source', '--tool-arg', 'source_id=alpha');
    expect(code).toBe(0);
    const result = JSON.parse(out);
    const alpha = sourceById(fixtureSnapshot(), 'alpha')!;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source_id: 'alpha', text: alpha.text, snapshot: fixtureSnapshot().id });
    expect(result.structuredContent.sha256).toBe(new Bun.CryptoHasher('sha256').update(alpha.text).digest('hex'));
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  test('invalid arguments come back as a tool error naming caplab class and kind', async () => {
    const { out } = await inspector('--method', 'tools/call', '--tool-name', 'read_source', '--tool-arg', 'source_id=gamma');
    const result = JSON.parse(out);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toStartWith('invalid_arguments/unknown_source:');
    expect(await noneLeft(join(ROOT, 'src/main.ts'))).toEqual([]);
  });
});

/** The official SDK's stdio client against `caplab serve` (from source), the library the inspector is built on. */
async function withServe<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'src/main.ts'), 'serve'], env: ENV, cwd: ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'caplab-peer-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe('the SDK client against caplab serve', () => {
  const pinned = exportContract(readSourceContract);

  test('tools/list shows read_source with both schemas', async () => {
    const tools = await withServe(async (client) => (await client.listTools()).tools);
    // The SDK offers 2025-11-25: count_words (taskSupport optional) is listed after read_source.
    expect(tools.map((t) => [t.name, t.execution?.taskSupport])).toEqual([['read_source', undefined], ['count_words', 'optional']]);
    expect(tools[0]!.inputSchema).toEqual(pinned.inputSchema as typeof tools[0]['inputSchema']);
    expect(tools[0]!.outputSchema).toEqual(pinned.resultSchema as NonNullable<typeof tools[0]['outputSchema']>);
  });

  test('tools/call read_source source_id=alpha matches the snapshot', async () => {
    const result = await withServe((client) => client.callTool({ name: 'read_source', arguments: { source_id: 'alpha' } }));
    const alpha = sourceById(fixtureSnapshot(), 'alpha')!;
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured).toMatchObject({ source_id: 'alpha', text: alpha.text, snapshot: fixtureSnapshot().id });
    expect(structured['sha256']).toBe(new Bun.CryptoHasher('sha256').update(alpha.text).digest('hex'));
    // A client that ignores structured results still gets all of it: the one text block is its serialization.
    expect((result.content as { type: string; text: string }[]).map((block) => [block.type, JSON.parse(block.text)])).toEqual([['text', structured]]);
  });

  test('invalid arguments come back as a tool error naming caplab class and kind', async () => {
    const result = await withServe((client) => client.callTool({ name: 'read_source', arguments: { source_id: 'gamma' } }));
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toStartWith('invalid_arguments/unknown_source:');
    expect(await noneLeft(join(ROOT, 'src/main.ts'))).toEqual([]);
  });
});
