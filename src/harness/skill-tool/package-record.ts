import type { Event, EventInput } from '../../ledger/index.ts';
import type { CatalogEntry, Package } from '../../skill/index.ts';

/** A package as format 10 records one Skill may serve (run_start's `skill_packages`, a nested one's `skill_visible.package`). */
export type SkillPackageRecord = NonNullable<EventInput<'run_start'>['skill_packages']>[number];

/**
 * A package's identity and standing in tool mode: name, kind, hash (and a
 * staged one's version and stages, a plain one's body sha256, by which verify re-checks
 * a Skill result's text), origin, catalog status and a held one's globs.
 * Only a package that is `listed` or `held_by_paths` is recorded.
 */
export function packageRecord(pkg: Package & { readonly catalog: 'listed' | 'held_by_paths' }): SkillPackageRecord {
  const kind = pkg.kind === 'plain' ? { kind: 'plain' as const, hash: pkg.hash, body_sha256: pkg.body.sha256 } : { kind: 'staged' as const, hash: pkg.hash, version: pkg.version, stages: Object.keys(pkg.stages) };
  return { name: pkg.name, ...kind, origin: pkg.origin, catalog: pkg.catalog, ...(pkg.catalog === 'held_by_paths' ? { paths: [...pkg.paths] } : {}) };
}

/** What a format-10 run_start records for tool mode (absent in earlier formats, where run_start has no such field). */
export interface ToolModeStart {
  readonly skill_packages?: readonly SkillPackageRecord[];
  readonly skill_nested?: boolean;
}

/** A parsed run_start's tool-mode fields: verify parsed it with its format's schema, which gives them these shapes from format 10 on. */
export function toolModeStart(start: Event<'run_start'>): ToolModeStart {
  return start as ToolModeStart;
}

/** Whether a package can ever be in a catalog (listed now, or once a touch matches its `paths`). */
export function isCatalogued(pkg: Package): pkg is Package & { readonly catalog: 'listed' | 'held_by_paths' } {
  return pkg.catalog === 'listed' || pkg.catalog === 'held_by_paths';
}

/** A package's catalog entry, whatever held it: name, description, `when_to_use`. */
export function entryOf(pkg: Package): CatalogEntry {
  return { name: pkg.name, description: pkg.description ?? '', ...(pkg.whenToUse === undefined ? {} : { whenToUse: pkg.whenToUse }) };
}
