/**
 * The SDK baseline's read_source server, written only with
 * @modelcontextprotocol/sdk, the way a user would (low-level Server,
 * hand-written JSON Schemas). Same text block (the serialized
 * structuredContent) and structuredContent shape as caplab's fixture server so
 * both answer with payloads of the same size. sdk-server.ts serves it on stdio,
 * sdk-http-server.ts over Streamable HTTP (one Server per session, as the SDK
 * has it). Imports nothing from caplab.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

const READ_SOURCE_TOOL = {
  name: 'read_source',
  description: 'Read one fixture source by id.',
  inputSchema: {
    type: 'object',
    properties: { source_id: { type: 'string', enum: ['alpha', 'beta'] } },
    required: ['source_id'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      source_id: { type: 'string' },
      text: { type: 'string' },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      bytes: { type: 'integer', minimum: 0 },
      snapshot: { type: 'string' },
    },
    required: ['source_id', 'text', 'sha256', 'bytes', 'snapshot'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** Reads `dir`'s alpha.md and beta.md once; each call of the result is a fresh Server answering read_source over them. */
export function readSourceServer(dir: string): () => Server {
  const sources = new Map(
    ['alpha', 'beta'].map((id) => {
      const bytes = readFileSync(join(dir, `${id}.md`));
      return [id, { text: bytes.toString('utf8'), sha256: sha256(bytes), bytes: bytes.byteLength }] as const;
    }),
  );
  // Same length as caplab's `snap-<16 hex>` id, so payload sizes match.
  const snapshot = `snap-${sha256(JSON.stringify([...sources].map(([id, s]) => [id, s.sha256]))).slice(0, 16)}`;
  return () => {
    const server = new Server({ name: 'sdk-baseline', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [READ_SOURCE_TOOL] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const id = request.params.arguments?.['source_id'];
      const source = typeof id === 'string' ? sources.get(id) : undefined;
      if (request.params.name !== 'read_source' || !source) {
        return { content: [{ type: 'text', text: `unknown tool or source` }], isError: true };
      }
      const structuredContent = { source_id: id, text: source.text, sha256: source.sha256, bytes: source.bytes, snapshot };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    });
    return server;
  };
}
