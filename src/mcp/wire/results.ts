import * as v from 'valibot';

/**
 * MCP 2025-06-18 result shapes the strict client reads. Loose objects: the
 * spec allows `_meta` and optional fields we do not use; what we do use is
 * typed exactly.
 */

/** The only protocol revision the fixed profile speaks. */
export const PROTOCOL_VERSION = '2025-06-18';

const JsonObject = v.record(v.string(), v.unknown());

/** `serverInfo` of an initialize result (the spec's `Implementation`, named here for the one place caplab reads it; the binding's `Implementation` is how a tool is run). */
export const ServerInfo = v.looseObject({
  name: v.string(),
  version: v.string(),
  title: v.optional(v.string()),
});
export type ServerInfo = v.InferOutput<typeof ServerInfo>;

export const InitializeResult = v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.looseObject({ tools: v.optional(v.looseObject({ listChanged: v.optional(v.boolean()) })) }),
  serverInfo: ServerInfo,
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
const media = <T extends 'image' | 'audio'>(type: T) => v.looseObject({ type: v.literal(type), data: v.string(), mimeType: v.string() });
export const ImageContent = media('image');
export const AudioContent = media('audio');
/** An embedded resource: its uri, and its contents as `text` or as base64 `blob`. */
export const EmbeddedResource = v.looseObject({
  type: v.literal('resource'),
  resource: v.union([v.looseObject({ uri: v.string(), text: v.string() }), v.looseObject({ uri: v.string(), blob: v.string() })]),
});
/** A resource link is kept typed only by `type`: neither client reads its fields. */
export const ResourceLink = v.looseObject({ type: v.literal('resource_link') });

/** What each content block type of MCP 2025-06-18 requires of a block (the spec's MUSTs); probe checks the same. */
export const CONTENT_BLOCKS = { text: TextContent, image: ImageContent, audio: AudioContent, resource: EmbeddedResource, resource_link: ResourceLink } as const;
export const ContentBlock = v.variant('type', [TextContent, ImageContent, AudioContent, EmbeddedResource, ResourceLink]);

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
