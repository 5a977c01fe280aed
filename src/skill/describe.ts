import { inert } from '../base/index.ts';
import { bindPackage, type BoundTool } from './bind.ts';
import { catalogLine } from './catalog.ts';
import type { RefusedPackage } from './discover.ts';
import type { CatalogStatus, MethodStage, NotApplied, Package, PackageOrigin } from './types.ts';

/** Where a package came from, as `caplab skills` names it: built in, a `--skills` folder, the trusted project's `./.claude/skills/`. */
export type SkillSource = 'embedded' | 'skills_dir' | 'project';

/** One package as `caplab skills` shows it. Plain JSON data. */
export interface SkillDescription {
  readonly name: string;
  /** null: the frontmatter has none (listed here, catalogued nowhere). */
  readonly description: string | null;
  /** Claude Code's `when_to_use`, or null. */
  readonly when_to_use: string | null;
  /** `method_package`: a caplab package (caplab-* fields: version, stages, pinned references); `agent_skill`: a plain Agent Skills package. */
  readonly kind: 'method_package' | 'agent_skill';
  /** A plain Agent Skills package (no caplab-* field): its body is its method; no version, stages or pinned resources. */
  readonly plain: boolean;
  readonly version: string | null;
  readonly hash: string;
  readonly source: SkillSource;
  /** `embedded`, or the package folder's path. */
  readonly origin: string;
  /** Whether a catalog may list it, from its frontmatter (`CatalogStatus`). */
  readonly catalog: CatalogStatus;
  /** The line a catalog lists it by (`catalogLine`: cut at `LIMITS.skillCatalogEntryChars`), or null when it is not listed. */
  readonly catalog_entry: string | null;
  /** Claude Code's `paths` globs (a package with any is held until a call touches a match). */
  readonly paths: readonly string[];
  readonly allowed_tools: readonly string[];
  readonly requires: readonly { readonly tool: string; readonly version: string; readonly bound_versions: readonly string[] }[];
  readonly binding: { readonly status: 'bound' } | { readonly status: 'refused'; readonly class: string; readonly kind: string; readonly message: string };
  readonly stages: Readonly<Record<MethodStage, readonly string[]>>;
  readonly resources: readonly { readonly path: string; readonly sha256: string; readonly bytes: number }[];
  /** A plain package's body, by hash and size. */
  readonly body?: { readonly sha256: string; readonly bytes: number };
  /** Frontmatter fields accepted and not applied (Claude Code's `model` …, unknown ones), each with why. */
  readonly not_applied: readonly NotApplied[];
}

/** A package that could not be read, as `caplab skills` lists it. */
export interface RefusedDescription {
  readonly name: string;
  readonly source: SkillSource;
  readonly origin: string;
  readonly class: string;
  readonly kind: string;
  readonly message: string;
}

export interface SkillsReport {
  readonly packages: readonly SkillDescription[];
  /** Packages that could not be read: a run that names one stops on it; any other run goes on without it. */
  readonly refused: readonly RefusedDescription[];
  /** Stated in every report, because `allowed-tools` means more elsewhere (Claude Code pre-approves). */
  readonly note: string;
}

export const GRANTS_NOTHING =
  'Method packages grant no tool and no permission: `allowed-tools` is advisory; callable tools come from bindings and permissions only.';

/** What `caplab skills` says of a plain package in place of its stages. */
export const PLAIN_NOTE = 'plain: body only; no stages, no pinned hashes';

/** How the text output names each catalog status. */
const CATALOG_TEXT: Readonly<Record<CatalogStatus, string>> = {
  listed: 'listed',
  held_by_paths: 'held by paths',
  not_model_invocable: 'not model-invocable (disable-model-invocation)',
  no_description: 'no description',
};

const encoder = new TextEncoder();

/** What only a staged or only a plain package has. */
function ownParts(pkg: Package): Pick<SkillDescription, 'kind' | 'plain' | 'version' | 'stages' | 'resources' | 'body'> {
  if (pkg.kind === 'plain') {
    return { kind: 'agent_skill', plain: true, version: null, stages: {}, resources: [], body: { sha256: pkg.body.sha256, bytes: pkg.body.bytes } };
  }
  const stages = {} as Record<MethodStage, readonly string[]>;
  // In the task's stage order: the package's stages were built from that list, and no stage name is an integer (STAGE_NAME).
  for (const [stage, { resources }] of Object.entries(pkg.stages)) stages[stage] = [...resources];
  const resources = pkg.resources.map((r) => ({ path: r.path, sha256: r.sha256, bytes: encoder.encode(r.text).byteLength }));
  return { kind: 'method_package', plain: false, version: pkg.version, stages, resources };
}

function sourceOf(origin: PackageOrigin): Pick<SkillDescription, 'source' | 'origin'> {
  if (origin.kind === 'embedded') return { source: 'embedded', origin: 'embedded' };
  return { source: origin.kind === 'dir' ? 'skills_dir' : 'project', origin: origin.path };
}

