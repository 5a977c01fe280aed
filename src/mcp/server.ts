import { readdirSync, readlinkSync } from 'node:fs';
// Types only (erased at build): the answers are checked against the SDK's protocol shapes, at no load cost.
import type { CallToolResult, InitializeResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { exportContract, LIMITS, validateArguments } from '../contract/index.ts';
import { fixtureSnapshot, readSourceContract, sourceById, type ReadSourceResult, type Snapshot } from '../excerpt/index.ts';
import { FIXTURE_SERVER_INFO } from './fixture-info.ts';
import { PROTOCOL_VERSION } from './results.ts';
import { answerLine, isObject, RPC_ERROR, shown, type MethodAnswer, type Methods } from './serve-rpc.ts';
import { serveStdio, type ServeStreams } from './serve-stdio.ts';

/** Output `serve` lets pile up unread before it stops reading stdin (backpressure). */
const SERVE_PENDING_OUTPUT_BYTES = 1024 * 1024;

/** read_source as listed: schemas exported from the same valibot contract the host pins. */
function readSourceTool(): Tool {
  const exported = exportContract(readSourceContract);
  return {
    name: readSourceContract.name,
    description: readSourceContract.description,
    // The exports of object contracts; the server test checks both are `type: "object"` schemas.
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
  // The text block carries the serialized structuredContent (the spec's SHOULD), for clients that ignore structured results.
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

const invalidParams = (message: string): MethodAnswer => ({ error: { code: RPC_ERROR.invalidParams, message: `Invalid params: ${message}` } });

/** The fixture server's methods (MCP 2025-06-18, tools only); exported for the serve fuzzer. */
export function fixtureMethods(snapshot: Snapshot): Methods {
  const tool = readSourceTool();
  return {
    requests: {
      // Speak only 2025-06-18: these handlers implement that revision's tool
      // semantics and nothing else, whatever version the client asks for.
      initialize: (params) => {
        const info = params['clientInfo'];
        if (typeof params['protocolVersion'] !== 'string' || !isObject(params['capabilities']) || !isObject(info)) {
          return invalidParams('initialize needs protocolVersion (string), capabilities (object) and clientInfo (object)');
        }
        if (typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return invalidParams('clientInfo needs name and version (strings)');
        return { result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: FIXTURE_SERVER_INFO } satisfies InitializeResult };
      },
      ping: () => ({ result: {} }),
      'tools/list': (params) =>
        params['cursor'] !== undefined && typeof params['cursor'] !== 'string' ? invalidParams('cursor must be a string') : { result: { tools: [tool] } },
      'tools/call': (params) => {
        const name = params['name'];
        if (typeof name !== 'string') return invalidParams('tools/call needs params.name (a string)');
        if (params['arguments'] !== undefined && !isObject(params['arguments'])) return invalidParams('params.arguments must be an object');
        if (name !== tool.name) return invalidParams(`Unknown tool: ${shown(name)}`);
        return { result: callReadSource(snapshot, params['arguments']) };
      },
    },
    // Handlers answer synchronously, so a cancellation always arrives too late to act on.
    notifications: new Set(['notifications/initialized', 'notifications/cancelled']),
  };
}

export interface ServeIo extends ServeStreams {
  readonly snapshot?: Snapshot;
}

/**
 * `caplab serve`: runs the fixture MCP server on stdio until stdin ends.
 * stdout carries protocol only; every log line goes to stderr. Every stdin
 * line gets one answer or one stderr line (see `answerLine`).
 *
 * @returns The exit code: 0 after stdin EOF, 3 after a line over `LIMITS.mcpLineBytes`.
 * @example
 * const code = await serve();
 */
export async function serve(io: ServeIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const methods = fixtureMethods(io.snapshot ?? fixtureSnapshot());
  io.stderr.write(`caplab serve: ${FIXTURE_SERVER_INFO.name} ${FIXTURE_SERVER_INFO.version} ready (MCP ${PROTOCOL_VERSION}, stdio; pid ${process.pid}; inherited fds ${inheritedFds()})\n`);
  return serveStdio(io, (line) => answerLine(line, methods), {
    maxLineBytes: LIMITS.mcpLineBytes,
    pendingOutputBytes: SERVE_PENDING_OUTPUT_BYTES,
  });
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
