import { readdirSync, readlinkSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { exportContract, validateArguments } from '../contract/index.ts';
import { fixtureSnapshot, readSourceContract, sourceById, type ReadSourceResult, type Snapshot } from '../excerpt/index.ts';
import { FIXTURE_SERVER_INFO } from './fixture-info.ts';
import { PROTOCOL_VERSION } from './results.ts';


/** read_source as listed: schemas exported from the same valibot contract the host pins. */
function readSourceTool(): Tool {
  const exported = exportContract(readSourceContract);
  return {
    name: readSourceContract.name,
    description: readSourceContract.description,
    inputSchema: exported.inputSchema as Tool['inputSchema'],
    outputSchema: exported.resultSchema as NonNullable<Tool['outputSchema']>,
    annotations: {
      readOnlyHint: readSourceContract.readOnly,
      destructiveHint: readSourceContract.destructive,
      idempotentHint: readSourceContract.idempotent,
      openWorldHint: readSourceContract.openWorld,
    },
  };
}

/** Answers one read_source call: invalid arguments are a tool error, not a protocol error. */
function callReadSource(snapshot: Snapshot, args: unknown): CallToolResult {
  const input = validateArguments<{ source_id: string }>(readSourceContract.input, args ?? {});
  if (!input.ok) return { content: [{ type: 'text', text: `${input.class}/${input.kind}: ${input.message}` }], isError: true };
  const source = sourceById(snapshot, input.value.source_id);
  if (!source) return { content: [{ type: 'text', text: `unknown source ${input.value.source_id}` }], isError: true };
  const data: ReadSourceResult = {
    source_id: input.value.source_id as ReadSourceResult['source_id'],
    text: source.text,
    sha256: source.sha256,
    bytes: source.byteLength,
    snapshot: snapshot.id,
  };
  return { content: [{ type: 'text', text: data.text }], structuredContent: data };
}

/** Creates the fixture server (not yet connected). */
function createFixtureServer(snapshot: Snapshot): Server {
  const server = new Server(FIXTURE_SERVER_INFO, { capabilities: { tools: {} } });
  // Speak only 2025-06-18: the SDK would echo any version it knows, but these
  // handlers implement that revision's tool semantics and nothing else.
  server.setRequestHandler(InitializeRequestSchema, () => ({
    protocolVersion: PROTOCOL_VERSION,
    capabilities: { tools: {} },
    serverInfo: FIXTURE_SERVER_INFO,
  }));
  const tool = readSourceTool();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name !== tool.name) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    return callReadSource(snapshot, request.params.arguments);
  });
  return server;
}

export interface ServeIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly snapshot?: Snapshot;
}

/**
 * `caplab serve`: runs the fixture MCP server on stdio until stdin ends.
 * stdout carries protocol only; every log line goes to stderr.
 *
 * @returns The exit code (0 after a clean stdin EOF).
 * @example
 * const code = await serve();
 */
export async function serve(io: ServeIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const server = createFixtureServer(io.snapshot ?? fixtureSnapshot());
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const ended = new Promise<void>((resolve) => {
    io.stdin.once('end', resolve);
    io.stdin.once('close', resolve);
  });
  await server.connect(transport);
  server.onerror = (error) => io.stderr.write(`caplab serve: ${error.message}\n`);
  io.stderr.write(`caplab serve: ${FIXTURE_SERVER_INFO.name} ${FIXTURE_SERVER_INFO.version} ready (MCP ${PROTOCOL_VERSION}, stdio; pid ${process.pid}; inherited fds ${inheritedFds()})\n`);
  await ended;
  await server.close();
  io.stderr.write('caplab serve: stdin closed, exiting\n');
  return 0;
}

/**
 * The descriptors this process holds beyond stdio: every fd that is neither
 * 0–2, a runtime duplicate of them (Bun dups stdout/stderr for its writers),
 * nor Bun's own anon inodes (event loop). Diagnostic only — written to stderr
 * so a run record shows the child held just 0, 1, 2 and nothing else.
 */
function inheritedFds(): string {
  const target = (fd: number) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'utf8' });
    } catch {
      return undefined; // the descriptor readdir itself used, already closed
    }
  };
  try {
    const stdio = new Set([0, 1, 2].map(target));
    const extra = readdirSync('/proc/self/fd')
      .map(Number)
      .filter((fd) => fd > 2)
      .map((fd) => [fd, target(fd)] as const)
      .filter(([, t]) => t !== undefined && !t.startsWith('anon_inode:') && !stdio.has(t))
      .map(([fd, t]) => `${fd}=${t}`);
    return `0,1,2; other descriptors: ${extra.length > 0 ? extra.join(',') : 'none'}`;
  } catch {
    return 'unknown (no /proc)';
  }
}
