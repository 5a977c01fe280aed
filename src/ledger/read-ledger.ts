import { canonicalJson, jsonTooDeep, LIMITS, ok, sha256Hex, type Outcome } from '../contract/index.ts';
import { EVENT_TYPE, fileRefsOf, GENESIS, isSha256, type FileRef, type LedgerEvent } from './format.ts';
import { LEDGER_FILE } from './rel-path.ts';
import { failAt, locate, type VerifyFailure } from './report.ts';

/** One ledger line that passed the line-level checks. */
export interface RecordedEvent {
  readonly line: number;
  readonly hash: string;
  readonly event: LedgerEvent;
  readonly files: readonly FileRef[];
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads `ledger.jsonl` bytes line by line, stopping at the first line that is
 * not canonical, breaks the sequence or the hash chain, or has a malformed
 * envelope or `files` array. Hashes are over the raw bytes as stored, never
 * over a re-encoding, so no edit can be normalised away.
 */
export function readLedger(bytes: Uint8Array): Outcome<readonly RecordedEvent[]> | VerifyFailure {
  const events: RecordedEvent[] = [];
  let prev = GENESIS;
  let start = 0;
  while (start < bytes.byteLength) {
    const end = bytes.indexOf(0x0a, start);
    const line = events.length + 1;
    const at = { file: LEDGER_FILE, line };
    if (end === -1) {
      return failAt('not_canonical', `line ${line} has no terminating newline: the ledger was truncated or appended to`, at);
    }
    const raw = bytes.subarray(start, end);
    const offset = start;
    start = end + 1;
    let text: string;
    let value: unknown;
    try {
      text = decoder.decode(raw);
    } catch {
      return failAt('not_canonical', `line ${line} (from byte ${offset}) is not UTF-8: the first bad byte is at offset ${offset + firstBadUtf8(raw)}`, at);
    }
    if (jsonTooDeep(text, LIMITS.recordJsonDepth)) {
      return failAt('too_deep', `line ${line} nests arrays or objects deeper than ${LIMITS.recordJsonDepth}`, at);
    }
    try {
      value = JSON.parse(text);
    } catch {
      return failAt('not_canonical', `line ${line} (from byte ${offset}, ${raw.byteLength} bytes) is not JSON`, at);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return failAt('bad_event', `line ${line} is not a JSON object`, at);
    }
    const event = value as Record<string, unknown>;
    const named = {
      ...at,
      ...(Number.isSafeInteger(event['seq']) ? { seq: event['seq'] as number } : {}),
      ...(typeof event['type'] === 'string' ? { type: event['type'] } : {}),
    };
    if (canonicalOf(value) !== text) {
      return failAt('not_canonical', `line ${line} is not in canonical JSON form (sorted keys, no whitespace, shortest escapes, finite numbers)`, named);
    }
    if (event['seq'] !== events.length) {
      return failAt('seq_broken', `line ${line} has seq ${JSON.stringify(event['seq'])}, expected ${events.length}`, named);
    }
    if (typeof event['type'] !== 'string' || !EVENT_TYPE.test(event['type']) || typeof event['at'] !== 'string' || !isSha256(event['prev'])) {
      return failAt('bad_event', `line ${line} needs a type matching ${EVENT_TYPE.source}, a string at and a sha256 prev`, named);
    }
    if (event['prev'] !== prev) {
      const before = events[events.length - 1];
      const cause = before
        ? `the sha256 of line ${before.line} (seq ${before.event.seq}, ${before.event.type}) — that line or this prev was altered`
        : 'the genesis value — the first line was altered or lines were removed before it';
      return failAt('chain_broken', `line ${line} has prev ${event['prev']}, not ${cause}`, named);
    }
    const files = fileRefsOf(event);
    if (!files.ok) return locate(files, named);
    prev = sha256Hex(raw);
    events.push({ line, hash: prev, event: event as LedgerEvent, files: files.value });
  }
  return ok(events);
}

/** Index of the first byte that does not continue a well-formed UTF-8 sequence (overlongs and surrogates included). */
export function firstBadUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const [size, low, high] = b < 0x80 ? [1, 0, 0] : b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf] : b === 0xed ? [3, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] : b === 0xf0 ? [4, 0x90, 0xbf] : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f] : [0, 0, 0];
    if (size === 0) return i;
    for (let k = 1; k < size; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i + k;
    }
    i += size;
  }
  return bytes.length;
}

/** The canonical form, or undefined for values it refuses (a non-finite number such as `1e999`). */
function canonicalOf(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}
