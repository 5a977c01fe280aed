import { fail, ok, type Outcome } from '../../contract/index.ts';
import { bindPackage, lastSkillNamed, SKILL_TOOL, plainToolAdoption, toolAdoption, type BoundPackage, type BoundTool, type Package } from '../../skill/index.ts';
import type { permissionPolicy } from '../../pipeline/index.ts';
import type { Builtin } from '../host-tools.ts';
import type { OfferedTool } from '../tools.ts';
import type { RunOptions } from '../run.ts';
import type { Task } from '../task.ts';
import { RunCatalog, type DiscoveryBasis } from './discovery.ts';
import { entryOf, isCatalogued, packageRecord } from './package-record.ts';
import { skillTool } from './skill-tool.ts';
import { payloadCatalog, skillsBlock } from './skills-block.ts';

/** What tool mode adds to a run: the Skill built-in, and the method support that lists the catalog and reads adoption from Skill results. */
export interface ToolMode {
  readonly builtin: Builtin;
  readonly method: NonNullable<RunOptions['method']>;
}

/** Where a tool-mode run's paths are matched and whether nested `.claude/skills/` are read (`--trust`). */
export type ToolModeWhere = Pick<DiscoveryBasis, 'cwd' | 'nested'>;

/**
 * Skill tool mode over the packages every source gave: the catalog at start
 * is each package whose catalog status is `listed` and that binds to the
 * run's tools, in name order; a bound package held by `paths` joins it from
 * the request after a successful call touched a matching path, and (with
 * `nested`) a touch brings the packages of nested `.claude/skills/` folders
 * (`RunCatalog`, one per run, by its run dir). Every request's `system` gets
 * one `<skills>` block listing the catalog as it is then, and each request's
 * adoption is read from the Skill results in its payload (`toolAdoption`; the
 * package of the last one answered, or none). run_start records every package
 * Skill may serve (`skill_packages`). No package that can be listed or held
 * is `invalid_arguments/empty_catalog`.
 */
export function toolMode(packages: readonly Package[], tools: readonly BoundTool[], task: Pick<Task, 'method'>, where: ToolModeWhere): Outcome<ToolMode> {
  const sorted = [...packages].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const bound = new Map<string, BoundPackage<Package>>();
  for (const pkg of sorted.filter(isCatalogued)) {
    const binds = bindPackage(pkg, tools);
    if (binds.ok) bound.set(pkg.name, binds.value);
  }
  if (bound.size === 0) {
    return fail('invalid_arguments', 'empty_catalog', `--skill-mode tool: no package can be listed (found: ${packages.map((p) => `${p.name} (${p.catalog})`).join(', ') || 'none'}); a listed package has a description, is model-invocable and binds to the run's tools (one with paths is listed once a call touches a matching path)`);
  }
  const basis: DiscoveryBasis = { ...where, stages: task.method?.stages ?? [], tools };
  const runs = new Map<string, RunCatalog>();
  // One catalog per run (a prepared task may be run again): made on the run's first request, by its run dir.
  const catalogOf = (runDir: string): RunCatalog => runs.get(runDir) ?? runs.set(runDir, new RunCatalog(basis, packages, bound)).get(runDir)!;
  const block = (run: RunCatalog) => ({ type: 'text' as const, text: skillsBlock(run.visible().map((name) => entryOf(run.served.get(name)!.package))) });
  const builtin = skillTool((runDir) => {
    const run = catalogOf(runDir);
    return { known: [...run.known], catalog: run.served, stages: basis.stages };
  });
  return ok({
    builtin,
    method: {
      blocks: (_stage, runDir) => [block(catalogOf(runDir ?? ''))],
      adoption: (stage, payload, runDir) => adoptionOf(catalogOf(runDir ?? '').served, stage, payload),
      catalog: (payload) => payloadCatalog(payload),
      observe: (calls, recorder, runDir) => catalogOf(runDir).observe(calls, recorder),
      record: null,
      skillMode: 'tool',
      startFields: { skill_packages: [...bound.values()].map((b) => packageRecord(b.package as Package & { catalog: 'listed' | 'held_by_paths' })), skill_nested: where.nested },
    },
  });
}

/** One request's tool-mode adoption: of the package its last answered Skill result names (none: null). */
function adoptionOf(bound: ReadonlyMap<string, BoundPackage<Package>>, stage: string, payload: Uint8Array): unknown {
  const named = lastSkillNamed(payload);
  if (!named.ok) return { error: { class: named.class, kind: named.kind, message: named.message } };
  const pkg = named.value === undefined ? undefined : bound.get(named.value);
  if (!pkg) return null;
  const adopted = pkg.package.kind === 'plain' ? plainToolAdoption(pkg.package, payload) : toolAdoption({ package: pkg.package, tools: pkg.tools }, stage, payload);
  return adopted.ok ? adopted.value : { error: { class: adopted.class, kind: adopted.kind, message: adopted.message } };
}

/**
 * Tool mode with Skill denied (`--deny-tool=Skill`, a deny rule): the
 * catalog is still listed, but every Skill call will be refused, so no
 * package's text can reach the model. Said before the run, not refused:
 * the run goes on, each call recorded `permission_denied`.
 */
export function skillDeniedNotice(offers: readonly OfferedTool[], policy: ReturnType<typeof permissionPolicy>): string[] {
  const skill = offers.find((offer) => offer.contract.name === SKILL_TOOL && offer.implementation.kind === 'host');
  if (!skill) return [];
  const decision = policy({ binding: skill.binding, contract: skill.contract, attributes: { readOnly: skill.contract.readOnly } });
  return decision.decision === 'deny' ? [`Skill is denied (${decision.reason}): the <skills> catalog is still listed, but every Skill call will be refused, so no skill's text can be loaded`] : [];
}
