/**
 * TEST ONLY — a hostile stdio MCP server for the run path of
 * `--mcp-config` (src/cli/configured-hostile.test.ts):
 * `bun hostile-configured.ts MODE [ARG]`. Each mode attacks one part of
 * what the host reads from a user's server; every answer it does give is
 * one JSON-RPC line, written as text (so a mode can send nesting deeper
 * than JSON.stringify can write). With `HOSTILE_PIDS` set (a file path) it
 * appends its pid there first, and the pid of any process it starts, so a
 * test can check that each is gone afterwards. Never imported by shipped code.
 *
 * Listing: `schemas` (hostile input and output schemas, one tool each),
 * `deep` (an inputSchema nested 200,000 levels), `names` (names the Messages
 * API refuses, a long ANSI description, ANSI in serverInfo), `duplicate`
 * (two entries named `echo`), `collide KEY` (`a.b` and the name its rewrite
 * gives under KEY), `many` (5,000 tools), `endless` (pagination that never
 * ends), `cursor-loop`, `string-entry`, `list-error`, `always-changed`
 * (a `list_changed` after every call), `relist-removes` (after the first
 * call, a re-list without `gone`).
 * Results: `results` (tools `result`, `structured`, `slow` — answered only
 * when the next call arrives — and `count`).
 * Processes: `silent` (never answers initialize), `garbage` (answers
 * initialize with a line that is not JSON), `flood` (floods stderr with
 * `HOSTILE_SECRET`; its tool `die` prints it and exits mid-call), `orphan`
 * (starts a child in its own session, setsid, that outlives it).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';

import { ADDED_NAME, ANSI_DESCRIPTION, ANSI_SERVER, BASE64_CHARS, BIG_RESULT_BYTES, CONFIGURED_HOSTILE_MODES, DEEP_LEVELS, HOSTILE_CURSOR, HOSTILE_NAMES, MANY_BLOCKS, MANY_TOOLS } from './hostile-configured-cases.ts';

const mode = process.argv[2] ?? 'schemas';
if (!(CONFIGURED_HOSTILE_MODES as readonly string[]).includes(mode)) throw new Error(`unknown mode ${mode}`);
const pids = process.env['HOSTILE_PIDS'];
if (pids) appendFileSync(pids, `${process.pid}\n`);

const encoder = new TextEncoder();
function out(text: string): void {
  const data = encoder.encode(`${text}\n`);
  for (let offset = 0; offset < data.byteLength; ) offset += writeSync(1, data, offset);
}
const send = (message: Record<string, unknown>): void => out(JSON.stringify({ jsonrpc: '2.0', ...message }));
const answer = (id: number | string, result: unknown): void => send({ id, result });

const object = (properties: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({ type: 'object', properties, ...more });
const tool = (name: string, inputSchema: unknown, more: Record<string, unknown> = {}) => ({ name, inputSchema, ...more });

/** One tool per hostile schema (those that bind echo their arguments). */
function schemaTools(): unknown[] {
  const big = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`p${i}`, { type: 'string', description: 'padding '.repeat(4) }]));
  return [
    tool('no_schema', undefined),
    tool('schema_string', 'object'),
    tool('type_array', { type: 'array' }),
    tool('remote_ref', object({ x: { $ref: 'https://example.com/schema.json' } })),
    tool('ref_loop', object({ x: { $ref: '#/$defs/a' } }, { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } })),
    tool('huge', object(big)),
    tool('dialect', object({}, { $schema: 'https://example.com/my-dialect' })),
    tool('async', object({}, { $async: true })),
    tool('unknown_words', object({ when: { type: 'string', format: 'no-such-format', 'x-weird': 1 } }, { frobnicate: true })),
    tool('defaults', object({ text: { type: 'string', default: 'filled' }, mode: { const: 'fixed', default: 'fixed' } }, { additionalProperties: false })),
    tool('bad_output', object(), { outputSchema: { type: 'string' } }),
    // Names every object inherits: only an argument's own properties count.
    tool('inherited', object({ constructor: { type: 'string' }, toString: { type: 'string' } }, { required: ['toString'] })),
  ];
}

