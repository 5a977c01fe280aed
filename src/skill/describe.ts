import { inert } from '../base/index.ts';
import { bindPackage, type BoundTool } from './bind.ts';
import type { Package, MethodStage } from './types.ts';

/** One package as `caplab skills` shows it. Plain JSON data. */
export interface SkillDescription {
  readonly name: string;
  readonly description: string;
  /** A plain Agent Skills package (no caplab-* field): its body is its method; no version, stages or pinned resources. */
  readonly plain: boolean;
  readonly version: string | null;
  readonly hash: string;
  readonly origin: string;
  readonly allowed_tools: readonly string[];
  readonly requires: readonly { readonly tool: string; readonly version: string; readonly bound_versions: readonly string[] }[];
  readonly binding: { readonly status: 'bound' } | { readonly status: 'refused'; readonly class: string; readonly kind: string; readonly message: string };
  readonly stages: Readonly<Record<MethodStage, readonly string[]>>;
  readonly resources: readonly { readonly path: string; readonly sha256: string; readonly bytes: number }[];
  /** A plain package's body, by hash and size. */
  readonly body?: { readonly sha256: string; readonly bytes: number };
  /** A plain package's frontmatter fields caplab accepts but does not apply (Claude Code's `model` …). */
  readonly not_applied?: readonly string[];
}

export interface SkillsReport {
  readonly packages: readonly SkillDescription[];
  /** Stated in every report, because `allowed-tools` means more elsewhere (Claude Code pre-approves). */
  readonly note: string;
}

export const GRANTS_NOTHING =
  'Method packages grant no tool and no permission: `allowed-tools` is advisory; callable tools come from bindings and permissions only.';

/** What `caplab skills` says of a plain package in place of its stages. */
export const PLAIN_NOTE = 'plain: body only; no stages, no pinned hashes';

const encoder = new TextEncoder();

/** What only a staged or only a plain package has. */
function ownParts(pkg: Package): Pick<SkillDescription, 'plain' | 'version' | 'stages' | 'resources' | 'body' | 'not_applied'> {
  if (pkg.kind === 'plain') {
    return { plain: true, version: null, stages: {}, resources: [], body: { sha256: pkg.body.sha256, bytes: pkg.body.bytes }, not_applied: [...pkg.notApplied] };
  }
  const stages = {} as Record<MethodStage, readonly string[]>;
  // In the task's stage order: the package's stages were built from that list, and no stage name is an integer (STAGE_NAME).
  for (const [stage, { resources }] of Object.entries(pkg.stages)) stages[stage] = [...resources];
  const resources = pkg.resources.map((r) => ({ path: r.path, sha256: r.sha256, bytes: encoder.encode(r.text).byteLength }));
  return { plain: false, version: pkg.version, stages, resources };
}

/** Describes packages and whether each binds to the given tools (for `caplab skills [--json]`). */
export function describeSkills(packages: readonly Package[], tools: readonly BoundTool[]): SkillsReport {
  return {
    packages: packages.map((pkg) => {
      const bound = bindPackage(pkg, tools);
      const own = ownParts(pkg);
      return {
        name: pkg.name,
        description: pkg.description,
        plain: own.plain,
        version: own.version,
        hash: pkg.hash,
        origin: pkg.origin.kind === 'embedded' ? 'embedded' : pkg.origin.path,
        allowed_tools: [...pkg.allowedTools],
        requires: pkg.requires.map((need) => ({
          tool: need.tool,
          version: need.version,
          bound_versions: tools.filter((t) => t.name === need.tool).map((t) => t.version),
        })),
        binding: bound.ok
          ? { status: 'bound' as const }
          : { status: 'refused' as const, class: bound.class, kind: bound.kind, message: bound.message },
        stages: own.stages,
        resources: own.resources,
        ...(own.body ? { body: own.body } : {}),
        ...(own.not_applied ? { not_applied: own.not_applied } : {}),
      };
    }),
    note: GRANTS_NOTHING,
  };
}

/** Human text for `caplab skills`: catalog line, binding status, requirements, stages. No colour. */
export function renderSkillsText(report: SkillsReport): string {
  const lines: string[] = [];
  if (report.packages.length === 0) lines.push('no method packages');
  for (const pkg of report.packages) {
    const status = pkg.binding.status === 'bound' ? 'bound' : `refused (${pkg.binding.class}/${pkg.binding.kind})`;
    lines.push(`${pkg.name}${pkg.version === null ? '' : ` ${pkg.version}`}  [${status}]  ${pkg.origin}`);
    lines.push(`  ${pkg.description}`);
    if (pkg.body) lines.push(`  ${PLAIN_NOTE}`, `  body ${pkg.body.bytes} B  sha256 ${pkg.body.sha256}`);
    if (pkg.not_applied && pkg.not_applied.length > 0) lines.push(`  not applied: ${pkg.not_applied.join(', ')}`);
    else lines.push(`  hash ${pkg.hash}`);
    if (pkg.binding.status === 'refused') lines.push(`  reason: ${pkg.binding.message}`);
    for (const need of pkg.requires) {
      const have = need.bound_versions.length === 0 ? 'not bound' : `bound ${need.bound_versions.join(', ')}`;
      lines.push(`  requires ${need.tool}@${need.version}: ${have}`);
    }
    lines.push(`  allowed-tools (advisory): ${pkg.allowed_tools.join(' ') || '-'}`);
    for (const [stage, resources] of Object.entries(pkg.stages)) lines.push(`  stage ${stage}: ${resources.join(' ') || '(instructions only)'}`);
    for (const r of pkg.resources) lines.push(`  resource ${r.path}  ${r.bytes} B  sha256 ${r.sha256}`);
    lines.push('');
  }
  lines.push(report.note);
  // Names, descriptions and paths come from the packages' files: each line is shown, never acted on.
  return `${lines.map(inert).join('\n')}\n`;
}
