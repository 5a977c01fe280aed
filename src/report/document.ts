import { LIMITS } from '../contract/index.ts';
import { contextOf, section, type Context } from './context.ts';
import type { FoundLine, FoundRun } from './found.ts';
import { bytesOf, html, join, linkTo, markupOf, type Html } from './html.ts';
import { renderRaw } from './render-run.ts';
import { rendererOf } from './renderers.ts';
import { flatten, nest, type Node } from './tree.ts';
import { renderVerdict, type ReportVerdict } from './verdict.ts';
import { facts, hash, num, str } from './values.ts';
import { STYLE } from './style.ts';

/** What a report is drawn from: verify's verdict and the run dir as found. */
export interface ReportInput {
  /** The run dir as verify was given it (only to keep its path out of the page). */
  readonly dir: string;
  readonly verdict: ReportVerdict;
  readonly run: FoundRun;
}

export interface ReportOptions {
  /** Bytes the page may take (default `LIMITS.reportBytes`). */
  readonly maxBytes?: number;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
/** Bytes kept back for the list of events past the cut and the note that says so. */
const SUMMARY_RESERVE = 64 * 1024;

function renderNode(node: Node, context: Context): Html {
  const nested = join(node.children.map((child) => renderNode(child, context)));
  const renderer = rendererOf(node.line.event?.['type']);
  if (!renderer || !node.line.event) return html`${renderRaw(node.line)}${nested}`;
  return renderer.render(node.line.event, node.line, context, nested);
}

/** One line per event past the cut, by ledger seq, until the reserve is spent; then a count. */
function summaries(lines: readonly FoundLine[], reserve: number): Html {
  const items: Html[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const type = str(line.event, 'type') ?? '(no JSON object)';
    const name = str(line.event, 'name') ?? str(line.event, 'request_id') ?? '';
    const item = html`<li>seq ${line.index}: ${type} ${name}</li>`;
    used += bytesOf(item);
    if (used > reserve) {
      items.push(html`<li>and ${lines.length - i} more events, seq ${line.index} to ${lines[lines.length - 1]!.index}</li>`);
      break;
    }
    items.push(item);
  }
  return html`<ol class="summarized">${items}</ol>`;
}

/** The ledger itself: events, head, format as the seal names them. */
function ledgerSection(run: FoundRun, context: Context): Html {
  const counts = new Map<string, number>();
  for (const line of run.lines) counts.set(str(line.event, 'type') ?? '(no JSON object)', (counts.get(str(line.event, 'type') ?? '(no JSON object)') ?? 0) + 1);
  const types = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([type, n]) => `${type} ${n}`).join(', ');
  return section('Ledger', facts([
    ['lines', `${run.lines.length}${types ? ` (${types})` : ''}`],
    ['problem', run.ledgerProblem],
    ['seal head', run.seal ? hash(run.seal['head']) : 'no seal readable'],
    ['seal count', num(run.seal, 'count')],
    ['seal format', str(run.seal, 'format')],
  ]), context, 'ledger');
}

function page(title: string, body: Html): Html {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${title}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/**
 * The report page: the verdict first, then the run's header and servers,
 * the timeline, acceptance, run end and the ledger. Past `maxBytes`, the
 * timeline stops at the first top-level event that would not fit; every
 * event from there on is listed by ledger seq, and the top says so.
 * Deterministic: no clock, no path, only the record.
 */
export function renderReport(input: ReportInput, options: ReportOptions = {}): string {
  const max = options.maxBytes ?? LIMITS.reportBytes;
  const context = contextOf(input.run, input.verdict.ok);
  const placed = (place: string) => input.run.lines.filter((line) => (rendererOf(line.event?.['type'])?.place ?? 'timeline') === place);
  const head = join(placed('head').map((line) => renderNode({ line, children: [] }, context)));
  const tail = html`${join(placed('tail').map((line) => renderNode({ line, children: [] }, context)))}${ledgerSection(input.run, context)}`;
  const verdict = renderVerdict(input.verdict, input.dir);
  const runId = str(input.run.lines[0]?.event, 'run_id');
  const title = `caplab report${runId === undefined ? '' : ` — ${runId}`}`;
  const fixed = bytesOf(page(title, html`<h1>${title}</h1>${verdict}${head}${tail}`)) + SUMMARY_RESERVE;
  const roots = nest(placed('timeline'));
  const shown: Html[] = [];
  let used = fixed;
  let cut: number | undefined;
  for (const [i, root] of roots.entries()) {
    const markup = renderNode(root, context);
    used += bytesOf(markup);
    if (used > max) {
      cut = i;
      break;
    }
    shown.push(markup);
  }
  const rest = cut === undefined ? [] : flatten(roots.slice(cut));
  const note = rest.length === 0 ? html`` : html`<section class="cut"><p>This page stops at ${rest.length > 0 ? linkTo(rest[0]!.index, `seq ${rest[0]!.index}`) : ''}: showing every event would pass reportBytes (${max} bytes). The ${rest.length} events from there on are listed by ledger seq at the end of the timeline.</p></section>`;
  const timeline = section('Timeline', html`${shown.length > 0 ? shown : html`<p class="note">no request was recorded</p>`}${rest.length > 0 ? html`<h3>Summarized past the cut</h3>${summaries(rest, SUMMARY_RESERVE - 4096)}` : ''}`, context, 'timeline');
  return markupOf(page(title, html`<h1>${title}</h1>${verdict}${note}${head}${timeline}${tail}`));
}
