import type { VerifyOutcome } from '../ledger/index.ts';
import { html, type Html } from './html.ts';
import { hash } from './values.ts';

/** What `verify` said of the record, acceptance re-computed by the recheck of the task run_start names. */
export type ReportVerdict = VerifyOutcome<{ readonly decided: boolean; readonly accepted: boolean }>;

/** A path-free message: the run dir's own path, wherever verify named it, as `RUN_DIR` (a copy elsewhere reads the same). */
const relative = (message: string, dir: string): string => message.split(`${dir}/`).join('').split(dir).join('RUN_DIR');

/** The verdict line of a record that verifies: its re-computed acceptance, unless the run ended otherwise after it. */
function accepted(verdict: Extract<ReportVerdict, { ok: true }>): string {
  const recheck = verdict.value.recheck;
  const ending = verdict.value.end.ending;
  if (!recheck?.decided) return `no verdict: the run ended ${ending} before acceptance`;
  const decided = `${recheck.accepted ? 'accepted' : 'not accepted'} (re-computed)`;
  return ending === 'completed' ? decided : `no verdict: the run ended ${ending} after its acceptance was decided, ${decided}`;
}

/** The page's first section: verifies (and the re-computed verdict), or does not verify with class/kind at the file or event. */
export function renderVerdict(verdict: ReportVerdict, dir: string): Html {
  if (!verdict.ok) {
    const { at } = verdict;
    const event = at.line === undefined ? '' : ` — ledger line ${at.line}${at.seq === undefined ? '' : `, seq ${at.seq}`}${at.type === undefined ? '' : ` (${at.type})`}`;
    return html`<section class="verdict bad" aria-label="verdict"><p class="verdict-line" data-verdict="fails">✗ does not verify: ${verdict.class}/${verdict.kind} at ${relative(at.file, dir)}${event}</p>
<p>${relative(verdict.message, dir)}</p>${(verdict.issues ?? []).map((issue) => html`<p class="note">${relative(issue, dir)}</p>`)}
<p class="note">Every section below shows the record as found: nothing in it is vouched for.</p></section>`;
  }
  const v = verdict.value;
  const line = accepted(verdict);
  return html`<section class="verdict ok" aria-label="verdict"><p class="verdict-line" data-verdict="verifies">✓ verifies — ${line}</p>
<p>format ${v.format}, ${v.events} events, ${v.files} files each matching its recorded sha256, none unreferenced; ended ${v.end.ending}${v.end.cause === undefined ? '' : ` (${v.end.cause})`}, exit ${v.end.exitCode}</p>
<p>head ${hash(v.head)}</p></section>`;
}
