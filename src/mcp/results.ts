import * as v from 'valibot';

/**
 * MCP 2025-06-18 result shapes the strict client reads. Loose objects: the
 * spec allows `_meta` and optional fields we do not use; what we do use is
 * typed exactly.
 */

/** The only protocol revision the fixed profile speaks. */
export const PROTOCOL_VERSION = '2025-06-18';

const JsonObject = v.record(v.string(), v.unknown());

export const Implementation = v.looseObject({
  name: v.string(),
  version: v.string(),
  title: v.optional(v.string()),
});
export type Implementation = v.InferOutput<typeof Implementation>;

export const InitializeResult = v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.looseObject({ tools: v.optional(v.looseObject({ listChanged: v.optional(v.boolean()) })) }),
  serverInfo: Implementation,
  instructions: v.optional(v.string()),
});
export type InitializeResult = v.InferOutput<typeof InitializeResult>;

export const ListedTool = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  inputSchema: v.looseObject({ type: v.literal('object') }),
  outputSchema: v.optional(v.looseObject({ type: v.literal('object') })),
  annotations: v.optional(JsonObject),
});
export type ListedTool = v.InferOutput<typeof ListedTool>;

export const ListToolsResult = v.looseObject({
  tools: v.array(ListedTool),
  nextCursor: v.optional(v.string()),
});
export type ListToolsResult = v.InferOutput<typeof ListToolsResult>;

export const TextContent = v.looseObject({ type: v.literal('text'), text: v.string() });
/** Other content kinds (image, audio, resource links) are kept, typed only by `type`. */
export const OtherContent = v.looseObject({ type: v.picklist(['image', 'audio', 'resource_link', 'resource']) });
export const ContentBlock = v.union([TextContent, OtherContent]);

export const CallToolResult = v.looseObject({
  content: v.array(ContentBlock),
  structuredContent: v.optional(JsonObject),
  isError: v.optional(v.boolean()),
});
export type CallToolResult = v.InferOutput<typeof CallToolResult>;

/** The text of every text block, in order. */
export function textBlocks(result: CallToolResult): string[] {
  return result.content.flatMap((block) => (block.type === 'text' && 'text' in block ? [String(block.text)] : []));
}
