import * as v from 'valibot';
import { LIMITS, type Failure, type Outcome } from '../../contract/index.ts';
import type { Correlator } from '../wire/index.ts';
import { expectResult } from '../client/index.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';

/** tools/list read loosely: entries are checked one by one (probe-tools.ts), not refused as a page. */
const ListPage = v.looseObject({ tools: v.array(v.unknown()), nextCursor: v.optional(v.unknown()) });

export interface Listing {
  /** The first `probeTools` entries listed. */
  readonly entries: readonly unknown[];
  /** Entries listed past `probeTools`: counted, not kept. */
  readonly beyond: number;
  readonly pages: number;
  /** Complete only if the last page ended the list. */
  readonly complete: boolean;
  readonly findings: readonly ProbeFinding[];
  /** A failure that ended the session (timeout, lost connection, protocol). */
  readonly failure?: Failure;
}

/** The finding for entries past `probeTools`, if any. */
function tooMany(kept: number, beyond: number): ProbeFinding[] {
  if (beyond === 0) return [];
  const message = `the server listed ${kept + beyond} tools; probe checks the first ${LIMITS.probeTools} (probeTools), the other ${beyond} are counted, not checked`;
  return [finding('protocol', 'too_many_tools', 'caplab host rule', message, { evidence: `${kept + beyond} listed, ${beyond} not checked` })];
}

/**
 * Follows tools/list pagination within bounds. An empty-string or
 * non-string cursor is reported and never sent back; a repeated cursor and
 * a page count beyond `maxPages` stop the listing with a finding. Entries
 * past `probeTools` are counted (one `too_many_tools` finding), not kept.
 */
export async function listAll(correlator: Correlator<unknown>, maxPages: number, timeoutMs: number): Promise<Listing> {
  const entries: unknown[] = [];
  let beyond = 0;
  const findings: ProbeFinding[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  const end = (pages: number, complete: boolean, failure?: Failure): Listing => ({
    entries,
    beyond,
    pages,
    complete,
    findings: [...findings, ...tooMany(entries.length, beyond)],
    ...(failure ? { failure } : {}),
  });
  for (let page = 1; ; page++) {
    const listed: Outcome<v.InferOutput<typeof ListPage>> = await expectResult(correlator, 'tools/list', cursor === undefined ? {} : { cursor }, ListPage, timeoutMs);
    if (!listed.ok) return end(page - 1, false, listed);
    // One at a time: a page of 300,000 entries spread as arguments would overflow the stack.
    for (const entry of listed.value.tools) {
      if (entries.length < LIMITS.probeTools) entries.push(entry);
      else beyond += 1;
    }
    const next = listed.value.nextCursor;
    if (next === undefined) return end(page, true);
    if (typeof next !== 'string' || next === '') {
      // An empty cursor is read as "no more pages" by many clients and as a cursor by others: never sent back.
      findings.push(finding('protocol', 'empty_cursor', 'caplab host rule', `tools/list page ${page} gave nextCursor ${excerpt(next)}; not sent back, listing ends here`, { evidence: excerpt(next) }));
      return end(page, false);
    }
    if (seen.has(next)) {
      findings.push(finding('protocol', 'repeated_cursor', 'caplab host rule', `tools/list repeated cursor on page ${page}; listing stopped`, { evidence: excerpt(next) }));
      return end(page, false);
    }
    seen.add(next);
    if (page >= maxPages) {
      findings.push(finding('protocol', 'page_limit', 'caplab host rule', `tools/list still paginating after ${maxPages} pages; listing stopped`, { evidence: `nextCursor ${excerpt(next)}` }));
      return end(page, false);
    }
    cursor = next;
  }
}
