import { clipChars } from '../base/index.ts';
import { LIMITS } from '../contract/index.ts';
import { allFindings, isClipped, LEVELS, type Level, type Clipped, type CloseReport, type HttpCloseReport, type ProbeFinding, type ProbeReport, type ReportedCall } from '../mcp/index.ts';
import type { NamedCount } from '../platform/index.ts';
import { inert } from '../base/index.ts';

const named = (counts: readonly NamedCount[]) => counts.map((c) => `${c.name} ×${c.count}`).join(', ');

/** How an HTTP session ended: its DELETE (or why none was sent), and the POSTs cut off. */
function httpCloseLine(close: HttpCloseReport): string {
  const { session } = close;
  const ended = !session.deleted ? `no DELETE (${session.why})` : 'status' in session ? `DELETE → ${session.status}` : `DELETE failed (${session.error})`;
  return `${ended}; ${close.aborted === 0 ? 'no request in flight' : `${close.aborted} request(s) in flight aborted, outcome unknown`}`;
}

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

/** A clipped value as one line: why, its size and hash, and its start. */
function clippedLine(value: Clipped): string {
  const why = value.clipped === 'depth' ? `nested deeper than ${LIMITS.reportValueDepth}` : `over ${LIMITS.reportValueBytes} bytes`;
  return `[clipped, ${why}: ${value.bytes} bytes, sha256 ${value.sha256.slice(0, 12)}] ${clipChars(value.head, LIMITS.evidenceChars)}`;
}

/** A bounded server string as shown. */
const text = (value: string | Clipped): string => (typeof value === 'string' ? value : clippedLine(value));

/** A bounded server value (annotations) as shown: its JSON, or what was clipped. */
const json = (value: unknown): string => (isClipped(value) ? clippedLine(value) : JSON.stringify(value));

/** How many findings of each level the report holds (the session's, each call's, what ended it). */
function levelCounts(report: ProbeReport): string {
  const all = allFindings(report);
  return LEVELS.map((level) => `${all.filter((f) => (f.level ?? 'error') === level).length} ${level}`).join(', ');
}

const ENDED = '  ENDED     ';

function findingLine(f: ProbeFinding, indent: string): string {
  const where = f.tool !== undefined ? `${text(f.tool)}: ` : '';
  // A failure whose message is its own evidence (it quotes what the transport saw) says it once.
  const evidence = f.evidence !== f.message ? ` — ${f.evidence}` : '';
  // What ended the session is no finding to weigh: it exits 3 or 4 whatever its level.
  const level = f.level !== undefined && indent !== ENDED ? `${f.level} ` : '';
  return `${indent}${level}${f.class}/${f.kind} [${f.basis}] ${where}${f.message}${evidence}`;
}

function callLines(call: ReportedCall): string[] {
  if (call.outcome === 'not_sent') return [`  call      ${text(call.tool)}  not_sent  (${call.why ?? 'not sent'})`];
  const detail = [call.contentTypes ? `content ${call.contentTypes.join(',') || 'none'}` : '', call.outputSchema && call.outputSchema !== 'none' ? `outputSchema ${call.outputSchema}` : ''].filter(Boolean).join('  ');
  const judged = call.judgingMs !== undefined ? `, judged in ${call.judgingMs} ms` : '';
  const lines = [`  call      ${text(call.tool)}  ${call.outcome}  ${call.ms} ms${judged}${detail ? `  ${detail}` : ''}`];
  // The first text block, as evidence is shown: a server's "Error: … failed" without isError is seen here.
  if (call.text !== undefined) lines.push(`    text    ${typeof call.text === 'string' ? clipChars(JSON.stringify(call.text), LIMITS.evidenceChars) : clippedLine(call.text)}`);
  if (call.note) lines.push(`    note    ${call.note}`);
  if (call.task) lines.push(...taskLines(call.task));
  for (const f of call.findings) lines.push(findingLine(f, '    finding '));
  return lines;
}

/** A call's task: its id, each status as first seen (ms after the call was sent), the polls, the one cancel. */
function taskLines(task: NonNullable<ReportedCall['task']>): string[] {
  const id = task.taskId === undefined ? 'no task id' : `task ${text(task.taskId)}`;
  const steps = task.transitions.map((t) => `${t.status} at ${t.ms} ms`).join(' → ');
  const lines = [`    task    ${id}: ${steps || 'no status'}; ${task.polls} tasks/get${task.resultAsked ? ', tasks/result' : ''}`];
  if (task.cancel) lines.push(`    cancel  tasks/cancel at ${task.cancel.ms} ms: ${json(task.cancel.answer)}`);
  return lines;
}

