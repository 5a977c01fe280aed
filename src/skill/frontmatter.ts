import { fail, LIMITS, ok, type Outcome } from '../contract/index.ts';
import { honouredFields, notAppliedFields, type HonouredFields, type NotApplied } from './fields.ts';
import type { Requirement, MethodStage } from './types.ts';
import { yamlDepthBound } from './yaml-depth.ts';

/**
 * SKILL.md frontmatter in the Agent Skills format (agentskills.io) or Claude
 * Code's superset of it (see fields.ts for what each field does here). caplab
 * keeps its own fields inside `metadata` as strings so the file stays valid
 * for every Agent Skills reader:
 *
 *   caplab-version:      "1.0.0"
 *   caplab-requires:     "read_source@1.0.0 create_card@1.0.0"       (tool@exact-version)
 *   caplab-resources:    "references/a.md@<sha256> …"                 (path@sha256 of the bytes)
 *   caplab-stage-<stage>: "references/a.md …"                         (what that stage loads; may be "")
 *
 * Every stage of the task's method must be declared; any other `caplab-*` key is refused,
 * so a typo cannot silently drop a stage or a requirement.
 */
export interface Manifest extends FrontFields {
  readonly kind: 'staged';
  readonly version: string;
  readonly requires: readonly Requirement[];
  readonly resources: readonly { readonly path: string; readonly sha256: string }[];
  readonly stageResources: Readonly<Record<MethodStage, readonly string[]>>;
}

/** What every frontmatter gives: the honoured fields and the ones not applied, with why. */
export interface FrontFields extends HonouredFields {
  /** Fields accepted and not applied (Claude Code's `model`, `hooks` …, and unknown ones), sorted by name. */
  readonly notApplied: readonly NotApplied[];
}

/**
 * The frontmatter of a plain Agent Skills package: no `caplab-*` field at all
 * (so no version, stages, requirements or pinned resources; its body is its method).
 */
export interface PlainManifest extends FrontFields {
  readonly kind: 'plain';
}

export { NAME_PATTERN } from './fields.ts';
const SEMVER = /^\d+\.\d+\.\d+$/;
const TOOL = /^[A-Za-z0-9_]+(?:__[A-Za-z0-9_-]+)*$/;
/** Resources live under references/, relative, no `..`, no backslashes. */
const RESOURCE_PATH = /^references\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

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

function bad(field: string, message: string): Outcome<never> {
  return fail('invalid_arguments', 'bad_package', `field \`${field}\`: ${message}`);
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
  // A YAML list or scalar parses too; a frontmatter must be a mapping.
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return bad('frontmatter', 'must be a YAML mapping');
  return ok(data as Record<string, unknown>);
}

/**
 * `metadata`: a mapping. Its caplab-* values must be strings (they are read
 * strictly); any other key is the author's and is kept unread.
 */
function caplabMetadata(data: Readonly<Record<string, unknown>>): Outcome<Readonly<Record<string, string>>> {
  const meta = data['metadata'] ?? {};
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return bad('metadata', 'must be a mapping');
  const caplab: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (!key.startsWith('caplab-')) continue;
    if (typeof value !== 'string') return bad(`metadata.${key}`, 'must be a string');
    caplab[key] = value;
  }
  return ok(caplab);
}

/** The fields every frontmatter has, read; nothing refused for being there. */
function frontFields(data: Readonly<Record<string, unknown>>): Outcome<FrontFields> {
  const honoured = honouredFields(data);
  if (!honoured.ok) return honoured;
  return ok({ ...honoured.value, notApplied: notAppliedFields(data) });
}

/**
 * Parses and validates the frontmatter against the task's stages. Every refusal names the field.
 * A frontmatter with no `caplab-*` key in `metadata` is a plain Agent Skills package.
 * @returns The manifest, or a `bad_package` (`too_deep`) failure.
 */
