/**
 * TEST ONLY — what `hostile.ts` answers in its reader modes, as plain
 * values, so a test can rebuild the exact value a server sent (to check a
 * clipped value's bytes and sha256 against the whole).
 */
export const READER_MODES = ['deep_annotations', 'oversized', 'controls', 'fetch_failed', 'silent'] as const;
/** A mode that attacks the reader of probe's report (the bounds modes are `hostile-server.ts`'s `HostileMode`). */
export type ReaderMode = (typeof READER_MODES)[number];

/** `{"a":{"a":…{"a":1}}}`, `depth` objects deep, built without recursion. */
export function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Characters no terminal should receive from a server: clear screen, set title, CR LF, C1 CSI, DEL, bidi override. */
export const CONTROLS = { clear: '\x1b[2J', title: '\x1b]0;owned\x07', csi: '\x9b31m', del: '\x7f', rlo: '\u202e', crlf: '\r\n' } as const;

/** A tool name that, printed raw, ends its line and starts a forged one. */
export const FORGED_NAME = `read${CONTROLS.crlf}  exit      0 (ok)`;

/** The big values of `oversized` (each past the report's bounds, each within one 1 MiB line). */
export const BIG = {
  text: 'x'.repeat(100_000),
  name: 'n'.repeat(5_000),
  deep: 200,
} as const;

export function hostileInitialize(mode: ReaderMode, depth: number): Record<string, unknown> {
  const serverInfo: Record<string, unknown> = { name: `hostile-${mode}`, version: '0.0.1' };
  if (mode === 'oversized') Object.assign(serverInfo, { name: BIG.text, websiteUrl: `https://example.invalid/${BIG.text}`, icons: [nested(depth)], vendor: nested(depth) });
  if (mode === 'controls') Object.assign(serverInfo, { name: `hostile${CONTROLS.rlo}evil`, version: `1${CONTROLS.csi}${CONTROLS.del}${CONTROLS.title}` });
  return {
    protocolVersion: '2025-06-18',
    capabilities: { tools: {} },
    serverInfo,
    ...(mode === 'oversized' ? { instructions: BIG.text } : {}),
    ...(mode === 'controls' ? { instructions: `${CONTROLS.clear}use me${CONTROLS.crlf}  exit      0 (ok)` } : {}),
  };
}

const object = { type: 'object' };

export function hostileTools(mode: ReaderMode, depth: number): Record<string, unknown>[] {
  switch (mode) {
    case 'deep_annotations':
      return [{ name: 'deep', inputSchema: object, annotations: nested(depth) }];
    case 'oversized':
      return [{ name: BIG.name, title: BIG.text, description: BIG.text, inputSchema: object, annotations: nested(depth), icons: [{ src: BIG.text }] }];
    case 'controls':
      return [{ name: FORGED_NAME, title: CONTROLS.title, description: `${CONTROLS.clear}${CONTROLS.rlo}desc`, inputSchema: object, annotations: { title: CONTROLS.clear } }];
    case 'fetch_failed':
    case 'silent':
      return [{ name: 'fetch', inputSchema: object }];
  }
}

/** What a server wrote to stderr before answering `tools/call`, and the answer (`result` or `error`). */
export interface HostileAnswer {
  readonly stderr?: string;
  readonly reply: Record<string, unknown>;
}

export function hostileCall(mode: ReaderMode, depth: number, name: string): HostileAnswer {
  switch (mode) {
    case 'oversized':
      if (name === 'fails') return { stderr: BIG.text, reply: { error: { code: -32603, message: BIG.text } } };
      return { stderr: `${BIG.text}\nlast line\n`, reply: { result: { content: [{ type: 'text', text: BIG.text }, { type: 'resource', resource: { uri: 'file:///deep', text: 'deep', _meta: nested(Math.min(depth, BIG.deep)) } }] } } };
    case 'controls':
      return { stderr: `${CONTROLS.title}log${CONTROLS.crlf}  exit      0 (ok)\n`, reply: { result: { content: [{ type: 'text', text: `${CONTROLS.clear}done${CONTROLS.crlf}  exit      0 (ok)` }] } } };
    case 'fetch_failed':
      return { stderr: 'warning: no network\n', reply: { result: { content: [{ type: 'text', text: 'Error: request to https://api.example.invalid/v1 failed, reason: fetch failed' }] } } };
    default:
      return { reply: { result: { content: [{ type: 'text', text: 'ok' }] } } };
  }
}
