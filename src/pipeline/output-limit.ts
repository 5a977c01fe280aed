/**
 * Output limits: the model sees at most `maxBytes` of a result's text; the
 * full text is kept in the run dir and referenced from the tool_result.
 */
export interface LimitedOutput {
  readonly text: string;
  readonly truncated: boolean;
  readonly fullBytes: number;
}

/** Truncates UTF-8 text to at most `maxBytes` bytes without splitting a code point. */
export function truncateUtf8(text: string, maxBytes: number): LimitedOutput {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength <= maxBytes) return { text, truncated: false, fullBytes: bytes.byteLength };
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes (top bits 0b10) to a code point boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true, fullBytes: bytes.byteLength };
}
