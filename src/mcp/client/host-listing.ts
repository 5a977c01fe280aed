import { clipChars } from '../../base/index.ts';
import { canonicalJson, LIMITS } from '../../contract/index.ts';
import type { ListStop, Pages } from './list-pages.ts';

/** A listed entry's name, when it has one (an entry without a string name cannot be called by name). */
export function entryName(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const name = (entry as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Each listed name with its definition: the canonical JSON of every entry of
 * that name, in listing order (a name listed twice is one definition of two
 * entries, so listing it once later is a change).
 */
export function definitions(entries: readonly unknown[]): Map<string, string> {
  const grouped = new Map<string, unknown[]>();
  for (const entry of entries) {
    const name = entryName(entry);
    if (name === undefined) continue;
    const group = grouped.get(name);
    if (group) group.push(entry);
    else grouped.set(name, [entry]);
  }
  return new Map([...grouped].map(([name, group]) => [name, canonicalJson(group)]));
}

/** How a listing differs from the one the session started with, by name. */
export interface ListingDiff {
  /** Listed again with another definition. */
  readonly changed: readonly string[];
  /** No longer listed (or not reached: a listing stopped early cannot vouch for the rest). */
  readonly removed: readonly string[];
  /** Listed for the first time. */
  readonly added: readonly string[];
}

/** Compares a re-listing with the original definitions, name by name. */
export function diffListing(original: ReadonlyMap<string, string>, entries: readonly unknown[]): ListingDiff {
  const now = definitions(entries);
  const changed: string[] = [];
  const removed: string[] = [];
  for (const [name, definition] of original) {
    const again = now.get(name);
    if (again === undefined) removed.push(name);
    else if (again !== definition) changed.push(name);
  }
  return { changed, removed, added: [...now.keys()].filter((name) => !original.has(name)) };
}

/** A cursor as a notice quotes it: a string as JSON, cut at `evidenceChars`; any other value by its type. */
function quoteCursor(cursor: unknown): string {
  if (typeof cursor === 'string') return JSON.stringify(clipChars(cursor, LIMITS.evidenceChars));
  if (cursor === null) return 'null';
  if (typeof cursor === 'number' || typeof cursor === 'boolean') return String(cursor);
  return Array.isArray(cursor) ? 'an array' : `an ${typeof cursor}`;
}

const STOPPED: Readonly<Record<ListStop['kind'], string>> = {
  empty_cursor: 'an empty or non-string nextCursor (never sent back)',
  repeated_cursor: 'a cursor it had already followed',
  page_limit: 'the page limit',
};

/** What a user is told about a listing that was not complete or not kept whole. */
export function listingNotices(pages: Pages, maxPages: number): string[] {
  const notices: string[] = [];
  if (pages.stop) {
    const { kind, page, cursor } = pages.stop;
    const limit = kind === 'page_limit' ? ` (${maxPages} pages)` : '';
    notices.push(`tools/list stopped at page ${page} on ${STOPPED[kind]}${limit}: nextCursor ${quoteCursor(cursor)}; tools past it are not listed`);
  }
  if (pages.beyond > 0) notices.push(`tools/list gave ${pages.entries.length + pages.beyond} entries; the first ${pages.entries.length} are kept (probeTools), ${pages.beyond} are not`);
  return notices;
}
