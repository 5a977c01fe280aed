import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { assetPaths, assetText } from '../../assets/index.ts';
import { fail, LIMITS, ok, readBoundedText, sha256Hex, type Outcome } from '../../contract/index.ts';
import { splitSkillMd, yamlDepthBound } from '../../skill/index.ts';

/** Where a subagent type came from: `--agents-dir`, the trusted project's `./.claude/agents/`, caplab's embedded fixtures, or the host. */
export type AgentSource = 'dir' | 'project' | 'embedded' | 'host';

/** A Claude Code subagent file, read: what caplab honours, and what it records without applying. */
export interface AgentType {
  readonly name: string;
  readonly description: string;
  /** The system prompt the subagent gets after the host's rules. */
  readonly body: string;
  readonly source: AgentSource;
  /** The file as named (the host's `general-purpose`: `host`). */
  readonly path: string;
  /** sha256 of the file's bytes (`general-purpose`: of its body). */
  readonly sha256: string;
  /** `tools`: the names it may call; absent, every tool pinned in the Agent call's producing request. */
  readonly tools?: readonly string[];
  readonly disallowedTools: readonly string[];
  /** `maxTurns`, capped at `LIMITS.subagentRequests`. */
  readonly maxTurns?: number;
  readonly permissionMode?: string;
  /** `mcpServers` as written: a server key (string) or an inline definition (an object, refused as wider). */
  readonly mcpServers: readonly unknown[];
  readonly background: boolean;
  /** Fields accepted and recorded, not applied, sorted by name. */
  readonly notApplied: readonly string[];
}

/** A type file that could not be read or parsed: listed by the name its file gives, and refused when called. */
export interface RefusedAgentType {
  readonly name: string;
  readonly path: string;
  readonly reason: string;
}

/** Every type a run offers, and the files refused. */
export interface AgentTypes {
  readonly types: readonly AgentType[];
  readonly refused: readonly RefusedAgentType[];
}

/** The project's subagent folder, read only with `--trust`. */
export const PROJECT_AGENTS = '.claude/agents';
/** Where caplab's embedded subagent types are (a scenario's `agents` names them). */
export const EMBEDDED_AGENTS = 'fixtures/agents';
/** The host's own type, for an Agent call that names none. */
export const GENERAL_PURPOSE = 'general-purpose';

/** Claude Code fields caplab records and does not apply (settings hooks apply, never a type's). */
const NOT_APPLIED = ['model', 'effort', 'color', 'memory', 'skills', 'initialPrompt', 'hooks'];
const HONOURED = ['name', 'description', 'tools', 'disallowedTools', 'maxTurns', 'permissionMode', 'mcpServers', 'background'];
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The host's general-purpose type: the parent's tools, a body of the host's own. */
export function generalPurpose(): AgentType {
  const body = 'You are a general-purpose subagent. Do the task the prompt states with the tools you have, then answer with a final text: it is the only thing the caller sees.';
  return { name: GENERAL_PURPOSE, description: 'General-purpose agent: the caller\'s tools, for a task stated in the prompt.', body, source: 'host', path: 'host', sha256: sha256Hex(body), disallowedTools: [], mcpServers: [], background: false, notApplied: [] };
}

const bad = (path: string, message: string): Outcome<never> => fail('invalid_arguments', 'bad_agent_file', `${path}: ${message}`);

/** A `tools`-like field: a comma-separated string or a list of strings. */
function nameList(value: unknown, field: string, path: string): Outcome<readonly string[] | undefined> {
  if (value === undefined || value === null) return ok(undefined);
  if (typeof value === 'string') return ok(value.split(',').map((s) => s.trim()).filter((s) => s.length > 0));
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) return ok(value.map((s: string) => s.trim()));
  return bad(path, `field \`${field}\`: a comma-separated string or a list of names`);
}

