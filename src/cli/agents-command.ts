import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inert } from '../base/index.ts';
import { discoverAgentTypes, offeredTools, PROJECT_AGENTS, subagentTools, widerThan, type AgentType, type AgentTypes } from '../harness/index.ts';
import { EXIT } from './exit.ts';
import { repeatedFlag } from './flags.ts';
import { HELP } from './help.ts';
import type { Io } from './io.ts';
import type { CliTask } from './tasks.ts';

const OPTIONS = {
  'agents-dir': { type: 'string', multiple: true },
  trust: { type: 'boolean' },
  'trust-project': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** One type as `caplab agents` reports it: where it is from, the tools it would get under the task's, what is not applied, and why a call would be refused. */
interface TypeReport {
  readonly name: string;
  readonly description: string;
  readonly source: string;
  readonly path: string;
  readonly sha256: string;
  readonly tools: readonly string[];
  readonly max_turns: number | null;
  readonly not_applied: readonly string[];
  readonly refused: string | null;
}

/** A type under the task's tools (every tool the task offers, as an Agent call's producing request would pin them). */
function typeReport(type: AgentType, offered: readonly string[]): TypeReport {
  const wider = widerThan(type, offered, []);
  return {
    name: type.name,
    description: type.description,
    source: type.source,
    path: type.path,
    sha256: type.sha256,
    tools: subagentTools(type, offered),
    max_turns: type.maxTurns ?? null,
    not_applied: type.notApplied,
    refused: type.background ? 'precondition/background_unsupported: background: true' : wider.length > 0 ? `precondition/subagent_tools_wider: ${wider.join('; ')}` : null,
  };
}

/** The report: every type (the host's general-purpose first), then the files that could not be read. */
export function agentsReport(found: AgentTypes, offered: readonly string[]): { readonly types: readonly TypeReport[]; readonly unreadable: AgentTypes['refused'] } {
  return { types: found.types.map((type) => typeReport(type, offered)), unreadable: found.refused };
}

function renderText(report: ReturnType<typeof agentsReport>): string {
  const lines = report.types.flatMap((t) => [
    `${t.name} (${t.source}${t.source === 'host' ? '' : `, ${t.path}`})`,
    `  ${t.description}`,
    `  tools: ${t.tools.join(', ') || 'none'}${t.max_turns !== null ? `; maxTurns ${t.max_turns}` : ''}`,
    ...(t.not_applied.length > 0 ? [`  recorded, not applied: ${t.not_applied.join(', ')}`] : []),
    ...(t.refused ? [`  a call is refused: ${t.refused}`] : []),
  ]);
  const unreadable = report.unreadable.map((r) => `${r.name} (${r.path}): not read — ${r.reason}; a call naming it is refused precondition/subagent_type_refused`);
  return [...lines, ...unreadable].map((line) => inert(line)).join('\n');
}

/**
 * `caplab agents [--agents-dir DIR]… [--trust] [--json]`: the subagent types a
 * run would offer through Agent, each with its source, the tools it would get
 * under the task's own, its fields not applied and the refusal a call to it
 * would meet.
 */
export function agentsCommand(args: readonly string[], io: Io, { task }: CliTask): number {
  let values;
  try {
    values = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return io.stderr(`caplab agents: ${(error as Error).message}\n`), EXIT.usage;
  }
  const repeated = repeatedFlag(args, OPTIONS);
  if (repeated) return io.stderr(`caplab agents: ${repeated}\n`), EXIT.usage;
  if (values.help) return io.stdout(`${HELP['agents']}\n`), EXIT.ok;
  const dirs = values['agents-dir'] ?? [];
  if (dirs.includes('')) return io.stderr('caplab agents: --agents-dir needs a folder; an empty path would mean the working directory\n'), EXIT.usage;
  const trust = (values.trust ?? false) || (values['trust-project'] ?? false);
  const found = discoverAgentTypes({ dirs, trust, cwd: io.cwd });
  if (!found.ok) return io.stderr(`caplab agents: ${found.class}/${found.kind}: ${found.message}\n`), EXIT.usage;
  if (!trust && existsSync(resolve(io.cwd, PROJECT_AGENTS))) io.stderr(`caplab: ignored untrusted project subagents ./${PROJECT_AGENTS}/ (pass --trust to read them)\n`);
  const report = agentsReport(found.value, offeredTools(task).map((offer) => offer.contract.name));
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderText(report)}\n`);
  return EXIT.ok;
}
