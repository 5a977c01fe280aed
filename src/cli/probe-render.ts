import type { CloseReport, ProbeFinding, ProbeReport } from '../mcp/index.ts';
import type { NamedCount } from '../platform/index.ts';

const named = (counts: readonly NamedCount[]) => counts.map((c) => `${c.name} ×${c.count}`).join(', ');

/** Survivors of the group and of the escaped processes, what was killed after escaping, or the gap that hides them. */
function closeSummary(close: CloseReport): string {
  const { orphans } = close;
  const parts = [close.survivors.length > 0 || orphans.survivors.length > 0 ? 'SURVIVORS' : 'no survivors'];
  if (close.survivors.length > 0) parts.push(`group members ${close.survivors.join(',')}`);
  if (orphans.survivors.length > 0) parts.push(`escaped (setsid) ${named(orphans.survivors)}`);
  if (orphans.killed.length > 0) parts.push(`killed escaped (setsid) ${named(orphans.killed)}`);
  if (!orphans.subreaper) parts.push(`escaped processes not tracked: ${orphans.gap ?? 'no child subreaper'}`);
  return `, ${parts.join('; ')}`;
}

const EXIT_MEANING: Record<number, string> = { 0: 'clean', 1: 'findings', 3: 'protocol or transport failure', 4: 'outcome unknown', 130: 'interrupted by SIGINT', 143: 'interrupted by SIGTERM' };

function findingLine(f: ProbeFinding, indent: string): string {
  const where = f.tool !== undefined ? `${f.tool}: ` : '';
  const evidence = f.evidence !== undefined ? ` — ${f.evidence}` : '';
  return `${indent}${f.class}/${f.kind} [${f.basis}] ${where}${f.message}${evidence}`;
}

/** Renders a probe report for people: what was started, the server, its tools, calls, findings, and why it ended. */
export function renderProbeText(report: ProbeReport, exit: number): string {
  const lines = [`probe: ${report.command.join(' ')}`];
  lines.push(`  cwd       ${report.cwd}${report.cwdIsTemp ? ' (fresh, removed at close)' : ''}`);
  lines.push(`  env       ${report.envNames.join(', ') || '(none)'} (values not shown)`);
  lines.push(report.serverInfo ? `  server    ${report.serverInfo.name} ${report.serverInfo.version}, MCP ${report.protocolVersion ?? '?'}` : '  server    no handshake');
  if (report.versionNotes) {
    for (const note of report.versionNotes.notApplicable) lines.push(`  n/a       ${note}`);
    for (const note of report.versionNotes.notChecked) lines.push(`  unchecked ${note}`);
  }
  lines.push(`  tools     ${report.tools.length} on ${report.pages} page(s)${report.complete ? '' : ' (list incomplete)'}`);
  for (const tool of report.tools) {
    const hashes = `${tool.inputSchemaHash ? `input ${tool.inputSchemaHash.slice(0, 12)}` : 'no input schema'}${tool.outputSchemaHash ? `  output ${tool.outputSchemaHash.slice(0, 12)}` : ''}`;
    const hints = tool.annotations ? `  hints (untrusted) ${JSON.stringify(tool.annotations)}` : '';
    lines.push(`    ${tool.name}  ${hashes}${hints}`);
  }
  const lc = report.listChanged;
  if (lc.received > 0) lines.push(`  list_changed ${lc.received} received (${lc.declared ? 'declared' : 'not declared'}); re-listed: ${lc.relisted ? (lc.changed ? 'changed' : 'unchanged') : 'no'}`);
  for (const call of report.calls) {
    const detail = [call.contentTypes ? `content ${call.contentTypes.join(',') || 'none'}` : '', call.outputSchema && call.outputSchema !== 'none' ? `outputSchema ${call.outputSchema}` : ''].filter(Boolean).join('  ');
    const judged = call.judgingMs !== undefined ? `, judged in ${call.judgingMs} ms` : '';
    lines.push(`  call      ${call.tool}  ${call.outcome}  ${call.ms} ms${judged}${detail ? `  ${detail}` : ''}`);
    for (const f of call.findings) lines.push(findingLine(f, '    finding '));
  }
  for (const f of report.findings) lines.push(findingLine(f, '  finding   '));
  if (report.failure) {
    lines.push(findingLine(report.failure, '  ENDED     '));
    const code = report.close?.exitCode;
    lines.push(`  server    exit ${code === undefined ? 'unknown' : code === null ? 'by signal' : `code ${code}`}`);
    const tail = report.stderr.trimEnd().split('\n').slice(-10);
    if (report.stderr.trim() !== '') lines.push('  stderr    (last lines)', ...tail.map((line) => `    | ${line}`));
  }
  if (report.hint) lines.push(`  hint      ${report.hint}`);
  if (report.close) lines.push(`  closed    ${report.close.steps.join(' → ')}${closeSummary(report.close)}`);
  lines.push(`  exit      ${exit} (${EXIT_MEANING[exit] ?? '?'})`);
  return `${lines.join('\n')}\n`;
}
