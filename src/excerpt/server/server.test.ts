import { describe, expect, test } from 'bun:test';
import { PassThrough } from 'node:stream';
import { LIMITS } from '../../contract/index.ts';
import { fixtureSnapshot } from '../sources.ts';
import { openFixtureSession } from '../fixture-session.ts';
import { READ_SOURCE_EXPECTED } from '../mcp-read-source.ts';
import { serve } from './index.ts';
import { openStrictClient } from '../../mcp/client/client.ts';
import { Correlator } from '../../mcp/wire/correlator.ts';
import { handshake } from '../../mcp/client/handshake.ts';
import { DEV_SERVE_ENTRY } from '../../cli/tasks.ts';
import { fixtureLaunch as launchWith, type FixtureLaunchOptions } from '../fixture-launch.ts';
import { LineSplitter } from '../../mcp/wire/framing.ts';
import { decodeLine } from '../../mcp/wire/messages.ts';
import { openStdioTransport } from '../../mcp/wire/stdio-transport.ts';
import { callContext } from '../../mcp/client/testing/context.ts';
import { FAST } from '../../mcp/client/testing/timeouts.ts';
import { isRunning } from '../../mcp/wire/testing/processes.ts';

/** The fixture's launch as the CLI makes it: the program's own `serve` entry in development. */
const fixtureLaunch = (options: Partial<FixtureLaunchOptions> = {}) => launchWith({ devEntry: DEV_SERVE_ENTRY, ...options });

const snapshot = fixtureSnapshot();

describe('the real fixture server (bun src/main.ts serve) through the strict client', () => {
  test('handshake, list, and read_source for both sources byte-exact', async () => {
    const session = await openFixtureSession({ snapshot, launch: fixtureLaunch(), timeouts: FAST, instanceId: 'fixture-1' });
    if (!session.ok) throw new Error(`${session.class}/${session.kind}: ${session.message}`);
    const { identity, tools, client } = session.value;
    try {
      expect(identity).toEqual({
        key: 'caplab-fixture',
        name: 'caplab-fixture',
        version: '1.0.0',
        protocolVersion: '2025-06-18',
        endpoint: { kind: 'stdio', argv: fixtureLaunch().command, cwd: '/', envNames: [] },
        instanceId: 'fixture-1',
      });
      const [readSource] = tools;
      for (const [index, source] of snapshot.sources.entries()) {
        const output = await readSource!.handler({ source_id: source.id }, callContext(`toolu_${index}`, `act-${index}`));
        if (!output.ok) throw new Error(output.message);
        expect(output.value.content).toEqual([{ type: 'text', text: source.text }]);
        expect(Buffer.from(new TextEncoder().encode(source.text))).toEqual(Buffer.from(source.bytes));
        expect(output.value).toMatchObject({ evidence: 'bytes observed now', objectVersion: source.sha256 });
        expect(output.value.protocol).toMatchObject({ transport: 'mcp-stdio', server: 'caplab-fixture', method: 'tools/call', isError: false });
      }
      expect(session.value.exchanges().map((e) => [e.jsonrpcId, e.toolCallId, e.actionId])).toEqual([
        [3, 'toolu_0', 'act-0'],
        [4, 'toolu_1', 'act-1'],
      ]);
      // Bypass host validation to prove the server's own: bad arguments are a tool error.
      expect(await client.callTool('read_source', { source_id: 'gamma' }, { toolCallId: 't', actionId: 'a' })).toMatchObject({
        ok: false,
        class: 'business',
        kind: 'tool_error',
      });
      expect(client.stderr()).toContain('ready (MCP 2025-06-18, stdio; ');
      expect(client.stderr()).toContain('inherited fds 0,1,2; other descriptors: none');
    } finally {
      const report = await session.value.close();
      expect(report).toMatchObject({ steps: ['stdin_end'], exitCode: 0, survivors: [] });
      expect(isRunning(client.pid)).toBe(false);
    }
  });

  test('an unknown tool is JSON-RPC error -32602, not a tool result', async () => {
    const transport = openStdioTransport(fixtureLaunch(), { graces: { exitMs: 1_000, termMs: 300, killMs: 1_000 } });
    if (!transport.ok) throw new Error(transport.message);
    const connection = new Correlator(transport.value);
    try {
      expect((await handshake(connection, [READ_SOURCE_EXPECTED.contract], 5_000)).ok).toBe(true);
      const reply = await connection.request('tools/call', { name: 'write_source', arguments: {} }, { timeoutMs: 5_000 }).reply;
      expect(reply.ok && reply.value.answer).toMatchObject({ error: { code: -32602 } });
    } finally {
      await connection.close();
    }
  });

  test('a client asking another version still gets 2025-06-18 (the only revision served)', async () => {
    const transport = openStdioTransport(fixtureLaunch(), { graces: { exitMs: 1_000, termMs: 300, killMs: 1_000 } });
    if (!transport.ok) throw new Error(transport.message);
    const connection = new Correlator(transport.value);
    try {
      const params = { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '0' } };
      const reply = await connection.request('initialize', params, { timeoutMs: 5_000 }).reply;
      expect(reply.ok && reply.value.answer).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    } finally {
      await connection.close();
    }
  });
});