/** `--task-status`: the status the server states (and a completed task's text), or that it does not know the task. */
function taskStatusLines(status: NonNullable<ProbeReport['taskStatus']>): string[] {
  const lines: string[] = [];
  if (status.unknownToServer) lines.push(`  task      ${status.taskId}: unknown to the server (${status.unknownToServer.code}: ${status.unknownToServer.message})`);
  else if (status.status !== undefined) lines.push(`  task      ${status.taskId}: ${status.status}${status.terminal ? ' (terminal)' : ' (not terminal)'}, updated ${status.lastUpdatedAt ?? '?'}${status.statusMessage !== undefined ? ` — ${JSON.stringify(status.statusMessage)}` : ''}`);
  if (status.result?.text !== undefined) lines.push(`    text    ${clipChars(JSON.stringify(status.result.text), LIMITS.evidenceChars)}${status.result.isError ? ' (isError)' : ''}`);
  for (const f of status.findings) lines.push(findingLine(f, '    finding '));
  return lines;
}

/** What probe reached: a command with its cwd and environment names, or a URL with its header names (values never shown). */
function reachedLines(report: ProbeReport): string[] {
  if ('url' in report) return [`probe: ${report.url}`, `  headers   ${report.headerNames.join(', ') || '(none)'} (values not shown)`];
  return [
    `probe: ${report.command.join(' ')}`,
    `  cwd       ${report.cwd}${report.cwdIsTemp ? ' (fresh, removed at close)' : ''}`,
    `  env       ${report.envNames.join(', ') || '(none)'} (values not shown)`,
  ];
}

/**
 * Renders a probe report for people: what was started, the server, its
 * tools, calls, findings, its stderr, and why it ended. Every line is made
 * inert (`inert`): nothing a server sent acts on the terminal or starts a
 * line of its own.
 */
export function renderProbeText(report: ProbeReport, exit: number, failOn: Level = 'error'): string {
  const lines = reachedLines(report);
  const server = report.serverInfo;
  lines.push(server ? `  server    ${text(server.name)} ${text(server.version)}, MCP ${report.protocolVersion === undefined ? '?' : text(report.protocolVersion)}` : '  server    no handshake');
  if (server?.description !== undefined) lines.push(`  about     ${typeof server.description === 'string' ? text(server.description) : json(server.description)}${server.websiteUrl !== undefined ? `  (${json(server.websiteUrl)}, not fetched)` : ''}`);
  if (report.negotiation) lines.push(`  era       ${report.negotiation.era} (--protocol ${report.negotiation.mode}): ${text(report.negotiation.signal)}`);
  if (report.versionNotes) {
    for (const note of report.versionNotes.notApplicable) lines.push(`  n/a       ${note}`);
    for (const note of report.versionNotes.notChecked) lines.push(`  unchecked ${note}`);
  }
  lines.push(`  tools     ${report.tools.length} on ${report.pages} page(s)${report.complete ? '' : ' (list incomplete)'}`);
  for (const tool of report.tools) {
    const hashes = `${tool.inputSchemaHash ? `input ${tool.inputSchemaHash.slice(0, 12)}` : 'no input schema'}${tool.outputSchemaHash ? `  output ${tool.outputSchemaHash.slice(0, 12)}` : ''}`;
    const hints = tool.annotations !== undefined ? `  hints (untrusted) ${json(tool.annotations)}` : '';
    const tasked = typeof tool.taskSupport === 'string' ? `  taskSupport ${text(tool.taskSupport)}` : tool.taskSupport !== undefined ? `  taskSupport ${json(tool.taskSupport)}` : '';
    lines.push(`    ${text(tool.name)}${tool.title !== undefined ? ` (${text(tool.title)})` : ''}  ${hashes}${hints}${tasked}`);
  }
  if (report.taskStatus) lines.push(...taskStatusLines(report.taskStatus));
  const lc = report.listChanged;
  if (lc.received > 0) lines.push(`  list_changed ${lc.received} received (${lc.declared ? 'declared' : 'not declared'}); re-listed: ${lc.relisted ? (lc.changed ? 'changed' : 'unchanged') : 'no'}`);
  for (const call of report.calls) lines.push(...callLines(call));
  for (const f of report.findings) lines.push(findingLine(f, '  finding   '));
  if (report.failure) {
    lines.push(findingLine(report.failure, ENDED));
    // A process's exit: an HTTP server is no process of probe's.
    if (!('url' in report)) {
      const code = report.close?.exitCode;
      lines.push(`  server    exit ${code === undefined ? 'unknown' : code === null ? 'by signal' : `code ${code}`}`);
    }
  }
  if (report.stderr.trim() !== '') lines.push('  stderr    (last lines)', ...report.stderr.trimEnd().split('\n').slice(-10).map((line) => `    | ${line}`));
  if (report.hint) lines.push(`  hint      ${report.hint}`);
  if ('url' in report) {
    if (report.close) lines.push(`  closed    ${httpCloseLine(report.close)}`);
  } else if (report.close) lines.push(`  closed    ${report.close.steps.join(' → ')}${closeSummary(report.close)}`);
  lines.push(`  levels    ${levelCounts(report)} (--fail-on ${failOn})`);
  lines.push(`  exit      ${exit} (${EXIT_MEANING[exit] ?? '?'})`);
  return `${lines.map(inert).join('\n')}\n`;
}
