import { clip } from '../../base/index.ts';
import { LIMITS, NO_REDACTION, sha256Hex, type Redactor } from '../../contract/index.ts';

/**
 * A server value too large or too deep for probe's report, in its place:
 * the start of its text and what identifies the whole. The text of a string
 * is its UTF-8; of any other value, its JSON (as `JSON.stringify` writes it,
 * keys in the server's order). Placed values are redacted before anything is
 * measured, hashed or cut.
 */
export interface Clipped {
  /** Which bound it passed: `reportValueBytes`, or `reportValueDepth` (checked first). */
  readonly clipped: 'bytes' | 'depth';
  /** Bytes of the whole text. */
  readonly bytes: number;
  /** Hex sha256 of the whole text. */
  readonly sha256: string;
  /** The first `reportValueBytes` of the text, cut on a character boundary. */
  readonly head: string;
}

/** A server value as the report keeps it: whole within the bounds, else clipped. */
export type Bounded<T> = T | Clipped;

/**
 * Whether a report value is a clipped stand-in. A server may send an object
 * of this very shape (it is kept, being small); it is then read as clipped
 * too, and still says only what the server sent.
 */
export function isClipped(value: unknown): value is Clipped {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && 'clipped' in value && 'sha256' in value && 'head' in value;
}

const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * A server's string as the report keeps it: redacted, and whole if its UTF-8
 * fits `reportValueBytes`, else clipped.
 */
export function boundText(text: string, redactor: Redactor = NO_REDACTION): Bounded<string> {
  const redacted = redactor.redact(text);
  const bytes = bytesOf(redacted);
  if (bytes <= LIMITS.reportValueBytes) return redacted;
  return { clipped: 'bytes', bytes, sha256: sha256Hex(redacted), head: clip(redacted, LIMITS.reportValueBytes, 'head') };
}

/**
 * A server's JSON value as the report keeps it: a redacted copy if it nests
 * at most `reportValueDepth` deep and its JSON fits `reportValueBytes`, else
 * clipped. Never recursive over the server's nesting: a 20,000-deep value
 * costs linear work and leaves a stand-in of bounded size.
 */
export function boundValue(value: unknown, redactor: Redactor = NO_REDACTION): unknown {
  if (typeof value === 'string') return boundText(value, redactor);
  const tooDeep = deeperThan(value, LIMITS.reportValueDepth);
  if (!tooDeep) {
    // Recursion is safe here: the depth is checked.
    const copy = redactedCopy(value, redactor);
    if (bytesOf(JSON.stringify(copy) ?? 'null') <= LIMITS.reportValueBytes) return copy;
  }
  return clippedJson(value, tooDeep ? 'depth' : 'bytes', redactor);
}

/** Whether a value nests arrays and objects deeper than `max` (an object at the top is 1), found without recursion. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

function redactedCopy(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.redact(value);
  if (Array.isArray(value)) return value.map((item) => redactedCopy(item, redactor));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactor.redact(key), redactedCopy(item, redactor)]));
}

function clippedJson(value: unknown, why: Clipped['clipped'], redactor: Redactor): Clipped {
  const hasher = new Bun.CryptoHasher('sha256');
  let bytes = 0;
  let head = '';
  for (const piece of jsonPieces(value, redactor)) {
    hasher.update(piece);
    bytes += bytesOf(piece);
    if (head.length < LIMITS.reportValueBytes) head += piece;
  }
  return { clipped: why, bytes, sha256: hasher.digest('hex'), head: clip(head, LIMITS.reportValueBytes, 'head') };
}

/** One array or object being written: its members, and how far along. */
interface Open {
  readonly members: readonly (readonly [string | undefined, unknown])[];
  index: number;
  readonly close: string;
}

/**
 * The JSON text of a parsed JSON value, strings and keys redacted, in
 * pieces, without recursion: the text `JSON.stringify` gives (non-finite
 * numbers as `null`), in the order it would write it. A clipped value is
 * hashed from these pieces whole (an excerpt, which needs only the start,
 * uses `jsonPrefix`).
 */
export function* jsonPieces(value: unknown, redactor: Redactor = NO_REDACTION): Generator<string> {
  const stack: Open[] = [];
  let next: unknown = value;
  let pending = true;
  for (;;) {
    if (pending) {
      pending = false;
      if (typeof next === 'string') yield JSON.stringify(redactor.redact(next));
      else if (typeof next === 'number') yield Number.isFinite(next) ? String(next) : 'null';
      else if (typeof next === 'boolean') yield String(next);
      else if (Array.isArray(next)) {
        yield '[';
        stack.push({ members: next.map((item) => [undefined, item] as const), index: 0, close: ']' });
      } else if (next !== null && typeof next === 'object') {
        yield '{';
        const members = Object.entries(next).filter(([, item]) => item !== undefined);
        stack.push({ members, index: 0, close: '}' });
      } else yield 'null';
    }
    const open = stack.at(-1);
    if (!open) return;
    if (open.index === open.members.length) {
      stack.pop();
      yield open.close;
      continue;
    }
    const [key, item] = open.members[open.index]!;
    const comma = open.index > 0 ? ',' : '';
    open.index += 1;
    yield key === undefined ? comma : `${comma}${JSON.stringify(redactor.redact(key))}:`;
    next = item;
    pending = true;
  }
}
