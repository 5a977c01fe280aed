import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import { fail, LIMITS, ok, type Outcome } from '../contract/index.ts';
import type { Requirement, MethodStage } from './types.ts';
import { yamlDepthBound } from './yaml-depth.ts';

/**
 * SKILL.md frontmatter in the Agent Skills format (agentskills.io):
 * `name`, `description`, optional `license`, `compatibility`, `allowed-tools`
 * (space-delimited string) and `metadata` (a map from string keys to string
 * values). caplab keeps its own fields inside `metadata` as strings so the file
 * stays valid for every Agent Skills reader:
 *
 *   caplab-version:      "1.0.0"
 *   caplab-requires:     "read_source@1.0.0 create_card@1.0.0"       (tool@exact-version)
 *   caplab-resources:    "references/a.md@<sha256> …"                 (path@sha256 of the bytes)
 *   caplab-stage-<stage>: "references/a.md …"                         (what that stage loads; may be "")
 *
 * Every stage of the task's method must be declared; any other `caplab-*` key is refused,
 * so a typo cannot silently drop a stage or a requirement.
 */
export interface Manifest {
  readonly kind: 'staged';
  readonly name: string;
  readonly description: string;
  readonly allowedTools: readonly string[];
  readonly version: string;
  readonly requires: readonly Requirement[];
  readonly resources: readonly { readonly path: string; readonly sha256: string }[];
  readonly stageResources: Readonly<Record<MethodStage, readonly string[]>>;
}

/**
 * The frontmatter of a plain Agent Skills package: no `caplab-*` field at all
 * (so no version, stages, requirements or pinned resources; its body is its method).
 */
export interface PlainManifest {
  readonly kind: 'plain';
  readonly name: string;
  readonly description: string;
  readonly allowedTools: readonly string[];
  /** Fields outside the Agent Skills format (Claude Code's `when_to_use`, `model` …), sorted: accepted, not applied. */
  readonly notApplied: readonly string[];
}

/** Agent Skills name: 1–64 lowercase letters, digits, single hyphens, not at either end. */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+$/;
const TOOL = /^[A-Za-z0-9_]+(?:__[A-Za-z0-9_-]+)*$/;
/** Resources live under references/, relative, no `..`, no backslashes. */
const RESOURCE_PATH = /^references\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const Frontmatter = v.strictObject({
  name: v.pipe(
    v.string(),
    v.maxLength(64, 'at most 64 characters'),
    v.regex(NAME_PATTERN, 'lowercase letters, digits and single hyphens only, not starting or ending with a hyphen'),
  ),
  description: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'at most 1024 characters')),
  license: v.optional(v.string()),
  compatibility: v.optional(v.pipe(v.string(), v.maxLength(500, 'at most 500 characters'))),
  'allowed-tools': v.optional(v.string()),
  metadata: v.optional(v.record(v.string(), v.string('must be a string (Agent Skills metadata maps strings to strings)'))),
});

/** `---`, the YAML, `---`, each on lines of their own, broken where YAML breaks lines (CR LF, CR or LF). */
const FRONTMATTER = /^---(?:\r\n|\r|\n)([\s\S]*?)(?:\r\n|\r|\n)---(?:\r\n|\r|\n|$)/;

/** The byte order mark editors on Windows often put first in a UTF-8 file. */
const BOM = '\uFEFF';

/**
 * Splits SKILL.md into frontmatter YAML and body. A leading byte order mark
 * is skipped (it is no part of the `---` line); the package hash stays the
 * sha256 of the file's bytes, BOM included.
 */
export function splitSkillMd(file: string): Outcome<{ readonly yaml: string; readonly body: string }> {
  const text = file.startsWith(BOM) ? file.slice(BOM.length) : file;
  const match = FRONTMATTER.exec(text);
  if (!match) return fail('invalid_arguments', 'bad_package', 'frontmatter: SKILL.md must start with a `---` … `---` YAML block');
  return ok({ yaml: match[1]!, body: text.slice(match[0].length) });
}

