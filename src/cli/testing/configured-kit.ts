/**
 * Test code only: `--mcp-config` acceptance runs through the CLI — config and
 * scenario files in a scratch dir, the CLI run in-process, the record read
 * back, and a check that no server a test started is still running.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../../test/until.ts';
import { cli } from '../cli.ts';
import { testIo } from '../test-io.ts';

/** The misbehaving-server fixture (modes echo, drift, die, names). */
export const CONFIGURED_SERVER = join(import.meta.dir, 'configured-server.ts');

/** The pinned server-everything example config, its launch path relative to the file. */
export const EVERYTHING_CONFIG = join(import.meta.dir, '../../../fixtures/examples/everything.mcp.json');

/** The everything scenario (get-sum, get-structured-content, get-resource-links). */
export const EVERYTHING_SCENARIO = join(import.meta.dir, '../../../fixtures/examples/everything-calls.json');

/** The name of the variable each test server carries, so that the test can find it among running processes. */
const MARK = 'CAPLAB_TEST_SERVER_MARK';

export type Event = Record<string, any> & { type: string };

/** An entry that starts the test server in `mode` (with `args` after it). */
export function testServer(mode: string, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [CONFIGURED_SERVER, mode, ...args] };
}

/** A config file of these entries in `dir`; every entry is marked with `mark` in its env. */
export function writeConfig(dir: string, mark: string, servers: Record<string, { command: string; args?: string[] }>, file = 'servers.mcp.json'): string {
  const marked = Object.fromEntries(Object.entries(servers).map(([key, entry]) => [key, { ...entry, env: { [MARK]: mark } }]));
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ mcpServers: marked }));
  return path;
}

/** A scenario in today's format: one model response per batch of `[tool, arguments]` calls, then a final answer. */
export function writeScenario(dir: string, batches: ReadonlyArray<ReadonlyArray<readonly [string, unknown]>>, file = 'scenario.json'): string {
  let n = 0;
  const id = () => `toolu_${String(++n).padStart(2, '0')}`;
  const usage = { input_tokens: 10, output_tokens: 5 };
  const responses = [...batches.map((batch) => ({ tool_calls: batch.map(([name, args]) => ({ id: id(), name, arguments: args })), usage })), { text: 'Done.', usage }];
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ name: 'configured', description: 'Calls configured servers\' tools, then ends.', expect: { accepted: false, card: false }, responses }));
  return path;
}

/** Runs the CLI in-process in `cwd`, with the environment a user's shell would give servers. */
export async function caplab(argv: readonly string[], cwd: string, env: Readonly<Record<string, string>> = {}): Promise<{ code: number; out: string; err: string }> {
  const io = testIo(cwd, { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: tmpdir(), ...env });
  const code = await cli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** A run dir's ledger events. */
export function events(runDir: string): Event[] {
  return readFileSync(join(runDir, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Event);
}

/** The calls of a run, by tool_call_id. */
export function callsOf(runDir: string): Record<string, Event> {
  return Object.fromEntries(events(runDir).filter((e) => e.type === 'call').map((e) => [e.tool_call_id, e]));
}

/** The text blocks of each tool_result the model was sent in request `n` (1-based), by tool_use_id. */
export function toolResultsSeen(runDir: string, n: number): Record<string, { is_error: boolean; texts: string[] }> {
  const payload = JSON.parse(readFileSync(join(runDir, `requests/${String(n).padStart(2, '0')}-request.json`), 'utf8'));
  const results: Record<string, { is_error: boolean; texts: string[] }> = {};
  for (const message of payload.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_result') results[block.tool_use_id] = { is_error: block.is_error === true, texts: block.content.map((c: { text: string }) => c.text) };
    }
  }
  return results;
}

/** The pids of running processes whose environment carries `mark` (Linux /proc; elsewhere none are found). */
export function markedProcesses(mark: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const needle = `${MARK}=${mark}\0`;
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle) && !readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z ');
    } catch {
      return false; // gone, or not ours to read
    }
  }).map(Number);
}

/** Waits (with a deadline) until no process carrying `mark` runs, and returns those still running. */
export async function serversLeft(mark: string): Promise<number[]> {
  await until(() => markedProcesses(mark).length === 0);
  return markedProcesses(mark);
}

/**
 * server-everything's tools/list as the server sends it, read over a raw
 * stdio exchange (initialize, initialized, tools/list): an oracle for the
 * listing that shares no code with caplab's client.
 */
export async function everythingListing(): Promise<Array<{ name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }>> {
  const entry = join(import.meta.dir, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const child = Bun.spawn(['node', entry, 'stdio'], { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', cwd: tmpdir() });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oracle', version: '0' } } });
  const decoder = new TextDecoder();
  let buffer = '';
  let tools: any[] | undefined;
  for await (const chunk of child.stdout) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const message = JSON.parse(line);
      if (message.id === 1) {
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      } else if (message.id === 2) tools = message.result.tools;
    }
    if (tools) break;
  }
  child.stdin.end();
  child.kill();
  await child.exited;
  if (!tools) throw new Error('server-everything gave no tools/list answer');
  return tools;
}

/** Whether a JSON Schema value holds a `default` keyword anywhere. */
export function hasDefault(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  return Object.entries(schema).some(([key, value]) => key === 'default' || hasDefault(value));
}
