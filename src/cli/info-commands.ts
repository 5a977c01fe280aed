import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createTaskContract, setPropertiesContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { bindTable, describeTools, MODEL_TARGETS, renderToolsText, type ModelTarget, type ToolEntry } from '../binding/index.ts';
import { inert } from '../base/index.ts';
import { describeSkills, discoverSkills, renderSkillsText } from '../skill/index.ts';
import { EMPTY_SKILLS, repeatedFlag } from './flags.ts';
import { HELP } from './help.ts';
import { EXIT } from './exit.ts';
import type { Io } from './io.ts';
import { offeredTools, toolVersions } from '../harness/index.ts';
import { isDeferred, toolsDefer } from './defer-flag.ts';
import type { CliTask } from './tasks.ts';

/**
 * The library's example contracts `caplab tools` shows after the task's own
 * tools (update semantics a task's tools must not be widened to show).
 */
const EXAMPLE_ENTRIES: readonly ToolEntry[] = [
  { contract: updateNoteContract, implementation: { kind: 'local', version: 'example/1' } },
  { contract: createTaskContract, implementation: { kind: 'local', version: 'example/1' } },
  { contract: setPropertiesContract, implementation: { kind: 'local', version: 'example/1' } },
];

interface InfoFlags {
  readonly values: {
    readonly json?: boolean;
    readonly help?: boolean;
    readonly model?: string;
    readonly skills?: readonly string[];
    readonly 'defer-tool'?: readonly string[];
    readonly trust?: boolean;
    readonly 'trust-project'?: boolean;
  };
}

type ExtraOptions = Record<string, { readonly type: 'string'; readonly multiple?: boolean } | { readonly type: 'boolean' }>;

function parse(args: readonly string[], io: Io, command: string, extra: ExtraOptions = {}): InfoFlags | undefined {
  const options = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...extra } as const;
  let message: string | undefined;
  try {
    const parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: false }) as InfoFlags;
    message = repeatedFlag(args, options);
    if (!message) return parsed;
  } catch (error) {
    message = (error as Error).message;
  }
  io.stderr(`caplab ${command}: ${message}\n`);
  return undefined;
}

/** `caplab tools [--model plain|strict|anthropic] [--defer-tool NAME]… [--json]`: the task's tools (and ToolSearch when one is deferred), then the examples. */
export function toolsCommand(args: readonly string[], io: Io, { task }: CliTask): number | Promise<number> {
  if (args.some((arg) => arg === '--mcp-config' || arg.startsWith('--mcp-config='))) return import('./tools-servers.ts').then(({ toolsServersCommand }) => toolsServersCommand(args, io));
  const parsed = parse(args, io, 'tools', { model: { type: 'string' }, 'defer-tool': { type: 'string', multiple: true } });
  if (!parsed) return EXIT.usage;
  if (parsed.values.help) return io.stdout(`${HELP['tools']}\n`), EXIT.ok;
  const target = (parsed.values.model ?? 'plain') as ModelTarget;
  if (!MODEL_TARGETS.includes(target)) {
    io.stderr(`caplab tools: --model must be one of ${MODEL_TARGETS.join(', ')}\n`);
    return EXIT.usage;
  }
  const offers = offeredTools(task);
  const defer = toolsDefer(parsed.values['defer-tool'] ?? [], offers);
  if (!defer.ok) return io.stderr(`caplab tools: ${defer.class}/${defer.kind}: ${defer.message}\n`), EXIT.usage;
  const deferred = new Set(offers.filter((offer) => isDeferred(defer.value.rules, offer)).map((offer) => offer.binding.tool));
  const entries = [...offers, ...defer.value.search].map(({ contract, implementation }): ToolEntry => ({ contract, implementation }));
  const described = describeTools(bindTable([...entries, ...EXAMPLE_ENTRIES], target));
  const description = { ...described, tools: described.tools.map((tool) => (tool.status === 'bound' && deferred.has(tool.tool) ? { ...tool, deferred: true as const } : tool)) };
  io.stdout(parsed.values.json ? `${JSON.stringify(description, null, 2)}\n` : `${renderToolsText(description)}\n`);
  return EXIT.ok;
}

/**
 * `caplab skills [--skills DIR]… [--trust] [--json]`: packages parsed against
 * the task's stages and bound to its tools, and those that could not be read
 * (listed with why: exit 0). With --trust the project's ./.claude/skills/ too.
 */
export function skillsCommand(args: readonly string[], io: Io, { task }: CliTask): number {
  const parsed = parse(args, io, 'skills', { skills: { type: 'string', multiple: true }, trust: { type: 'boolean' }, 'trust-project': { type: 'boolean' } });
  if (!parsed) return EXIT.usage;
  if (parsed.values.help) return io.stdout(`${HELP['skills']}\n`), EXIT.ok;
  const dirs = parsed.values.skills ?? [];
  if (dirs.includes('')) return io.stderr(`caplab skills: ${EMPTY_SKILLS}\n`), EXIT.usage;
  const trust = (parsed.values.trust ?? false) || (parsed.values['trust-project'] ?? false);
  // Folders (and the project's ./.claude/skills/) are named relative to the caller's working directory (io.cwd).
  const found = discoverSkills({ dirs: dirs.map((dir) => resolve(io.cwd, dir)), stages: task.method?.stages ?? [], trust, cwd: io.cwd });
  if (!found.ok) {
    io.stderr(`caplab skills: ${found.class}/${found.kind}: ${found.message}\n`);
    return EXIT.usage;
  }
  for (const notice of found.value.notices) io.stderr(`caplab: ${inert(notice)}\n`);
  const report = describeSkills(found.value.packages, toolVersions(offeredTools(task)), found.value.refused);
  io.stdout(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderSkillsText(report)}\n`);
  return EXIT.ok;
}
