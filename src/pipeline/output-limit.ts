import { clip } from '../base/index.ts';

/**
 * Output limits: the model sees at most `maxBytes` of a result's text; the
 * full text is kept in the run dir and referenced from the tool_result.
 */
export interface LimitedOutput {
  readonly text: string;
  readonly truncated: boolean;
  readonly fullBytes: number;
}

const utf8 = new TextEncoder();

/** Truncates UTF-8 text to at most `maxBytes` bytes without splitting a code point (`clip`). */
export function truncateUtf8(text: string, maxBytes: number): LimitedOutput {
  const fullBytes = utf8.encode(text).byteLength;
  if (fullBytes <= maxBytes) return { text, truncated: false, fullBytes };
  return { text: clip(text, maxBytes, 'head'), truncated: true, fullBytes };
}
