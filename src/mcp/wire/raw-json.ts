/**
 * What JSON.parse forgets about a text: a key written twice in one object
 * (it keeps the last) and how a number was written (`1.0`, `1e0` and
 * `1.0000000000000001` all become 1). Read in one linear pass over text that
 * already parsed as JSON.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

export interface RawFacts {
  /** The first key found a second time in the same object (escapes decoded: `"\u0061"` is `"a"`). */
  readonly duplicateKey?: string;
  /** The top-level object's `id` as written, when it is a number. */
  readonly idNumberText?: string;
}

/** The index of the quote that closes the string opening at `start` (an escaped quote does not close it). */
function stringEnd(text: string, start: number): number {
  let at = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
}

/** The key whose string opens at `start` and closes at `end`, escapes decoded (`"\u0061"` is `a`). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
}

/** Whether a character can be part of a JSON number token (`-0.5e+3`). */
function inNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;
}

/** The number token of the value starting at `start` (whitespace skipped), or undefined for another kind of value. */
function numberAt(text: string, start: number): string | undefined {
  let at = start;
  while (text.charCodeAt(at) <= 0x20) at++;
  if (!inNumber(text.charCodeAt(at))) return undefined;
  let end = at + 1;
  while (inNumber(text.charCodeAt(end))) end++;
  return text.slice(at, end);
}

/**
 * Reads the facts above from `text`, which must be valid JSON (parse it
 * first): the pass trusts its structure. Each open object keeps the set of
 * its keys, so the work is linear in the text.
 */
export function rawFacts(text: string): RawFacts {
  // One entry per open container: an object's keys, or null for an array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  let idNumberText: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const key = keyText(text, i, end);
        const keys = open[open.length - 1]!;
        if (keys.has(key)) return { duplicateKey: key };
        keys.add(key);
        expectKey = false;
        if (key === 'id' && open.length === 1) idNumberText = numberAt(text, text.indexOf(':', end) + 1);
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      open.push(new Set());
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      open.push(null);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      expectKey = open[open.length - 1] !== null;
    }
  }
  return idNumberText === undefined ? {} : { idNumberText };
}

/**
 * The keys of the object that is the value of the top-level object's
 * `member`, in the order the text writes them. JSON.parse forgets that order
 * for keys that look like array indexes (`"2"` comes before `"b"` whatever the
 * text says). A key written twice counts where it is first written, as
 * JSON.parse keeps it; a member written twice counts as its last, as
 * JSON.parse keeps that. `text` must be valid JSON (parse it first).
 *
 * @example
 * memberKeys('{"mcpServers":{"b":{},"2":{}}}', 'mcpServers'); // ['b', '2']
 */
export function memberKeys(text: string, member: string): string[] {
  // One entry per open container: whether it is an object.
  const open: boolean[] = [];
  let expectKey = false;
  let atMember = false;
  let inMember = false;
  let keys = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const key = keyText(text, i, end);
        if (open.length === 1) atMember = key === member;
        else if (inMember && open.length === 2) keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      open.push(c === OPEN_OBJECT);
      expectKey = c === OPEN_OBJECT;
      if (open.length === 2 && atMember) {
        inMember = c === OPEN_OBJECT;
        keys = new Set();
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      if (open.length === 1) inMember = false;
    } else if (c === COMMA) {
      expectKey = open[open.length - 1] === true;
      if (open.length === 1) atMember = false;
    }
  }
  return [...keys];
}
