/**
 * TEST ONLY — the MCP server behind `misbehave.ts`, with misbehaviour
 * switches, apart from how it is reached: the process entry wires it to
 * stdio, `memory-server.ts` to an in-memory transport. It answers one parsed
 * message at a time; a mode that breaks the byte stream itself (stray,
 * bad_utf8, trickle) writes through `raw`, which only stdio has.
 */
import { exportContract } from '../../contract/index.ts';
import { readSourceContract } from '../contracts.ts';
import { sourceById } from '../snapshot.ts';
import { fixtureSnapshot } from '../sources.ts';
import type { ExpectedTool } from '../../mcp/index.ts';

export const MODES = [
  'ok', 'banner', 'stray', 'version', 'cursor', 'extra_tool', 'drift', 'unknown_id', 'string_id', 'duplicate',
  'bad_utf8', 'oversize', 'trickle', 'hang', 'crash', 'ignore_term', 'grandchild', 'mismatch', 'lying_hash',
  'conflict', 'is_error', 'rpc_error', 'no_structured', 'report', 'list_changed', 'slow', 'ping', 'pages', 'endless',
  'silent_init', 'setsid_grandchild',
  // probe's findings and versions
  'bad_tools', 'empty_cursor', 'changes', 'undeclared_change', 'server_request', 'v2024', 'v2025_03', 'v2025_11', 'future',
  'bad_output', 'serialized', 'text_only', 'die_start', 'echo_env', 'draft07', 'odd_content', 'slow_start',
  // W2: reading a hostile server
  'deaf', 'ping_flood', 'float_id', 'dup_key', 'is_error_string', 'bad_blocks',
] as const;
export type Mode = (typeof MODES)[number];

/** The one tool this server lists (unless a mode adds or bends one), as a client pins it. */
export const MISBEHAVE_TOOL: ExpectedTool = { contract: readSourceContract };

/** How the server reaches its client. */
export interface MisbehaveIo {
  /** Writes one JSON-RPC message (`jsonrpc` added). */
  send(message: Record<string, unknown>): void;
  /** Writes bytes outside the framing; may wait between writes. */
  raw(bytes: Uint8Array | string): void;
  /** The server's stderr. */
  log(text: string): void;
  /** Ends the server at once (a crash). */
  exit(code: number): never;
  /** What `report` mode puts in `instructions`. */
  report(): string;
  /** `echo_env` gives this token back as its version. */
  readonly token: string | undefined;
}

