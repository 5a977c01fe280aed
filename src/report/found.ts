import { join } from 'node:path';
import { jsonTooDeep, LIMITS } from '../contract/index.ts';
import { defaultFs, LEDGER_FILE, readRecorded, SEAL_FILE } from '../ledger/index.ts';

/** A JSON object as found in a record: every field the renderers read is checked where it is read. */
export type Found = Readonly<Record<string, unknown>>;

/** One line of `ledger.jsonl` as found: its place, its JSON object, or its text when it holds none. */
export interface FoundLine {
  /** 0-based place in the ledger: the event's seq when the record verifies, and its anchor. */
  readonly index: number;
  readonly event?: Found;
  /** The line's text, when it is no JSON object (or nests deeper than `recordJsonDepth`). */
  readonly text?: string;
}

/** What a run dir holds, as found: its lines, its seal, and a reader of its files. */
export interface FoundRun {
  readonly lines: readonly FoundLine[];
  /** Why the ledger could not be read at all (absent, not a file, too large). */
  readonly ledgerProblem?: string;
  readonly seal?: Found;
  /** A file of the run dir, by its path there, through verify's bounded reader; undefined when it cannot be read. */
  read(relPath: string): Uint8Array | undefined;
}

const lenient = new TextDecoder('utf-8', { fatal: false });

/** A JSON object from text, when the text is one and nests no deeper than the record's bound. */
export function objectOf(text: string): Found | undefined {
  if (jsonTooDeep(text, LIMITS.recordJsonDepth)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Found) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a run dir as found, for a report of a record that may not verify:
 * every file through `readRecorded` (regular files only, no symlink
 * followed, at most `recordFileBytes`), the ledger line by line, each line
 * kept as its JSON object or, when it holds none, as its text. Nothing is
 * refused here: the verdict is verify's; this is what there is to show.
 */
export function readFound(dir: string): FoundRun {
  const read = (relPath: string): Uint8Array | undefined => {
    // A recorded path is the record's word: one that climbs out of the run dir is never read.
    if (relPath.split('/').some((part) => part === '..' || part === '') || relPath.startsWith('/')) return undefined;
    const bytes = readRecorded(defaultFs, join(dir, relPath), relPath, LIMITS.recordFileBytes);
    return bytes.ok ? bytes.value : undefined;
  };
  const sealBytes = readRecorded(defaultFs, join(dir, SEAL_FILE), SEAL_FILE, LIMITS.recordSealBytes);
  const seal = sealBytes.ok ? objectOf(lenient.decode(sealBytes.value)) : undefined;
  const ledger = readRecorded(defaultFs, join(dir, LEDGER_FILE), LEDGER_FILE, LIMITS.recordFileBytes);
  if (!ledger.ok) return { lines: [], ledgerProblem: ledger.message, ...(seal ? { seal } : {}), read };
  const text = lenient.decode(ledger.value);
  const rows = text.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  const lines = rows.map((row, index): FoundLine => {
    const event = objectOf(row);
    return event ? { index, event } : { index, text: row };
  });
  return { lines, ...(seal ? { seal } : {}), read };
}
