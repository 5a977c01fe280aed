/**
 * TEST ONLY — the MCP stdio server of probe's gate tests (levels, pins,
 * `--all`): a small listing, and one mode per thing a gate must notice.
 * Run as `bun gate-server.ts MODE`. It writes JSON-RPC lines itself (no SDK).
 * Never imported by shipped code.
 */
import { appendFileSync, existsSync, readFileSync, writeSync } from 'node:fs';

export const GATE_MODES = [
  'base',
  // levels
  'long_description', 'string_input',
  // drift from base, one each
  'description', 'property_description', 'optional_property', 'annotation', 'removed', 'added', 'renamed', 'version', 'instructions',
  // a server that dies before answering
  'die',
  // fuzzing: parse exits on text "", render never answers a text over 8000 characters; babble writes a stray line on ""
  'fragile', 'babble',
  // fuzzing: ten more tools, and every tools/call exits (restarts); fragile, listing one more tool once GATE_LOG has a call
  'crashy', 'shifty',
] as const;
export type GateMode = (typeof GATE_MODES)[number];

/** The base listing: three tools, one with an annotation, one forbidding extra fields. */
function baseTools(): Record<string, unknown>[] {
  return [
    {
      name: 'search',
      title: 'Search',
      description: 'Searches the index.',
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['query'] },
      annotations: { readOnlyHint: true },
    },
    { name: 'fetch', description: 'Fetches one page.', inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'], additionalProperties: false } },
    { name: 'erase', description: 'Erases a record.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
  ];
}

/** `shifty`: whether an earlier start of this server was sent a call (GATE_LOG holds one). */
const shifted = (): boolean => {
  const log = process.env['GATE_LOG'];
  return log !== undefined && existsSync(log) && readFileSync(log, 'utf8').length > 0;
};

/** The tools of `fragile` and `babble`: each takes one string. */
const FRAGILE_TOOLS = [
  { name: 'parse', description: 'Parses a text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'render', description: 'Renders a text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];

/** What a fuzzing mode does with one tools/call: crash (exit), hang (no answer), babble (a stray line), or answer. */
export function gateMisbehaves(mode: GateMode, message: { method?: string; params?: { name?: string; arguments?: Record<string, unknown> } }): 'crash' | 'hang' | 'babble' | undefined {
  if (mode === 'crashy' && message.method === 'tools/call') return 'crash';
  if ((mode !== 'fragile' && mode !== 'babble' && mode !== 'shifty') || message.method !== 'tools/call') return undefined;
  const text = message.params?.arguments?.['text'];
  if (message.params?.name === 'parse' && text === '') return mode === 'babble' ? 'babble' : 'crash';
  if (message.params?.name === 'render' && typeof text === 'string' && text.length > 8000 && mode === 'fragile') return 'hang';
  return undefined;
}

/** The listing in one mode: the base with one change. */
export function gateTools(mode: GateMode): Record<string, unknown>[] {
  const tools = baseTools();
  const [search, fetch] = tools as [Record<string, any>, Record<string, any>];
  switch (mode) {
    case 'long_description': return [...tools, { name: 'long', description: 'd'.repeat(5000), inputSchema: { type: 'object' } }];
    case 'string_input': return [...tools, { name: 'stringly', inputSchema: { type: 'string' } }];
    case 'description': search['description'] = 'Searches the index!'; return tools;
    case 'property_description': search['inputSchema'].properties.query.description = 'What to search for'; return tools;
    case 'optional_property': search['inputSchema'].properties.lang = { type: 'string' }; return tools;
    case 'annotation': search['annotations'] = { readOnlyHint: false }; return tools;
    case 'removed': return tools.filter((tool) => tool['name'] !== 'erase');
    case 'added': return [...tools, { name: 'export', description: 'Exports everything.', inputSchema: { type: 'object' } }];
    case 'renamed': fetch['name'] = 'fetch_page'; return tools;
    case 'fragile':
    case 'babble': return [...tools, ...FRAGILE_TOOLS];
    case 'shifty': return [...tools, ...FRAGILE_TOOLS, ...(shifted() ? [{ name: 'export', description: 'Exports everything.', inputSchema: { type: 'object' } }] : [])];
    case 'crashy': return [...tools, ...Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }))];
    default: return tools;
  }
}

const out = (message: Record<string, unknown>): void => {
  const bytes = new TextEncoder().encode(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  for (let offset = 0; offset < bytes.byteLength; ) offset += writeSync(1, bytes, offset);
};

/** The answer to one request in one mode (undefined: a notification, no answer). */
export function gateAnswer(mode: GateMode, message: { id?: number | string; method?: string }): Record<string, unknown> | undefined {
  if (message.id === undefined) return undefined;
  const { id } = message;
  switch (message.method) {
    case 'initialize':
      return {
        id,
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'gate', version: mode === 'version' ? '1.0.1' : '1.0.0' },
          instructions: mode === 'instructions' ? 'Use with care; prefer search.' : 'Use with care.',
        },
      };
    case 'tools/list': return { id, result: { tools: gateTools(mode) } };
    case 'tools/call': return { id, result: { content: [{ type: 'text', text: 'ok' }] } };
    case 'ping': return { id, result: {} };
    default: return { id, error: { code: -32601, message: 'Method not found' } };
  }
}

if (import.meta.main) {
  const mode = (process.argv[2] ?? 'base') as GateMode;
  if (!GATE_MODES.includes(mode)) throw new Error(`unknown mode ${mode}`);
  if (mode === 'die') {
    process.stderr.write('fatal: no licence\n');
    process.exit(9);
  }
  for await (const line of console) {
    if (line === '') continue;
    const message = JSON.parse(line) as { id?: number; method?: string; params?: { name?: string; arguments?: Record<string, unknown> } };
    // GATE_LOG: each tools/call's params, a line each, appended before anything else (the evidence of what was sent).
    if (message.method === 'tools/call' && process.env['GATE_LOG']) appendFileSync(process.env['GATE_LOG'], `${JSON.stringify(message.params)}\n`);
    const odd = gateMisbehaves(mode, message);
    if (odd === 'crash') process.exit(3);
    if (odd === 'hang') continue;
    if (odd === 'babble') writeSync(1, 'parsing "" failed\n');
    const answer = gateAnswer(mode, message);
    if (answer) out(answer);
  }
}

/** The launch of this server in one mode: Bun and the absolute script path. */
export const gateCommand = (mode: GateMode): string[] => [process.execPath, new URL(import.meta.url).pathname, mode];
