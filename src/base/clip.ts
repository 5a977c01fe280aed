const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/** No UTF-16 code unit takes more than 3 bytes in UTF-8 (a surrogate pair takes 4 for its 2). */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Cuts text to at most `maxBytes` of UTF-8, keeping its start (`'head'`) or
 * its end (`'tail'`), on a code point boundary: no half character is kept,
 * so the cut text re-encodes to exactly the bytes it was cut from. Every
 * byte-bounded cut of text caplab keeps or shows (model output, a server's
 * stderr in a record or a failure) goes through here.
 *
 * @example
 * clip('語語語', 7, 'tail'); // '語語' (6 bytes: a third character would need 9)
 */
export function clip(text: string, maxBytes: number, keep: 'head' | 'tail'): string {
  if (text.length * MAX_BYTES_PER_UNIT <= maxBytes) return text;
  const bytes = utf8.encode(text);
  if (bytes.byteLength <= maxBytes) return text;
  const continuation = (at: number) => (bytes[at]! & 0xc0) === 0x80; // top bits 0b10
  if (keep === 'head') {
    let end = maxBytes;
    while (end > 0 && continuation(end)) end--;
    return decoder.decode(bytes.subarray(0, end));
  }
  let start = bytes.byteLength - maxBytes;
  while (start < bytes.byteLength && continuation(start)) start++;
  return decoder.decode(bytes.subarray(start));
}

/**
 * Text cut to at most `max` code points, the cut marked by a final `…`
 * (so never a half surrogate pair). Reads only what it keeps.
 *
 * @example
 * clipChars('abcdef', 4); // 'abc…'
 */
export function clipChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  let cut = 0;
  for (let points = 0; units < text.length; points++) {
    if (points === max) return `${text.slice(0, cut)}…`;
    if (points === max - 1) cut = units;
    units += text.codePointAt(units)! > 0xffff ? 2 : 1;
  }
  return text;
}