function bad(field: string, message: string, issues?: readonly string[]) {
  return fail('invalid_arguments', 'bad_package', `field \`${field}\`: ${message}`, issues);
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

/** Parses the YAML text of a frontmatter into a mapping, bounded before the parser sees it. */
function parseMapping(yaml: string): Outcome<Readonly<Record<string, unknown>>> {
  // Bounded on the text: a parser's stack overflow is not a refusal, and deep enough input overflows it.
  const depth = yamlDepthBound(yaml);
  if (depth > LIMITS.skillFrontmatterDepth) {
    return fail('invalid_arguments', 'too_deep', `field \`frontmatter\`: may nest ${depth} levels, more than ${LIMITS.skillFrontmatterDepth} (limit ${LIMITS.skillFrontmatterDepth})`);
  }
  let data: unknown;
  try {
    data = Bun.YAML.parse(yaml);
  } catch (error) {
    return bad('frontmatter', `invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Valibot's object schemas accept arrays; a frontmatter must be a mapping.
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return bad('frontmatter', 'must be a YAML mapping');
  return ok(data as Record<string, unknown>);
}

/** The Agent Skills fields, validated; every refusal names the field. */
function agentSkillsFields(data: Readonly<Record<string, unknown>>): Outcome<v.InferOutput<typeof Frontmatter>> {
  const parsed = v.safeParse(Frontmatter, data);
  if (parsed.success) return ok(parsed.output);
  const describe = (issue: v.BaseIssue<unknown>): [string, string] => {
    const path = issuePath(issue) ?? 'frontmatter';
    const missing = issue.input === undefined && issue.kind === 'schema';
    const extra = issue.expected === 'never';
    return [path, missing ? 'is required' : extra ? 'is not an Agent Skills field' : issue.message];
  };
  const all = parsed.issues.map(describe);
  const [field, message] = all[0]!;
  return bad(field, message, all.map(([f, m]) => `${f}: ${m}`));
}

/** Whether a frontmatter has any caplab field: without one it is a plain Agent Skills package. */
function hasCaplabField(data: Readonly<Record<string, unknown>>): boolean {
  const meta = data['metadata'];
  return meta !== null && typeof meta === 'object' && Object.keys(meta).some((key) => key.startsWith('caplab-'));
}

/**
 * A plain package's frontmatter: its Agent Skills fields validated; any other
 * field (Claude Code's `when_to_use`, `model`, `hooks` …) is kept by name as
 * not applied, never a refusal (caplab honours none of them).
 */
function plainManifest(data: Readonly<Record<string, unknown>>): Outcome<PlainManifest> {
  const known = Object.keys(Frontmatter.entries);
  const front = agentSkillsFields(Object.fromEntries(Object.entries(data).filter(([key]) => known.includes(key))));
  if (!front.ok) return front;
  const notApplied = Object.keys(data).filter((key) => !known.includes(key)).sort();
  return ok({ kind: 'plain', name: front.value.name, description: front.value.description, allowedTools: words(front.value['allowed-tools'] ?? ''), notApplied });
}

/**
 * Parses and validates the frontmatter against the task's stages. Every refusal names the field.
 * A frontmatter with no `caplab-*` field is a plain Agent Skills package.
 * @returns The manifest, or a `bad_package` (`too_deep`) failure.
 */
export function parseFrontmatter(yaml: string, stages: readonly MethodStage[]): Outcome<Manifest | PlainManifest> {
  const data = parseMapping(yaml);
  if (!data.ok) return data;
  if (!hasCaplabField(data.value)) return plainManifest(data.value);
  const parsed = agentSkillsFields(data.value);
  if (!parsed.ok) return parsed;
  const front = parsed.value;
  const meta = front.metadata ?? {};

  for (const key of Object.keys(meta)) {
    const known = ['caplab-version', 'caplab-requires', 'caplab-resources'].includes(key);
    const stage = key.startsWith('caplab-stage-') && stages.includes(key.slice(13));
    if (key.startsWith('caplab-') && !known && !stage) {
      const hint = key.startsWith('caplab-stage-') ? `unknown stage '${key.slice(13)}' (stages: ${stages.join(', ')})` : 'unknown caplab field';
      return bad(`metadata.${key}`, hint);
    }
  }

  const version = meta['caplab-version'];
  if (version === undefined || !SEMVER.test(version)) return bad('metadata.caplab-version', 'required, MAJOR.MINOR.PATCH');

  const requires: Requirement[] = [];
  for (const word of words(meta['caplab-requires'] ?? '')) {
    const [tool, toolVersion, extra] = word.split('@');
    if (!tool || !TOOL.test(tool) || !toolVersion || !SEMVER.test(toolVersion) || extra !== undefined) {
      return bad('metadata.caplab-requires', `'${word}' is not tool@MAJOR.MINOR.PATCH`);
    }
    if (requires.some((r) => r.tool === tool)) return bad('metadata.caplab-requires', `tool '${tool}' listed twice`);
    requires.push({ tool, version: toolVersion });
  }

  const resources: { path: string; sha256: string }[] = [];
  for (const word of words(meta['caplab-resources'] ?? '')) {
    const at = word.lastIndexOf('@');
    const path = word.slice(0, at);
    const sha256 = word.slice(at + 1);
    if (at < 0 || !RESOURCE_PATH.test(path) || !/^[0-9a-f]{64}$/.test(sha256)) {
      return bad('metadata.caplab-resources', `'${word}' is not references/PATH@SHA256 (lowercase hex)`);
    }
    if (resources.some((r) => r.path === path)) return bad('metadata.caplab-resources', `'${path}' listed twice`);
    resources.push({ path, sha256 });
  }

  const stageResources = {} as Record<MethodStage, readonly string[]>;
  for (const stage of stages) {
    const field = `metadata.caplab-stage-${stage}`;
    const value = meta[`caplab-stage-${stage}`];
    if (value === undefined) return bad(field, `required: every stage (${stages.join(', ')}) says what it loads ("" for nothing)`);
    const paths = words(value);
    for (const path of paths) {
      if (!resources.some((r) => r.path === path)) return bad(field, `'${path}' is not declared in metadata.caplab-resources`);
    }
    if (new Set(paths).size !== paths.length) return bad(field, 'a resource is listed twice');
    stageResources[stage] = paths;
  }

  return ok({
    kind: 'staged',
    name: front.name,
    description: front.description,
    allowedTools: words(front['allowed-tools'] ?? ''),
    version,
    requires,
    resources,
    stageResources,
  });
}
