/**
 * The things bench.ts times: the raw pipe echo, the SDK client against the SDK
 * baseline server, and caplab's strict client against its fixture server.
 * Each target does one read_source-sized round trip per `call(i)`. Sources
 * come from a folder (`alpha.md`, `beta.md`) both servers read at start, so the
 * payload size can be swept (`writeSources`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readSourceContract } from '../../src/excerpt/contracts.ts';
import { SOURCE_IDS, takeSnapshot } from '../../src/excerpt/index.ts';
import type { Snapshot } from '../../src/excerpt/snapshot.ts';
import { validateArguments } from '../../src/contract/index.ts';
import { openFixtureSession, type FixtureSession } from '../../src/excerpt/fixture-session.ts';
import { DEV_SERVE_ENTRY } from '../../src/cli/tasks.ts';
import { fixtureLaunch } from '../../src/excerpt/index.ts';
import type { Launch } from '../../src/mcp/index.ts';
import type { CallContext } from '../../src/pipeline/index.ts';

const source = (i: number) => SOURCE_IDS[i % SOURCE_IDS.length]!;

/**
 * Writes `alpha.md` and `beta.md` of exactly `bytes` bytes each into `dir`:
 * markdown-like lines of ASCII with one em dash (3 bytes of UTF-8) each, so JSON
 * escaping (newlines, quotes) and UTF-8 both take part as in a real source.
 */
export function writeSources(dir: string, bytes: number): Snapshot {
  mkdirSync(dir, { recursive: true });
  for (const [n, id] of SOURCE_IDS.entries()) {
    let text = `# ${id}\n\n`;
    for (let line = 1; text.length < bytes; line++) text += `Line ${line} of ${id}: the keeper wrote "lit at dusk" — ${n}.\n`;
    const encoded = new TextEncoder().encode(text);
    // Cut to size, never inside a character (a continuation byte 10xxxxxx would start the cut-off part), then pad with dots.
    let end = bytes;
    while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
    const padded = new Uint8Array(bytes).fill(0x2e);
    padded.set(encoded.subarray(0, end));
    writeFileSync(join(dir, `${id}.md`), padded);
  }
  return readSnapshot(dir);
}

/** The snapshot of a sources folder, as both servers take it. */
export function readSnapshot(dir: string): Snapshot {
  return takeSnapshot(SOURCE_IDS.map((id) => ({ id, bytes: new Uint8Array(readFileSync(join(dir, `${id}.md`))) })));
}

export interface Target {
  readonly name: string;
  readonly pid: number;
  call(i: number): Promise<void>;
  close(): Promise<void>;
}

/** Spawns the echo child; payloads[i % len] + '\n' goes out and must come back. */
export function openEcho(payloadSizes: readonly number[]): Target {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'echo.ts')], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  const payloads = payloadSizes.map((size) => new TextEncoder().encode(`${'x'.repeat(size)}\n`));
  const reader = proc.stdout.getReader();
  let lines = 0; // newlines received but not yet consumed by a call
  return {
    name: 'raw pipe echo',
    pid: proc.pid,
    async call(i) {
      proc.stdin.write(payloads[i % payloads.length]!);
      proc.stdin.flush();
      while (lines === 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error('echo child closed its stdout');
        for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) lines++;
      }
      lines--;
    },
    async close() {
      proc.stdin.end();
      await proc.exited;
    },
  };
}

/** The SDK as a user would use it: Client + StdioClientTransport, listTools, then callTool. */
export async function openSdk(sourcesDir: string): Promise<Target> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(import.meta.dir, 'sdk-server.ts'), sourcesDir],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
  await client.connect(transport);
  // listTools also primes the SDK client's outputSchema validator for callTool.
  await client.listTools();
  return {
    name: 'SDK client+server',
    pid: transport.pid ?? -1,
    async call(i) {
      const result = await client.callTool({ name: 'read_source', arguments: { source_id: source(i) } });
      if (result.isError || result.structuredContent === undefined) throw new Error('SDK read_source failed');
    },
    close: () => client.close(),
  };
}

/** caplab's `serve()` over a sources folder (caplab-server.ts), launched like the fixture server. */
export const sourcesLaunch = (sourcesDir: string): Launch => ({ command: [process.execPath, join(import.meta.dir, 'caplab-server.ts'), sourcesDir], cwd: '/', env: {} });

export async function openCaplab(snapshot: Snapshot, launch: Launch = fixtureLaunch({ devEntry: DEV_SERVE_ENTRY })): Promise<FixtureSession> {
  const session = await openFixtureSession({ snapshot, instanceId: 'bench', launch });
  if (!session.ok) throw new Error(`caplab session: ${session.class}/${session.kind}: ${session.message}`);
  return session.value;
}

/** The compiled binary's own launch (`dist/caplab serve`), as the binary would start it. */
export const binaryLaunch = (binary: string): Launch => fixtureLaunch({ devEntry: DEV_SERVE_ENTRY, compiled: true, execPath: binary });

/** caplab's strict client alone: request, framing, result schema and text agreement. */
export function caplabClient(session: FixtureSession): Target {
  return {
    name: 'caplab client.callTool',
    pid: session.client.pid,
    async call(i) {
      const called = await session.client.callTool('read_source', { source_id: source(i) }, { toolCallId: `t${i}`, actionId: `a${i}` });
      if (!called.ok) throw new Error(`caplab callTool: ${called.message}`);
    },
    close: async () => void (await session.close()),
  };
}

/**
 * The runtime tool's path as the pipeline drives it: argument validation
 * against the pinned contract, then the adapter handler (strict client +
 * snapshot hash/byte comparison). Hooks, permissions and the ledger are not
 * included: they are not part of the transport cost being compared.
 */
export function caplabTool(session: FixtureSession): Target {
  const tool = session.tools[0]!;
  const context = (i: number): CallContext => ({
    runDir: '/nonexistent-bench',
    actionId: `a${i}`,
    toolCallId: `t${i}`,
    request: { id: 'bench', payload: new Uint8Array(), payloadSha256: '', bindings: {} },
    signal: new AbortController().signal,
  });
  return {
    name: 'caplab tool (validate+handler)',
    pid: session.client.pid,
    async call(i) {
      const input = validateArguments(readSourceContract.input, { source_id: source(i) });
      if (!input.ok) throw new Error(input.message);
      const out = await tool.handler(input.value, context(i));
      if (!out.ok) throw new Error(`caplab handler: ${out.class}/${out.kind}: ${out.message}`);
    },
    close: async () => void (await session.close()),
  };
}