/** The JSON text of one page whose first inputSchema nests `levels` deep (arrays in a `default`: 2 bytes a level, under the line bound). */
const deepPage = (levels: number): string =>
  `{"tools":[{"name":"deep","inputSchema":{"type":"object","properties":{"x":{"default":${'['.repeat(levels)}${']'.repeat(levels)}}}}},{"name":"shallow","inputSchema":{"type":"object"}}]}`;

const echoSchema = object({ text: { type: 'string' } });

/** `mcp__KEY__a.b` as the tool-name rule rewrites it: the name a second tool takes to collide with it. */
function collidingName(key: string): string {
  const full = `mcp__${key}__a.b`;
  return `a_b_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
}

const listedTools = (): unknown[] => {
  switch (mode) {
    case 'schemas':
      return schemaTools();
    case 'names':
      return HOSTILE_NAMES.map((name) => tool(name, echoSchema, { description: ANSI_DESCRIPTION }));
    case 'duplicate':
      return [tool('echo', echoSchema), tool('echo', object({ other: { type: 'number' } }))];
    case 'collide':
      return [tool('a.b', echoSchema), tool(collidingName(process.argv[3] ?? 'collide'), echoSchema)];
    case 'many':
      return Array.from({ length: MANY_TOOLS }, (_, i) => tool(`t${i}`, { type: 'object' }));
    case 'string-entry':
      return ['echo', 42, null, tool('echo', echoSchema)];
    case 'always-changed':
      return [tool('echo', echoSchema)];
    case 'relist-removes':
      return removed ? [tool('stay', echoSchema), tool(ADDED_NAME, echoSchema)] : [tool('stay', echoSchema), tool('gone', echoSchema)];
    case 'results':
      return [
        tool('result', object({ kind: { type: 'string' } }, { required: ['kind'] })),
        tool('structured', object({ kind: { type: 'string' } }, { required: ['kind'] }), { outputSchema: object({ n: { type: 'number' } }, { required: ['n'] }) }),
        tool('slow', object()),
        tool('count', object()),
      ];
    default:
      return [tool('echo', echoSchema), tool('die', object())];
  }
};

/** How many calls each tool received (and `cancelled`: the notifications/cancelled read). */
const calls = new Map<string, number>();
/** Whether `relist-removes` has announced its change (after its first call). */
let removed = false;
/** `slow` answers held back until the next call. */
const held: (() => void)[] = [];
const text = (t: string) => ({ type: 'text', text: t });

/** The `result` tool's answers, by the kind asked for. */
function resultOf(kind: string): unknown {
  const base64 = 'QUJD'.repeat(BASE64_CHARS / 4);
  switch (kind) {
    case 'big':
      return { content: [text('b'.repeat(BIG_RESULT_BYTES))] };
    case 'error':
      return { content: [text('it went wrong \u001b[31mred')], isError: true };
    case 'image':
      return { content: [{ type: 'image', data: base64, mimeType: 'image/png' }] };
    case 'audio':
      return { content: [{ type: 'audio', data: base64, mimeType: 'audio/wav' }] };
    case 'resource':
      return { content: [{ type: 'resource', resource: { uri: 'file:///blob.bin', mimeType: 'application/octet-stream', blob: base64 } }] };
    case 'blocks':
      return { content: Array.from({ length: MANY_BLOCKS }, (_, i) => text(`block ${i}`)) };
    case 'unasked_structured':
      // structuredContent from a tool that listed no outputSchema.
      return { content: [text('{"n":1}')], structuredContent: { n: 1 } };
    case 'null_structured':
      return { content: [text('null')], structuredContent: null };
    case 'not_result':
      return { content: 'not a list of blocks' };
    default:
      return { content: [text(`unknown kind ${kind}`)] };
  }
}

/** The `structured` tool's answers: outputSchema `{ n: number }` required. */
function structuredOf(kind: string): unknown {
  switch (kind) {
    case 'good':
      return { content: [text('{"n":1}')], structuredContent: { n: 1 } };
    case 'violate':
      return { content: [text('{"n":"one"}')], structuredContent: { n: 'one' } };
    case 'disagree':
      return { content: [text('{"n":2}')], structuredContent: { n: 1 } };
    default:
      return { content: [text('{"n":1}')] };
  }
}

function call(id: number | string, name: string, args: Record<string, unknown>): void {
  calls.set(name, (calls.get(name) ?? 0) + 1);
  for (const late of held.splice(0)) late();
  if (name === 'die') {
    process.stderr.write(`dying with ${process.env['HOSTILE_SECRET']}\n`);
    process.exit(3);
  }
  if (name === 'result') return answer(id, resultOf(String(args['kind'])));
  if (name === 'structured') return answer(id, structuredOf(String(args['kind'])));
  // `slow` answers only when the next call arrives: after the host gave up on it, whatever its timeout.
  if (name === 'slow') return void held.push(() => answer(id, { content: [text('late')] }));
  if (name === 'count') return answer(id, { content: [text(JSON.stringify(Object.fromEntries(calls)))] });
  // Every other tool echoes the name it was called by and the arguments it received.
  // The change is announced before the answer, so the host has read it before it can send its next call.
  if (mode === 'always-changed' || (mode === 'relist-removes' && !removed)) send({ method: 'notifications/tools/list_changed' });
  removed = true;
  answer(id, { content: [text(JSON.stringify({ tool: name, arguments: args }))] });
}

function list(id: number | string, cursor: unknown): void {
  if (mode === 'deep') return out(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${deepPage(DEEP_LEVELS)}}`);
  if (mode === 'list-error') return send({ id, error: { code: -32603, message: 'tools/list is broken here' } });
  if (mode === 'endless') {
    const page = typeof cursor === 'string' ? Number.parseInt(cursor, 10) : 0;
    return answer(id, { tools: [tool(`t${page}`, { type: 'object' })], nextCursor: `${page + 1}${HOSTILE_CURSOR}` });
  }
  if (mode === 'cursor-loop') {
    // No cursor, then `a`, then `b`, whose next cursor is `a` again.
    const page = cursor === 'a' ? 1 : cursor === 'b' ? 2 : 0;
    return answer(id, { tools: [tool(`page${page}`, { type: 'object' })], nextCursor: page === 1 ? 'b' : 'a' });
  }
  answer(id, { tools: listedTools() });
}