test('the real process fed a line over mcpLineBytes (stdin left open) exits 3 with one stderr line, not a spin', async () => {
  const launch = fixtureLaunch();
  const child = Bun.spawn([...launch.command], { cwd: launch.cwd, env: launch.env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  try {
    // The session must end on its own while stdin is still open. The deadline is a liveness bound
    // (the old server spun forever), far above the ~0.4 s this takes; it lets `finally` kill a spinner.
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(LIMITS.mcpLineBytes)}"}}\n`);
    void child.stdin.flush();
    const ended = await Promise.race([child.exited, Bun.sleep(10_000).then(() => 'still running after 10 s')]);
    expect(ended).toBe(3);
    const stderr = (await new Response(child.stderr).text()).split('\n').filter((line) => line !== '' && !line.includes(' ready (MCP '));
    expect(stderr).toEqual([`caplab serve: line 1 is longer than ${LIMITS.mcpLineBytes} bytes; session ended`]);
    expect(await new Response(child.stdout).text()).toBe('');
  } finally {
    child.kill('SIGKILL');
    await child.exited;
  }
}, 20_000);

describe('serve() in-process', () => {
  test('answers on stdout only, logs on stderr, returns 0 at stdin EOF', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    const logs: Buffer[] = [];
    const answered = new Promise<void>((resolve) =>
      stdout.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).toString().split('\n').length > 2) resolve();
      }),
    );
    stderr.on('data', (chunk: Buffer) => logs.push(chunk));
    const exit = serve({ stdin, stdout, stderr, snapshot });
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await answered;
    stdin.end();
    expect(await exit).toBe(0);
    const splitter = new LineSplitter(1 << 20);
    const lines = splitter.push(Buffer.concat(chunks));
    if (!lines.ok) throw new Error(lines.message);
    // Every stdout byte is part of a JSON-RPC line.
    expect(splitter.pendingBytes).toBe(0);
    expect(lines.value.map((line) => decodeLine(line).ok)).toEqual([true, true]);
    expect(Buffer.concat(logs).toString()).toContain('stdin closed, exiting');
  });

  test('the dev launch is absolute, cwd /, with an empty environment', () => {
    const launch = fixtureLaunch({ envSource: { PATH: '/usr/bin', X_API_KEY: 'sk-test' }, compiled: false });
    expect(launch.command[0]).toBe(process.execPath);
    expect(launch.command.slice(1)).toEqual([expect.stringMatching(/\/src\/main\.ts$/), 'serve']);
    expect(launch).toMatchObject({ cwd: '/', env: {} });
    expect(fixtureLaunch({ compiled: true, execPath: '/opt/caplab' }).command).toEqual(['/opt/caplab', 'serve']);
  });
});

test('openStrictClient with the fixture server lists exactly read_source with the pinned hashes', async () => {
  const client = await openStrictClient({ key: 'caplab-fixture', launch: fixtureLaunch(), tools: [READ_SOURCE_EXPECTED], timeouts: FAST });
  if (!client.ok) throw new Error(client.message);
  expect(client.value.tools.map((tool) => tool.name)).toEqual(['read_source']);
  await client.value.close();
});

test('the fixture answers parse under the SDK protocol schemas; both listed schemas are object schemas', async () => {
  const { CallToolResultSchema, InitializeResultSchema, ListToolsResultSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { fixtureMethods } = await import('./index.ts');
  const methods = fixtureMethods(snapshot).requests;
  const answer = async (method: string, params: Record<string, unknown>) => {
    const answered = await methods[method]!(params);
    if ('serialized' in answered) return answered.serialized.result; // serve-rpc.test.ts: its line is JSON.stringify of this
    if (!('result' in answered)) throw new Error(`${method}: ${JSON.stringify(answered)}`);
    return answered.result;
  };
  InitializeResultSchema.parse(await answer('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
  const listed = ListToolsResultSchema.parse(await answer('tools/list', {}));
  expect(listed.tools.map((t) => [t.name, t.inputSchema.type, t.outputSchema?.type])).toEqual([['read_source', 'object', 'object']]);
  const called = CallToolResultSchema.parse(await answer('tools/call', { name: 'read_source', arguments: { source_id: 'alpha' } }));
  expect(called.isError ?? false).toBe(false);
});
