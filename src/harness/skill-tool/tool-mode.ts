import { fail, ok, type Outcome } from '../../contract/index.ts';
import { bindPackage, catalog, lastSkillNamed, plainToolAdoption, toolAdoption, type BoundPackage, type BoundTool, type Package } from '../../skill/index.ts';
import type { Builtin } from '../host-tools.ts';
import type { RunOptions } from '../run.ts';
import type { Task } from '../task.ts';
import { skillTool } from './skill-tool.ts';
import { payloadCatalog, skillsBlock } from './skills-block.ts';

/** What tool mode adds to a run: the Skill built-in, and the method support that lists the catalog and reads adoption from Skill results. */
export interface ToolMode {
  readonly builtin: Builtin;
  readonly method: NonNullable<RunOptions['method']>;
}

/**
 * Skill tool mode over the packages every source gave: the catalog is each
 * package whose catalog status is `listed` and that binds to the run's
 * tools, in name order; every request's `system` gets one `<skills>` block
 * listing it, and each request's adoption is read from the Skill results in
 * its payload (`toolAdoption`; the package of the last one answered, or
 * none). An empty catalog is `invalid_arguments/empty_catalog`.
 */
export function toolMode(packages: readonly Package[], tools: readonly BoundTool[], task: Pick<Task, 'method'>): Outcome<ToolMode> {
  const sorted = [...packages].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries = catalog(sorted);
  const bound = new Map<string, BoundPackage<Package>>();
  for (const entry of entries) {
    const binds = bindPackage(sorted.find((pkg) => pkg.name === entry.name)!, tools);
    if (binds.ok) bound.set(entry.name, binds.value);
  }
  if (bound.size === 0) {
    return fail('invalid_arguments', 'empty_catalog', `--skill-mode tool: no package can be listed (found: ${packages.map((p) => `${p.name} (${p.catalog})`).join(', ') || 'none'}); a listed package has a description, no paths condition, is model-invocable and binds to the run's tools`);
  }
  const block = { type: 'text' as const, text: skillsBlock(entries.filter((entry) => bound.has(entry.name))) };
  const builtin = skillTool({ known: packages.map((p) => p.name), catalog: bound, stages: task.method?.stages ?? [] });
  return ok({
    builtin,
    method: {
      blocks: () => [block],
      adoption: (stage, payload) => adoptionOf(bound, stage, payload),
      catalog: (payload) => payloadCatalog(payload),
      record: null,
      skillMode: 'tool',
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