/** One inbound message as the server reads it. */
export interface Received {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

const object = { type: 'object' };
/** One tool per finding probe reports about a listing. */
const BAD_TOOLS: Record<string, unknown>[] = [
  { name: 'has space', inputSchema: object },
  { name: 'n'.repeat(200), inputSchema: object },
  { name: 'twice', inputSchema: object },
  { name: 'twice', inputSchema: object },
  { name: 'string_input', inputSchema: { type: 'string' } },
  { name: 'broken_output', inputSchema: object, outputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
  { name: 'remote_ref', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.invalid/a.json' } } } },
  { name: 'unknown_keyword', inputSchema: { type: 'object', frobnicate: true } },
  { name: 'unknown_format', inputSchema: { type: 'object', properties: { a: { type: 'string', format: 'colour' } } } },
  { name: 'long_description', description: 'd'.repeat(5000), inputSchema: object },
  { name: 'hinted', inputSchema: object, annotations: { readOnlyHint: true, destructiveHint: false } },
];

/** One content block per shape rule of 2025-06-18 a result can break (each lacks what its type requires). */
const BAD_BLOCKS: Record<string, unknown>[] = [
  { type: 'text' },
  { type: 'image', data: 'iVBORw0KGgo=' },
  { type: 'audio', mimeType: 'audio/wav' },
  { type: 'resource', resource: { text: 'no uri' } },
  { type: 'resource', resource: { uri: 'file:///neither-text-nor-blob' } },
];

const VERSIONS: Partial<Record<Mode, string>> = { version: '2025-03-26', v2025_03: '2025-03-26', v2024: '2024-11-05', v2025_11: '2025-11-25', future: '2099-01-01' };

/**
 * A server in one mode: returns the handler for each message it reads, in
 * order (await each before the next: `slow` reads nothing while it waits).
 */
export function misbehaver(mode: Mode, io: MisbehaveIo): (message: Received) => Promise<void> {
  const snapshot = fixtureSnapshot();
  const exported = exportContract(readSourceContract);
  const encoder = new TextEncoder();
  const send = io.send;
  let listed = 0;
  let pendingCall: { id: number | string; result: Record<string, unknown> } | undefined;

  function toolList(): Record<string, unknown>[] {
    const inputSchema =
      mode === 'drift'
        ? { ...exported.inputSchema, properties: { source_id: { type: 'string', maxLength: 64 } } }
        : exported.inputSchema;
    const tools: Record<string, unknown>[] = [{ name: 'read_source', inputSchema, outputSchema: exported.resultSchema }];
    if (mode === 'extra_tool') tools.push({ name: 'delete_everything', inputSchema: { type: 'object' } });
    if (mode === 'changes' && listed > 1) tools.push({ name: 'added_later', inputSchema: { type: 'object' } });
    if (mode === 'draft07') tools[0] = { ...tools[0], outputSchema: { ...exported.resultSchema, $schema: 'http://json-schema.org/draft-07/schema#' } };
    if (mode === 'bad_tools') tools.push(...BAD_TOOLS);
    return tools;
  }

  /** One tools/list page: `pages` paginates properly, `endless` never ends, `cursor` repeats its cursor. */
  function listPage(cursor: unknown): Record<string, unknown> {
    const page = typeof cursor === 'string' ? Number(cursor.slice(1)) : 1;
    if (page === 1) listed += 1;
    if (mode === 'empty_cursor') return { tools: toolList(), nextCursor: '' };
    if (mode === 'cursor') return { tools: toolList(), nextCursor: 'page-2' };
    if (mode === 'endless') return { tools: [], nextCursor: `p${page + 1}` };
    if (mode !== 'pages' || page === 1) return { tools: toolList(), ...(mode === 'pages' ? { nextCursor: 'p2' } : {}) };
    const extra = { name: `extra_${page}`, inputSchema: { type: 'object' } };
    return { tools: [extra], ...(page < 3 ? { nextCursor: `p${page + 1}` } : {}) };
  }

  function readSource(args: { source_id?: string }): Record<string, unknown> {
    const source = sourceById(snapshot, args.source_id ?? '');
    if (!source) return { content: [{ type: 'text', text: 'no such source' }], isError: true };
    let text = source.text;
    if (mode === 'mismatch') text = text.replace(/e/g, 'E');
    const bytes = encoder.encode(text);
    const sha256 = mode === 'lying_hash' ? 'f'.repeat(64) : new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
    const structured = { source_id: source.id, text, sha256, bytes: bytes.byteLength, snapshot: snapshot.id };
    if (mode === 'is_error') return { content: [{ type: 'text', text: 'disk on fire' }], isError: true };
    if (mode === 'no_structured') return { content: [{ type: 'text', text }] };
    if (mode === 'bad_output') {
      const wrong = { ...structured, bytes: 'many' };
      return { content: [{ type: 'text', text: JSON.stringify(wrong) }], structuredContent: wrong };
    }
    if (mode === 'is_error_string') return { content: [{ type: 'text', text: 'disk on fire' }], isError: 'true' };
    if (mode === 'bad_blocks') return { content: [{ type: 'text', text: JSON.stringify(structured) }, ...BAD_BLOCKS], structuredContent: structured };
    if (mode === 'odd_content') return { content: [{ type: 'text', text: JSON.stringify(structured) }, { type: 'hologram' }], structuredContent: structured };
    // The source text alone, not the serialized structuredContent (the spec's SHOULD missed).
    if (mode === 'text_only') return { content: [{ type: 'text', text }], structuredContent: structured };
    // Valid JSON, but not the structuredContent sent beside it.
    if (mode === 'conflict') return { content: [{ type: 'text', text: JSON.stringify({ ...structured, text: `${text} (abridged)` }) }], structuredContent: structured };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  }

  async function trickle(line: string): Promise<void> {
    // One write per byte, yielding between them, so multi-byte characters arrive split.
    for (const byte of encoder.encode(line)) {
      io.raw(Uint8Array.of(byte));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function onCall(id: number | string, params: { arguments?: { source_id?: string } }): Promise<void> {
    const result = readSource(params.arguments ?? {});
    switch (mode) {
      case 'hang':
      case 'ignore_term':
        return;
      case 'crash':
        io.exit(3);
      case 'stray':
        io.raw('debug: handling tools/call\n');
        return send({ id, result });
      case 'unknown_id':
        return send({ id: Number(id) + 1000, result });
      case 'string_id':
        return send({ id: String(id), result });
      case 'duplicate':
        send({ id, result });
        return send({ id, result });
      case 'bad_utf8': {
        const [head, tail] = JSON.stringify({ jsonrpc: '2.0', id, result }).split('茶');
        return io.raw(Buffer.concat([encoder.encode(head ?? ''), Uint8Array.of(0xe8, 0x8c), encoder.encode(`${tail ?? ''}\n`)]));
      }
      case 'oversize':
        return send({ id, result: { ...result, _meta: { padding: 'x'.repeat(200_000) } } });
      case 'trickle':
        return trickle(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
      case 'float_id':
        // The right number, written as a float: it matches no id caplab sent by JSON text.
        return io.raw(`${JSON.stringify({ jsonrpc: '2.0', id, result }).replace(`"id":${id}`, `"id":${id}.0`)}\n`);
      case 'dup_key':
        // Two isError keys: a reader keeping the last sees a success, one keeping the first an error.
        return io.raw(`${JSON.stringify({ jsonrpc: '2.0', id, result: { ...result, isError: true } }).replace('"isError":true', '"isError":true,"isError":false')}\n`);
      case 'rpc_error':
        return send({ id, error: { code: -32602, message: 'Invalid params: source_id rejected' } });
      case 'slow':
        // Answer after the client's (short) deadline; this loop reads nothing meanwhile.
        io.log(`tools/call #${id} received\n`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return send({ id, result });
      case 'ping':
        // Ask the client something first; answer the call once it has replied.
        pendingCall = { id, result };
        return send({ id: 'srv-ping-1', method: 'ping' });
      case 'list_changed':
        return send({ method: 'notifications/tools/list_changed' });
      default:
        return send({ id, result });
    }
  }

  return async function handle(message: Received): Promise<void> {
    // silent_init: log every message received (notifications included) and never answer.
    if (mode === 'silent_init') return io.log(`received ${JSON.stringify(message)}\n`);
    if (message.id === undefined) {
      // After initialized: announce a change (declared or not), or ask the client for something it never offered.
      if (message.method === 'notifications/initialized' && (mode === 'changes' || mode === 'undeclared_change')) send({ method: 'notifications/tools/list_changed' });
      if (message.method === 'notifications/initialized' && mode === 'server_request') {
        send({ id: 'srv-ping-0', method: 'ping' });
        send({ id: 'srv-sample-1', method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
      }
      return; // notifications
    }
    if (typeof message.id === 'string' && message.id.startsWith('srv-') && message.id !== 'srv-ping-1') return; // answers to our own requests
    if (message.id === 'srv-ping-1' && pendingCall) {
      send(pendingCall);
      pendingCall = undefined;
      return;
    }
    if (message.method === 'initialize') {
      send({
        id: message.id,
        result: {
          protocolVersion: VERSIONS[mode] ?? '2025-06-18',
          capabilities: { tools: mode === 'changes' ? { listChanged: true } : {} },
          // echo_env gives its token back as its version: anything a server sends may carry what it was given.
          serverInfo: { name: `misbehave-${mode}`, version: mode === 'echo_env' ? (io.token ?? 'unset') : '0.0.1' },
          ...(mode === 'report' ? { instructions: io.report() } : {}),
        },
      });
    } else if (message.method === 'tools/list') {
      send({ id: message.id, result: listPage(message.params?.['cursor']) });
    } else if (message.method === 'tools/call') {
      await onCall(message.id, (message.params ?? {}) as { arguments?: { source_id?: string } });
    } else {
      send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  };
}
