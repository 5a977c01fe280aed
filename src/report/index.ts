/**
 * `caplab report`'s page (issue 31): one self-contained, script-free HTML
 * file of a run dir — verify's verdict first, then every event of the
 * record, each shown by its type's renderer (`RENDERERS`), an unknown one as
 * its raw JSON. A side rail on `ledger` and `contract`: the CLI runs verify
 * and hands the verdict in; files are read only through the ledger's
 * bounded reader. Every recorded string is escaped by the `html` tag.
 */
export { readFound } from './found.ts';
export type { Found, FoundLine, FoundRun } from './found.ts';
export { renderReport } from './document.ts';
export type { ReportInput, ReportOptions } from './document.ts';
export { RENDERERS } from './renderers.ts';
export type { Place, Renderer } from './renderers.ts';
export type { ReportVerdict } from './verdict.ts';