/** The line a catalog would list the package by, when its status lets one list it. */
function catalogEntry(pkg: Package): string | null {
  if (pkg.catalog !== 'listed' || pkg.description === undefined) return null;
  return catalogLine({ name: pkg.name, description: pkg.description, ...(pkg.whenToUse === undefined ? {} : { whenToUse: pkg.whenToUse }) });
}

/** One package and whether it binds to the given tools. */
function describePackage(pkg: Package, tools: readonly BoundTool[]): SkillDescription {
  const bound = bindPackage(pkg, tools);
  const { body, ...own } = ownParts(pkg);
  return {
    name: pkg.name,
    description: pkg.description ?? null,
    when_to_use: pkg.whenToUse ?? null,
    kind: own.kind,
    plain: own.plain,
    version: own.version,
    hash: pkg.hash,
    ...sourceOf(pkg.origin),
    catalog: pkg.catalog,
    catalog_entry: catalogEntry(pkg),
    paths: [...pkg.paths],
    allowed_tools: [...pkg.allowedTools],
    requires: pkg.requires.map((need) => ({
      tool: need.tool,
      version: need.version,
      bound_versions: tools.filter((t) => t.name === need.tool).map((t) => t.version),
    })),
    binding: bound.ok ? { status: 'bound' as const } : { status: 'refused' as const, class: bound.class, kind: bound.kind, message: bound.message },
    stages: own.stages,
    resources: own.resources,
    ...(body ? { body } : {}),
    not_applied: pkg.notApplied.map(({ field, reason }) => ({ field, reason })),
  };
}

/** Describes packages, whether each binds to the given tools, and those refused (for `caplab skills [--json]`). */
export function describeSkills(packages: readonly Package[], tools: readonly BoundTool[], refused: readonly RefusedPackage[] = []): SkillsReport {
  return {
    packages: packages.map((pkg) => describePackage(pkg, tools)),
    refused: refused.map(({ name, origin, failure }) => ({ name, ...sourceOf(origin), class: failure.class, kind: failure.kind, message: failure.message })),
    note: GRANTS_NOTHING,
  };
}

/** Where a package came from, as the text output says it. */
function originText(pkg: Pick<SkillDescription, 'source' | 'origin'>): string {
  return pkg.source === 'embedded' ? 'embedded' : `${pkg.source === 'skills_dir' ? '--skills' : 'project'} ${pkg.origin}`;
}

/** The text lines of one package. */
function packageLines(pkg: SkillDescription): string[] {
  const status = pkg.binding.status === 'bound' ? 'bound' : `refused (${pkg.binding.class}/${pkg.binding.kind})`;
  const kind = pkg.kind === 'method_package' ? 'method package' : 'Agent Skill';
  const catalog = `${CATALOG_TEXT[pkg.catalog]}${pkg.catalog === 'held_by_paths' ? `: ${pkg.paths.join(', ')}` : ''}`;
  const lines = [`${pkg.name}${pkg.version === null ? '' : ` ${pkg.version}`}  [${status}]  ${originText(pkg)}`];
  lines.push(`  ${pkg.description ?? '(no description)'}`);
  if (pkg.when_to_use !== null) lines.push(`  when to use: ${pkg.when_to_use}`);
  lines.push(`  kind: ${kind}; catalog: ${catalog}`);
  if (pkg.catalog_entry !== null) lines.push(`  catalog entry: ${pkg.catalog_entry}`);
  if (pkg.body) lines.push(`  ${PLAIN_NOTE}`, `  body ${pkg.body.bytes} B  sha256 ${pkg.body.sha256}`);
  lines.push(`  hash ${pkg.hash}`);
  if (pkg.binding.status === 'refused') lines.push(`  reason: ${pkg.binding.message}`);
  for (const need of pkg.requires) {
    const have = need.bound_versions.length === 0 ? 'not bound' : `bound ${need.bound_versions.join(', ')}`;
    lines.push(`  requires ${need.tool}@${need.version}: ${have}`);
  }
  lines.push(`  allowed-tools (advisory): ${pkg.allowed_tools.join(' ') || '-'}`);
  for (const [stage, resources] of Object.entries(pkg.stages)) lines.push(`  stage ${stage}: ${resources.join(' ') || '(instructions only)'}`);
  for (const r of pkg.resources) lines.push(`  resource ${r.path}  ${r.bytes} B  sha256 ${r.sha256}`);
  for (const { field, reason } of pkg.not_applied) lines.push(`  not applied: ${field}: ${reason}`);
  return lines;
}

/** Human text for `caplab skills`: each package (catalog line, kind, catalog status, binding, requirements, stages, fields not applied), then those refused. No colour. */
export function renderSkillsText(report: SkillsReport): string {
  const lines: string[] = [];
  if (report.packages.length === 0 && report.refused.length === 0) lines.push('no method packages');
  for (const pkg of report.packages) lines.push(...packageLines(pkg), '');
  for (const pkg of report.refused) lines.push(`${pkg.name}  [not read]  ${originText(pkg)}`, `  reason: ${pkg.class}/${pkg.kind}: ${pkg.message}`, '');
  lines.push(report.note);
  // Names, descriptions and paths come from the packages' files: each line is shown, never acted on.
  return `${lines.map(inert).join('\n')}\n`;
}
