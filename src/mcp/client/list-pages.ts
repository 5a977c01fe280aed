import * as v from 'valibot';
import type { Failure, Outcome } from '../../contract/index.ts';
import type { Correlator } from '../wire/index.ts';
import { expectResult } from './handshake.ts';

/** tools/list read loosely: entries are kept as sent, for the caller to read one by one, not refused as a page. */
const ListPage = v.looseObject({ tools: v.array(v.unknown()), nextCursor: v.optional(v.unknown()) });

/**
 * Why a listing ended before the server said it was complete:
 * - `empty_cursor`: a `nextCursor` that is `""` or not a string (many clients
 *   read `""` as "no more pages", others as a cursor): never sent back;
 * - `repeated_cursor`: a cursor the listing already followed (a loop);
 * - `page_limit`: still paginating after `maxPages` pages.
 */
export interface ListStop {
  readonly kind: 'empty_cursor' | 'repeated_cursor' | 'page_limit';
  /** The page whose `nextCursor` stopped the listing (1-based). */
  readonly page: number;
  /** That `nextCursor` as the server sent it (any JSON value), for the caller to quote within its own bounds. */
  readonly cursor: unknown;
}

export interface ListPagesOptions {
  readonly maxPages: number;
  /** Entries kept; those past it are counted (`beyond`), not kept. */
  readonly maxEntries: number;
  /** The wait for each page. */
  readonly timeoutMs: number;
  /** Aborted: the page in flight stops waiting and the listing ends with that failure. */
  readonly signal?: AbortSignal;
}

/** What following tools/list pagination gave. */
export interface Pages {
  /** The first `maxEntries` entries listed, as sent (any JSON value each). */
  readonly entries: readonly unknown[];
  /** Entries listed past `maxEntries`: counted, not kept. */
  readonly beyond: number;
  /** Pages answered. */
  readonly pages: number;
  /** Complete only if the last page ended the list (no `nextCursor`) and no page failed. */
  readonly complete: boolean;
  /** What stopped the listing early, if a cursor did. */
  readonly stop?: ListStop;
  /** A page that failed (timeout, lost connection, JSON-RPC error, not a page): the listing ends there. */
  readonly failure?: Failure;
}

/**
 * Follows tools/list pagination within bounds: one engine for probe (which
 * turns stops into findings) and the host session (which turns them into
 * notices). A cursor is sent back only when it is a non-empty string not
 * seen before, and at most `maxPages` pages are asked for.
 *
 * @example
 * const listed = await listPages(correlator, { maxPages: LIMITS.probePages, maxEntries: LIMITS.probeTools, timeoutMs: 10_000 });
 * if (listed.failure) return listed.failure;
 */
export async function listPages(correlator: Correlator<unknown>, options: ListPagesOptions): Promise<Pages> {
  const entries: unknown[] = [];
  let beyond = 0;
  const seen = new Set<string>();
  let cursor: string | undefined;
  const end = (pages: number, complete: boolean, more: { stop?: ListStop; failure?: Failure } = {}): Pages => ({ entries, beyond, pages, complete, ...more });
  for (let page = 1; ; page++) {
    const listed: Outcome<v.InferOutput<typeof ListPage>> = await expectResult(correlator, 'tools/list', cursor === undefined ? {} : { cursor }, ListPage, options.timeoutMs, options.signal);
    if (!listed.ok) return end(page - 1, false, { failure: listed });
    // One at a time: a page of 300,000 entries spread as arguments would overflow the stack.
    for (const entry of listed.value.tools) {
      if (entries.length < options.maxEntries) entries.push(entry);
      else beyond += 1;
    }
    const next = listed.value.nextCursor;
    if (next === undefined) return end(page, true);
    if (typeof next !== 'string' || next === '') return end(page, false, { stop: { kind: 'empty_cursor', page, cursor: next } });
    if (seen.has(next)) return end(page, false, { stop: { kind: 'repeated_cursor', page, cursor: next } });
    seen.add(next);
    if (page >= options.maxPages) return end(page, false, { stop: { kind: 'page_limit', page, cursor: next } });
    cursor = next;
  }
}
