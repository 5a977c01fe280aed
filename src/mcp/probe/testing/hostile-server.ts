/**
 * TEST ONLY — an MCP server that attacks probe's bounds on size, depth and
 * time (`hostile.ts` runs it on stdio; `bun hostile.ts MODE [N]`). Every
 * answer is written as JSON text, so a mode can send what JSON.stringify
 * cannot write: `1e400`, or nesting deeper than the stack.
 */

export const HOSTILE_MODES = ['tools', 'realistic', 'deep_schema', 'ref_loop', 'non_finite', 'deep_result', 'backtrack'] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

/** One inbound message as the server reads it. */
export interface HostileMessage {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

/** The tool each call-judging mode lists and answers. */
export const HOSTILE_TOOL = 'judge_me';

/** `^(a+)+$` against `a…a!` backtracks: JSC gives up on each string after about a second. */
export const BACKTRACK_PATTERN = '^(a+)+$';
const BACKTRACK_WORDS = Array.from({ length: 100 }, () => `${'a'.repeat(40)}!`);

/** A minimal tool: the smallest entry that is clean. */
const minimalTool = (i: number): Record<string, unknown> => ({ name: `tool_${i}`, inputSchema: { type: 'object' } });

/** A tool as real servers list them: a description, a few typed arguments, an outputSchema, hints; each distinct. */
function realisticTool(i: number): Record<string, unknown> {
  return {
    name: `search_${i}`,
    title: `Search collection ${i}`,
    description: `Searches collection ${i} for documents matching a query. Returns at most \`limit\` results, best first, with their ids, scores and links.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200, description: 'What to look for' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
        sort: { type: 'string', enum: ['relevance', 'date', `custom_${i}`] },
        filters: {
          type: 'object',
          properties: {
            since: { type: 'string', format: 'date-time' },
            tags: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9-]+$' }, maxItems: 20 },
          },
          additionalProperties: false,
        },
        [`flag_${i}`]: { type: 'boolean' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        results: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' }, url: { type: 'string', format: 'uri' } }, required: ['id'] },
        },
        total: { type: 'integer', minimum: 0 },
      },
      required: ['results'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** JSON text of `{"a":{"a":…}}` nested `levels` deep: built as text, since JSON.stringify recurses. */
const nestedObjectText = (levels: number, inner: string): string => `${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`;

/** JSON text of an object schema nested `levels` deep through `properties`. */
const nestedSchemaText = (levels: number): string =>
  `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"object"}${'}}'.repeat(levels)}`;

/** The tools/list pages of a mode, as JSON text of each page's `tools` array. */
function toolPages(mode: HostileMode, count: number): string[] {
  const pageOf = (tools: unknown[]): string => JSON.stringify(tools);
  switch (mode) {
    case 'tools':
    case 'realistic': {
      // Pages well under the 1 MiB line bound: 2,000 minimal or 100 realistic tools each.
      const perPage = mode === 'tools' ? 2_000 : 100;
      const make = mode === 'tools' ? minimalTool : realisticTool;
      const pages: string[] = [];
      for (let start = 0; start < count || pages.length === 0; start += perPage) {
        pages.push(pageOf(Array.from({ length: Math.max(0, Math.min(perPage, count - start)) }, (_, k) => make(start + k))));
      }
      return pages;
    }
    case 'deep_schema':
      return [`[{"name":"deep","inputSchema":${nestedSchemaText(count)}},{"name":"shallow","inputSchema":${nestedSchemaText(30)}}]`];
    case 'ref_loop':
      return [
        pageOf([
          { name: 'self_ref', inputSchema: { type: 'object', $ref: '#' } },
          { name: 'def_cycle', inputSchema: { type: 'object', $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } } } },
          // Recursion that descends into the instance is fine: a tree.
          { name: 'tree', inputSchema: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } } },
        ]),
      ];
    case 'non_finite':
      return [`[{"name":"huge_max","inputSchema":{"type":"object","properties":{"n":{"type":"number","maximum":1e400}}}},{"name":"${HOSTILE_TOOL}","inputSchema":{"type":"object"}}]`];
    case 'deep_result':
      // A schema that recurses as deep as the instance does.
      return [pageOf([{ name: HOSTILE_TOOL, inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { a: { $ref: '#' } } } }])];
    case 'backtrack':
      return [pageOf([{ name: HOSTILE_TOOL, inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { words: { type: 'array', items: { type: 'string', pattern: BACKTRACK_PATTERN } } } } }])];
  }
}

/** The tools/call result of a mode, as JSON text. */
function callResult(mode: HostileMode, count: number): string {
  if (mode === 'deep_result') {
    // The text block carries the serialized structuredContent, as the spec asks: both are deep.
    const deep = nestedObjectText(count, '{}');
    return `{"content":[{"type":"text","text":${JSON.stringify(deep)}}],"structuredContent":${deep}}`;
  }
  if (mode === 'backtrack') {
    const structured = { words: BACKTRACK_WORDS };
    return JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured });
  }
  return JSON.stringify({ content: [{ type: 'text', text: 'ok' }] });
}

/**
 * A server in one mode; `count` sizes it (tools listed, levels of nesting).
 * Returns the handler of each message it reads; `line` writes one JSON-RPC
 * message as text, `answered` is told each method it answered.
 */
export function hostileServer(mode: HostileMode, count: number, line: (json: string) => void, answered: (method: string) => void = () => {}): (message: HostileMessage) => void {
  const pages = toolPages(mode, count);
  const answer = (id: number | string, result: string, method: string): void => {
    line(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`);
    answered(method);
  };
  return function handle(message: HostileMessage): void {
    if (message.id === undefined) return; // notifications
    if (message.method === 'initialize') {
      const result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: `hostile-${mode}`, version: '0.0.1' } };
      return answer(message.id, JSON.stringify(result), 'initialize');
    }
    if (message.method === 'tools/list') {
      const cursor = message.params?.['cursor'];
      const page = typeof cursor === 'string' ? Number(cursor) : 0;
      const next = page + 1 < pages.length ? `,"nextCursor":"${page + 1}"` : '';
      return answer(message.id, `{"tools":${pages[page] ?? '[]'}${next}}`, 'tools/list');
    }
    if (message.method === 'tools/call') return answer(message.id, callResult(mode, count), 'tools/call');
    if (message.method === 'ping') return answer(message.id, '{}', 'ping');
    line(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"error":{"code":-32601,"message":"Method not found"}}`);
  };
}
