import { LIMITS, type Failure } from '../../contract/index.ts';
import type { Correlator } from '../wire/index.ts';
import { listPages, type ListStop } from '../client/index.ts';
import { excerpt, finding, type ProbeFinding } from './probe-finding.ts';

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

/** The finding for what stopped the listing early. */
function stopFinding(stop: ListStop, maxPages: number): ProbeFinding {
  const { page, cursor } = stop;
  switch (stop.kind) {
    case 'empty_cursor':
      return finding('protocol', 'empty_cursor', 'caplab host rule', `tools/list page ${page} gave nextCursor ${excerpt(cursor)}; not sent back, listing ends here`, { evidence: excerpt(cursor) });
    case 'repeated_cursor':
      return finding('protocol', 'repeated_cursor', 'caplab host rule', `tools/list repeated cursor on page ${page}; listing stopped`, { evidence: excerpt(cursor) });
    case 'page_limit':
      return finding('protocol', 'page_limit', 'caplab host rule', `tools/list still paginating after ${maxPages} pages; listing stopped`, { evidence: `nextCursor ${excerpt(cursor)}` });
  }
}

/**
 * Follows tools/list pagination within bounds (the client's `listPages`). An
 * empty-string or non-string cursor is reported and never sent back; a
 * repeated cursor and a page count beyond `maxPages` stop the listing with a
 * finding. Entries past `probeTools` are counted (one `too_many_tools`
 * finding), not kept.
 */
export async function listAll(correlator: Correlator<unknown>, maxPages: number, timeoutMs: number): Promise<Listing> {
  const listed = await listPages(correlator, { maxPages, maxEntries: LIMITS.probeTools, timeoutMs });
  const { entries, beyond, pages, complete } = listed;
  const findings = [...(listed.stop ? [stopFinding(listed.stop, maxPages)] : []), ...tooMany(entries.length, beyond)];
  return { entries, beyond, pages, complete, findings, ...(listed.failure ? { failure: listed.failure } : {}) };
}
