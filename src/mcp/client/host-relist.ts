import { ok, type Outcome } from '../../contract/index.ts';
import { refuse } from '../wire/index.ts';
import { definitions, diffListing, listingNotices } from './host-listing.ts';
import type { Pages } from './list-pages.ts';
import { nameList } from './name-list.ts';

/** A failure as a record names it: class, kind and message (harness's records use this one). */
export interface FailureRecord {
  readonly class: string;
  readonly kind: string;
  readonly message: string;
}

/**
 * One re-list after a `notifications/tools/list_changed`, before that
 * server's next call, as run_end records it: compared with the session's
 * first listing, by name.
 */
export interface RelistRecord {
  readonly outcome: 'unchanged' | 'changed' | 'failed';
  /** Tools listed again with another definition, or no longer listed: their calls are `protocol/tool_drift`. */
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  /** Tools listed for the first time: a notice, never callable. */
  readonly added: readonly string[];
  readonly failure?: FailureRecord;
}

/** What a session saw of `notifications/tools/list_changed`, and each re-list it made. */
export interface ListChanged {
  readonly seen: number;
  readonly relists: readonly RelistRecord[];
}

/** What the drift tracker reads from its session. */
export interface DriftSource {
  /** `notifications/tools/list_changed` received so far (the session counts them from its first message). */
  readonly seen: () => number;
  /** Lists the tools again, as the first listing did. */
  readonly relist: () => Promise<Pages>;
  readonly maxPages: number;
  /** Tells the user something (a re-list added tools, or stopped early). */
  readonly notice: (text: string) => void;
}

/**
 * The host session's answer to `list_changed`: before the next call the tools are listed again (`relist`) and
 * compared with the first listing. A tool changed or removed is drifted for
 * the rest of the session: its calls are refused, never re-bound. One
 * re-list serves every call waiting for it; a failed re-list fails those
 * calls and is tried again before the next.
 */
export class ToolDrift {
  readonly #original: ReadonlyMap<string, string>;
  readonly #source: DriftSource;
  readonly #drifted = new Map<string, 'changed' | 'removed'>();
  readonly #relists: RelistRecord[] = [];
  /** The count of notifications the last good re-list answered. */
  #answered = 0;
  #running: Promise<Outcome<void>> | undefined;

  /** @param entries The session's first listing, which every re-list is compared with. */
  constructor(entries: readonly unknown[], source: DriftSource) {
    this.#original = definitions(entries);
    this.#source = source;
  }

  /** Whether the first listing named this tool. */
  listed(name: string): boolean {
    return this.#original.has(name);
  }

  report(): ListChanged {
    return { seen: this.#source.seen(), relists: this.#relists.slice() };
  }

  /** Before a call of `name`: re-lists if the server announced a change since the last re-list; then whether `name` may still be called. */
  async before(name: string): Promise<Outcome<void>> {
    if (this.#source.seen() > this.#answered) {
      const relisted = await (this.#running ??= this.#run().finally(() => (this.#running = undefined)));
      if (!relisted.ok) return relisted;
    }
    const drift = this.#drifted.get(name);
    if (drift === undefined) return ok(undefined);
    const why = drift === 'changed' ? 'was listed again with another definition' : 'is no longer listed';
    return refuse('protocol', 'tool_drift', `${name} ${why} after tools/list_changed; not sent (a drifted tool is never re-bound)`);
  }

  /** A listing got another way (the first of a new session, after the server ended the old one), compared with the first as a re-list is. */
  adopt(pages: Omit<Pages, 'failure'>): void {
    this.#answered = this.#source.seen();
    this.#record(diffListing(this.#original, pages.entries), pages);
  }

  async #run(): Promise<Outcome<void>> {
    const upTo = this.#source.seen();
    const pages = await this.#source.relist();
    if (pages.failure) {
      const { class: errorClass, kind, message } = pages.failure;
      this.#relists.push({ outcome: 'failed', changed: [], removed: [], added: [], failure: { class: errorClass, kind, message } });
      return pages.failure;
    }
    this.#answered = upTo;
    this.#record(diffListing(this.#original, pages.entries), pages);
    return ok(undefined);
  }

  #record(diff: ReturnType<typeof diffListing>, pages: Omit<Pages, 'failure'>): void {
    const { changed, removed, added } = diff;
    for (const name of changed) this.#drifted.set(name, 'changed');
    for (const name of removed) this.#drifted.set(name, 'removed');
    const same = changed.length === 0 && removed.length === 0 && added.length === 0;
    this.#relists.push({ outcome: same ? 'unchanged' : 'changed', changed, removed, added });
    for (const text of listingNotices(pages, this.#source.maxPages)) this.#source.notice(`re-list: ${text}`);
    if (added.length > 0) this.#source.notice(`re-list after tools/list_changed named ${added.length} new tool(s), not callable in this session: ${nameList(added)}`);
  }
}