/** Parses one subagent file's text (Claude Code's format: YAML frontmatter, `name` and `description` required; the body is its system prompt). */
export function parseAgentFile(text: string, path: string, source: AgentSource): Outcome<AgentType> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength > LIMITS.agentFileBytes) return fail('precondition', 'too_large', `${path}: ${bytes.byteLength} bytes; a subagent file is at most ${LIMITS.agentFileBytes} (agentFileBytes)`);
  const split = splitSkillMd(text);
  if (!split.ok) return bad(path, 'a subagent file starts with a `---` … `---` YAML frontmatter');
  if (yamlDepthBound(split.value.yaml) > LIMITS.skillFrontmatterDepth) return bad(path, `frontmatter nests past ${LIMITS.skillFrontmatterDepth} levels`);
  let data: unknown;
  try {
    data = Bun.YAML.parse(split.value.yaml);
  } catch (error) {
    return bad(path, `invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return bad(path, 'the frontmatter must be a YAML mapping');
  return typeFields(data as Record<string, unknown>, { path, source, body: split.value.body.trim(), sha256: sha256Hex(bytes) });
}

/** The frontmatter's fields, each honoured one checked by type. */
function typeFields(data: Readonly<Record<string, unknown>>, file: { path: string; source: AgentSource; body: string; sha256: string }): Outcome<AgentType> {
  const { name, description, maxTurns, permissionMode, mcpServers, background } = data;
  if (typeof name !== 'string' || !NAME.test(name)) return bad(file.path, 'field `name`: required, lowercase letters, digits, `-` and `_`');
  if (typeof description !== 'string' || description.trim() === '') return bad(file.path, 'field `description`: required, a non-empty string');
  const tools = nameList(data['tools'], 'tools', file.path);
  if (!tools.ok) return tools;
  const disallowed = nameList(data['disallowedTools'], 'disallowedTools', file.path);
  if (!disallowed.ok) return disallowed;
  if (maxTurns !== undefined && !(Number.isSafeInteger(maxTurns) && (maxTurns as number) > 0)) return bad(file.path, 'field `maxTurns`: a positive integer');
  if (permissionMode !== undefined && typeof permissionMode !== 'string') return bad(file.path, 'field `permissionMode`: a string');
  if (mcpServers !== undefined && !Array.isArray(mcpServers)) return bad(file.path, 'field `mcpServers`: a list');
  if (background !== undefined && typeof background !== 'boolean') return bad(file.path, 'field `background`: true or false');
  const notApplied = Object.keys(data).filter((key) => !HONOURED.includes(key) || (key === 'permissionMode' && !WIDENING_MODES.includes(permissionMode as string)));
  return ok({
    name,
    description: description.trim(),
    body: file.body,
    source: file.source,
    path: file.path,
    sha256: file.sha256,
    ...(tools.value !== undefined ? { tools: tools.value } : {}),
    disallowedTools: disallowed.value ?? [],
    ...(maxTurns !== undefined ? { maxTurns: Math.min(maxTurns as number, LIMITS.subagentRequests) } : {}),
    ...(permissionMode !== undefined ? { permissionMode: permissionMode as string } : {}),
    mcpServers: (mcpServers as unknown[] | undefined) ?? [],
    background: background === true,
    notApplied: notApplied.sort(),
  });
}

/** Permission modes that would let a subagent do what its caller may not: refused as wider (`subagent_tools_wider`). */
export const WIDENING_MODES: readonly string[] = ['bypassPermissions', 'acceptEdits', 'auto'];

/** Whether a field is one caplab records without applying (for `caplab agents`). */
export const isNotApplied = (field: string): boolean => NOT_APPLIED.includes(field) || !HONOURED.includes(field);

/** Where to find types: `--agents-dir` folders, the project's with `--trust`, embedded names a scenario lists. */
export interface AgentSources {
  readonly dirs?: readonly string[];
  readonly trust?: boolean;
  readonly cwd?: string;
  /** Names of embedded `fixtures/agents/<name>.md` files (a scenario's `agents`). */
  readonly embedded?: readonly string[];
}

interface Candidate {
  readonly path: string;
  readonly source: AgentSource;
  read(): Outcome<string>;
}

/** The `.md` files of a folder, sorted; a folder that cannot be listed is refused (exit 2). */
function folderCandidates(dir: string, source: AgentSource): Outcome<Candidate[]> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    return fail('invalid_arguments', 'bad_agent_file', `subagent folder ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return ok(names.map((name) => ({ path: join(dir, name), source, read: () => readBoundedText(join(dir, name), LIMITS.agentFileBytes) })));
}

/** Every candidate file of every source, in order: folders given, the trusted project's, embedded names. */
function candidates(sources: AgentSources): Outcome<Candidate[]> {
  const cwd = sources.cwd ?? process.cwd();
  const all: Candidate[] = [];
  const dirs: [string, AgentSource][] = [...(sources.dirs ?? []).map((dir): [string, AgentSource] => [resolve(cwd, dir), 'dir'])];
  const project = resolve(cwd, PROJECT_AGENTS);
  if (sources.trust && present(project)) dirs.push([project, 'project']);
  for (const [dir, source] of dirs) {
    const found = folderCandidates(dir, source);
    if (!found.ok) return found;
    all.push(...found.value);
  }
  for (const name of sources.embedded ?? []) {
    const path = `${EMBEDDED_AGENTS}/${name}.md`;
    const text = assetText(path);
    if (text === undefined) return fail('invalid_arguments', 'unknown_subagent_type', `no embedded subagent type ${JSON.stringify(name)} (embedded: ${embeddedAgentNames().join(', ') || 'none'})`);
    all.push({ path, source: 'embedded', read: () => ok(text) });
  }
  return ok(all);
}

function present(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The names of caplab's embedded subagent files. */
export function embeddedAgentNames(): readonly string[] {
  return assetPaths(EMBEDDED_AGENTS).filter((p) => p.endsWith('.md')).map((p) => p.slice(EMBEDDED_AGENTS.length + 1, -3));
}

/**
 * Reads every type of every source, and the host's `general-purpose`. A file
 * that cannot be read or parsed is listed as refused (by its file's name); two
 * types of one name (or one named `general-purpose`) are
 * `invalid_arguments/duplicate_agent_type`, before anything runs.
 */
export function discoverAgentTypes(sources: AgentSources): Outcome<AgentTypes> {
  const found = candidates(sources);
  if (!found.ok) return found;
  const types: AgentType[] = [generalPurpose()];
  const refused: RefusedAgentType[] = [];
  for (const candidate of found.value) {
    const text = candidate.read();
    const parsed = text.ok ? parseAgentFile(text.value, candidate.path, candidate.source) : text;
    if (!parsed.ok) {
      refused.push({ name: basename(candidate.path, '.md'), path: candidate.path, reason: `${parsed.class}/${parsed.kind}: ${parsed.message}` });
      continue;
    }
    const twin = types.find((t) => t.name === parsed.value.name) ?? refused.find((r) => r.name === parsed.value.name);
    if (twin) return fail('invalid_arguments', 'duplicate_agent_type', `subagent type ${JSON.stringify(parsed.value.name)} is defined by ${twin.path} and ${candidate.path}; give each type one file`);
    types.push(parsed.value);
  }
  for (const r of refused) {
    if (types.some((t) => t.name === r.name)) return fail('invalid_arguments', 'duplicate_agent_type', `subagent type ${JSON.stringify(r.name)} is defined by ${r.path} (refused) and another file`);
  }
  return ok({ types, refused });
}