function initialize(id: number | string): void {
  if (mode === 'garbage') return out('this is not JSON-RPC \u001b[2J\u009b2J at all');
  const serverInfo = mode === 'names' ? ANSI_SERVER : { name: `hostile-${mode}`, version: '0.0.1' };
  answer(id, { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo });
}

function handle(line: string): void {
  const message = JSON.parse(line) as { id?: number | string; method?: string; params?: Record<string, unknown> };
  if (message.method === 'notifications/cancelled') calls.set('cancelled', (calls.get('cancelled') ?? 0) + 1);
  if (message.id === undefined || message.method === undefined || mode === 'silent') return;
  const params = message.params ?? {};
  if (message.method === 'initialize') return initialize(message.id);
  if (message.method === 'tools/list') return list(message.id, params['cursor']);
  if (message.method === 'tools/call') return call(message.id, String(params['name']), (params['arguments'] ?? {}) as Record<string, unknown>);
  if (message.method === 'ping') return answer(message.id, {});
  send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
}

if (mode === 'flood') {
  // Far more stderr than the record keeps, the secret in every line (and last).
  const line = `noise ${process.env['HOSTILE_SECRET']} ${'n'.repeat(200)}\n`;
  process.stderr.write(line.repeat(2_000));
}
if (mode === 'orphan') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  if (pids && child.pid !== undefined) appendFileSync(pids, `${child.pid}\n`);
  child.unref();
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim() !== '') handle(line);
  }
});
// `silent` outlives its stdin: only a signal ends it.
process.stdin.on('end', () => mode === 'silent' ? setInterval(() => undefined, 1_000) : process.exit(0));
