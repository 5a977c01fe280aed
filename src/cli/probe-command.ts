import { probe, type CloseReport, type ProbeReport } from '../mcp/index.ts';
import type { NamedCount } from '../platform/index.ts';
import { HELP } from './help.ts';
import { EXIT, type Io } from './io.ts';

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

/** Renders a probe report for people. */
function renderProbeText(report: ProbeReport): string {
  const lines = [`probe: ${report.launch.command.join(' ')}`];
  lines.push(report.serverInfo ? `  server    ${report.serverInfo.name} ${report.serverInfo.version}, MCP ${report.protocolVersion ?? '?'}` : '  server    no handshake');
  lines.push(`  tools     ${report.tools.length} on ${report.pages} page(s)${report.complete ? '' : ' (list incomplete)'}`);
  for (const tool of report.tools) lines.push(`    ${tool.name}  input ${tool.inputSchemaHash.slice(0, 12)}${tool.outputSchemaHash ? `  output ${tool.outputSchemaHash.slice(0, 12)}` : ''}`);
  for (const f of report.findings) lines.push(`  finding   ${f.class}/${f.kind}: ${f.message}`);
  if (report.close) lines.push(`  closed    ${report.close.steps.join(' → ')}${closeSummary(report.close)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `caplab probe [--json] -- CMD ARGS…`: connects to any stdio MCP server with
 * the general profile (bounded pagination, any supported version) and reports
 * what it found, including what the strict profile would refuse. Calls no tool.
 */
export async function probeCommand(args: readonly string[], io: Io): Promise<number> {
  const dash = args.indexOf('--');
  const flags = dash < 0 ? args : args.slice(0, dash);
  const command = dash < 0 ? [] : args.slice(dash + 1);
  if (flags.includes('--help') || flags.includes('-h')) return io.stdout(`${HELP['probe']}\n`), EXIT.ok;
  const unknown = flags.find((f) => f !== '--json');
  if (unknown !== undefined) return io.stderr(`caplab probe: unknown option ${unknown}\nSee \`caplab probe --help\`.\n`), EXIT.usage;
  if (command.length === 0) return io.stderr('caplab probe: needs a server command after --\n'), EXIT.usage;
  const report = await probe(command, { cwd: io.cwd, envSource: io.env, ...(io.interrupt ? { signal: io.interrupt } : {}) });
  io.stdout(flags.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : renderProbeText(report));
  if (!report.serverInfo) return EXIT.protocol;
  return report.findings.length > 0 ? EXIT.failed : EXIT.ok;
}
