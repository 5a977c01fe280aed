import { clipChars } from '../../base/index.ts';
import { LIMITS } from '../../contract/index.ts';
import type { ResultBlock } from '../../pipeline/index.ts';
import type { CallToolResult } from '../wire/index.ts';

type Block = CallToolResult['content'][number];

const encoder = new TextEncoder();

/**
 * A server's string as one field of a line: control and line-separator
 * characters as spaces (the line stays one line), cut at `evidenceChars`
 * code points.
 */
function field(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return clipChars(value.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' '), LIMITS.evidenceChars);
}

/** The bytes a base64 text decodes to, from its length and padding (the text itself is never decoded nor shown). */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `[type field field, N bytes]`, the absent fields left out. */
function line(type: string, fields: readonly unknown[], bytes: number | undefined): string {
  const named = [type, ...fields.map(field).filter((f) => f !== undefined)].join(' ');
  return `[${named}${bytes === undefined ? '' : `, ${bytes} bytes`}]`;
}

/** The size a resource link declares, when it is a byte count. */
function declaredSize(size: unknown): number | undefined {
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}

/**
 * One non-text content block as the text line the model sees: its type,
 * mime type, uri and size, never its bytes. An image or audio block's size is
 * what its base64 decodes to; an embedded resource's is its text's UTF-8
 * bytes or its blob's decoded bytes; a resource link's is the `size` it
 * declares, if any.
 *
 * @example
 * blockLine({ type: 'image', data: 'iVBO…', mimeType: 'image/png' }); // '[image image/png, 2048 bytes]'
 * blockLine({ type: 'resource_link', uri: 'file:///x.txt', name: 'x', mimeType: 'text/plain' }); // '[resource_link file:///x.txt text/plain]'
 */
export function blockLine(block: Exclude<Block, { type: 'text' }>): string {
  switch (block.type) {
    case 'image':
    case 'audio':
      return line(block.type, [block.mimeType], base64Bytes(block.data));
    case 'resource': {
      const { resource } = block;
      // The wire checked that a resource holds a string `text` or a string `blob`.
      const text = resource['text'];
      const bytes = typeof text === 'string' ? encoder.encode(text).byteLength : base64Bytes(String(resource['blob']));
      return line('resource', [resource.uri, resource['mimeType']], bytes);
    }
    case 'resource_link':
      return line('resource_link', [block['uri'], block['mimeType']], declaredSize(block['size']));
  }
}

/**
 * A result's content as the model is given it: each text block as text, each
 * other block as one text block of its line (`blockLine`), in order.
 */
export function modelContent(content: readonly Block[]): ResultBlock[] {
  return content.map((block) => ({ type: 'text', text: block.type === 'text' ? block.text : blockLine(block) }));
}
