import * as v from 'valibot';
import type { Failure, Outcome } from '../contract/index.ts';
import type { Correlator } from './correlator.ts';
import { expectResult } from './handshake.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';

/** tools/list read loosely: entries are checked one by one (probe-tools.ts), not refused as a page. */
const ListPage = v.looseObject({ tools: v.array(v.unknown()), nextCursor: v.optional(v.unknown()) });

export interface Listing {
  readonly entries: readonly unknown[];
  readonly pages: number;
  /** Complete only if the last page ended the list. */
  readonly complete: boolean;
  readonly findings: readonly ProbeFinding[];
  /** A failure that ended the session (timeout, lost connection, protocol). */
  readonly failure?: Failure;
}

/**
 * Follows tools/list pagination within bounds. An empty-string or
 * non-string cursor is reported and never sent back; a repeated cursor and
 * a page count beyond `maxPages` stop the listing with a finding.
 */
export async function listAll(correlator: Correlator<unknown>, maxPages: number, timeoutMs: number): Promise<Listing> {
  const entries: unknown[] = [];
  const findings: ProbeFinding[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const listed: Outcome<v.InferOutput<typeof ListPage>> = await expectResult(correlator, 'tools/list', cursor === undefined ? {} : { cursor }, ListPage, timeoutMs);
    if (!listed.ok) return { entries, pages: page - 1, complete: false, findings, failure: listed };
    entries.push(...listed.value.tools);
    const next = listed.value.nextCursor;
    if (next === undefined) return { entries, pages: page, complete: true, findings };
    if (typeof next !== 'string' || next === '') {
      // An empty cursor is read as "no more pages" by many clients and as a cursor by others: never sent back.
      findings.push(finding('protocol', 'empty_cursor', 'caplab host rule', `tools/list page ${page} gave nextCursor ${excerpt(next)}; not sent back, listing ends here`, { evidence: excerpt(next) }));
      return { entries, pages: page, complete: false, findings };
    }
    if (seen.has(next)) {
      findings.push(finding('protocol', 'repeated_cursor', 'caplab host rule', `tools/list repeated cursor on page ${page}; listing stopped`, { evidence: excerpt(next) }));
      return { entries, pages: page, complete: false, findings };
    }
    seen.add(next);
    if (page >= maxPages) {
      findings.push(finding('protocol', 'page_limit', 'caplab host rule', `tools/list still paginating after ${maxPages} pages; listing stopped`, { evidence: `nextCursor ${excerpt(next)}` }));
      return { entries, pages: page, complete: false, findings };
    }
    cursor = next;
  }
}