export function parseFrontmatter(yaml: string, stages: readonly MethodStage[]): Outcome<Manifest | PlainManifest> {
  const data = parseMapping(yaml);
  if (!data.ok) return data;
  const front = frontFields(data.value);
  if (!front.ok) return front;
  const meta = caplabMetadata(data.value);
  if (!meta.ok) return meta;
  if (Object.keys(meta.value).length === 0) return ok({ kind: 'plain', ...front.value });
  const staged = stagedFields(meta.value, stages);
  if (!staged.ok) return staged;
  return ok({ kind: 'staged', ...front.value, ...staged.value });
}

/** A caplab package's own fields, each checked; an unknown caplab-* key is refused. */
function stagedFields(meta: Readonly<Record<string, string>>, stages: readonly MethodStage[]): Outcome<Omit<Manifest, 'kind' | keyof FrontFields>> {
  for (const key of Object.keys(meta)) {
    const known = ['caplab-version', 'caplab-requires', 'caplab-resources'].includes(key);
    const stage = key.startsWith('caplab-stage-') && stages.includes(key.slice(13));
    if (!known && !stage) {
      const hint = key.startsWith('caplab-stage-') ? `unknown stage '${key.slice(13)}' (stages: ${stages.join(', ')})` : 'unknown caplab field';
      return bad(`metadata.${key}`, hint);
    }
  }
  const version = meta['caplab-version'];
  if (version === undefined || !SEMVER.test(version)) return bad('metadata.caplab-version', 'required, MAJOR.MINOR.PATCH');
  const requires = requirements(meta['caplab-requires'] ?? '');
  if (!requires.ok) return requires;
  const resources = declaredResources(meta['caplab-resources'] ?? '');
  if (!resources.ok) return resources;
  const stageResources = {} as Record<MethodStage, readonly string[]>;
  for (const stage of stages) {
    const field = `metadata.caplab-stage-${stage}`;
    const value = meta[`caplab-stage-${stage}`];
    if (value === undefined) return bad(field, `required: every stage (${stages.join(', ')}) says what it loads ("" for nothing)`);
    const paths = words(value);
    for (const path of paths) {
      if (!resources.value.some((r) => r.path === path)) return bad(field, `'${path}' is not declared in metadata.caplab-resources`);
    }
    if (new Set(paths).size !== paths.length) return bad(field, 'a resource is listed twice');
    stageResources[stage] = paths;
  }
  return ok({ version, requires: requires.value, resources: resources.value, stageResources });
}

/** `caplab-requires`: tool@MAJOR.MINOR.PATCH words, each tool once. */
function requirements(value: string): Outcome<readonly Requirement[]> {
  const requires: Requirement[] = [];
  for (const word of words(value)) {
    const [tool, toolVersion, extra] = word.split('@');
    if (!tool || !TOOL.test(tool) || !toolVersion || !SEMVER.test(toolVersion) || extra !== undefined) {
      return bad('metadata.caplab-requires', `'${word}' is not tool@MAJOR.MINOR.PATCH`);
    }
    if (requires.some((r) => r.tool === tool)) return bad('metadata.caplab-requires', `tool '${tool}' listed twice`);
    requires.push({ tool, version: toolVersion });
  }
  return ok(requires);
}

/** `caplab-resources`: references/PATH@SHA256 words, each path once. */
function declaredResources(value: string): Outcome<readonly { readonly path: string; readonly sha256: string }[]> {
  const resources: { path: string; sha256: string }[] = [];
  for (const word of words(value)) {
    const at = word.lastIndexOf('@');
    const path = word.slice(0, at);
    const sha256 = word.slice(at + 1);
    if (at < 0 || !RESOURCE_PATH.test(path) || !/^[0-9a-f]{64}$/.test(sha256)) {
      return bad('metadata.caplab-resources', `'${word}' is not references/PATH@SHA256 (lowercase hex)`);
    }
    if (resources.some((r) => r.path === path)) return bad('metadata.caplab-resources', `'${path}' listed twice`);
    resources.push({ path, sha256 });
  }
  return ok(resources);
}
