import * as v from 'valibot';
import { canonicalHash } from '../contract/index.ts';

/**
 * Content blocks of a tool result, as MCP's CallToolResult `content` and the
 * Messages API's tool_result `content` share them: the model is given these
 * blocks, in order, and the record hashes them. Tools give text blocks; a
 * kind both sides carry (an image) is a member of the union, so a tool that
 * returns one goes through the same output limit and the same record; the
 * Messages API's `tool_reference` is one only the host's ToolSearch may
 * return (result_validate). Adding a kind (a resource link, a document) is
 * adding a member here, its schema below, and its size in the output limit.
 */

/** Text: the same fields in MCP (`TextContent`) and the Messages API. */
export interface TextResultBlock {
  readonly type: 'text';
  readonly text: string;
}

/**
 * An image, as a Messages API tool_result carries one: base64 bytes and their
 * media type (MCP's `ImageContent` holds the same two as `data` and
 * `mimeType`). No tool in caplab gives one today.
 */
export interface ImageResultBlock {
  readonly type: 'image';
  readonly source: { readonly type: 'base64'; readonly media_type: string; readonly data: string };
}

/**
 * A reference to a deferred tool, as the Messages API's client-side tool
 * search returns one: the next request's model may then see that tool's
 * definition. Only a tool whose attributes say `references` (the host's
 * ToolSearch) may return it; disclosure counts it only in a ToolSearch
 * answer (harness/disclosure.ts).
 */
export interface ToolReferenceBlock {
  readonly type: 'tool_reference';
  readonly tool_name: string;
}

/** One block of a tool result. */
export type ResultBlock = TextResultBlock | ImageResultBlock | ToolReferenceBlock;

/** A text block. Its keys in this order: the payload's bytes depend on it. */
export function textBlock(text: string): TextResultBlock {
  return { type: 'text', text };
}

/** A tool_reference block. Its keys in this order: the payload's bytes depend on it. */
export function toolReference(name: string): ToolReferenceBlock {
  return { type: 'tool_reference', tool_name: name };
}

/**
 * The blocks a handler may return: at least one, so the tool's own block is
 * always the tool_result's first (hook blocks only follow it); each exactly
 * one known kind with exactly its fields (strict objects), so what the
 * payload carries and what the record hashes are the same JSON.
 */
export const ResultContent = v.pipe(
  v.array(
    v.variant('type', [
      v.strictObject({ type: v.literal('text'), text: v.string() }),
      v.strictObject({ type: v.literal('image'), source: v.strictObject({ type: v.literal('base64'), media_type: v.string(), data: v.string() }) }),
      v.strictObject({ type: v.literal('tool_reference'), tool_name: v.string() }),
    ]),
  ),
  v.minLength(1, 'a result has at least one block'),
);

/** The sha256 of the canonical JSON of the blocks the model was given (a call event's `model_content_sha256`). */
export function contentSha256(blocks: readonly ResultBlock[]): string {
  return canonicalHash(blocks);
}
