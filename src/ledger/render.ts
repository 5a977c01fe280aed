import type { VerifyOutcome } from './report.ts';

/**
 * Renders a verification result for people: one verdict line, then where and
 * why it failed, or the head hash and counts. Plain text; colour is the CLI's call.
 */
export function renderVerifyText(report: VerifyOutcome): string {
  if (!report.ok) {
    const { at } = report;
    const event = at.line === undefined ? '' : ` — ledger line ${at.line}${at.seq === undefined ? '' : `, seq ${at.seq}`}${at.type === undefined ? '' : ` (${at.type})`}`;
    return [
      `✗ run record does not verify: ${report.class}/${report.kind}`,
      `  at      ${at.file}${event}`,
      `  why     ${report.message}`,
      ...(report.issues ?? []).map((issue) => `  issue   ${issue}`),
      '',
    ].join('\n');
  }
  const { value } = report;
  const types = Object.entries(value.types).map(([type, n]) => `${type} ${n}`);
  return [
    `✓ run record verifies: ${value.dir}`,
    `  format  ${value.format}`,
    `  head    ${value.head}`,
    `  ended   ${value.end.ending}${value.end.cause === undefined ? '' : ` (${value.end.cause})`}, ${value.end.accepted ? 'accepted' : 'not accepted'}, exit ${value.end.exitCode}`,
    `  events  ${value.events}${types.length > 0 ? ` (${types.join(', ')})` : ''}`,
    `  files   ${value.files}, each matching its recorded sha256; none unreferenced`,
    `  checks  ${value.rechecked ? 'acceptance re-checked from the recorded bytes' : 'acceptance not re-checked (no recheck supplied)'}`,
    '',
  ].join('\n');
}
