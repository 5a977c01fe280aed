import { LIMITS } from '../contract/index.ts';
import type { CatalogEntry, Package } from './types.ts';

/**
 * The catalog the model may see before activation: name, description and
 * `when_to_use` of each package whose catalog status is `listed` (one held by
 * `paths`, not model-invocable or without a description is left out), in the
 * order given.
 */
export function catalog(packages: readonly Package[]): readonly CatalogEntry[] {
  return packages.flatMap((pkg) =>
    pkg.catalog === 'listed' && pkg.description !== undefined
      ? [Object.freeze({ name: pkg.name, description: pkg.description, ...(pkg.whenToUse === undefined ? {} : { whenToUse: pkg.whenToUse }) })]
      : [],
  );
}

/**
 * One catalog entry as a line: `- name: description`, then ` When to use:
 * …` when it has one. Past `LIMITS.skillCatalogEntryChars` characters (code
 * points) it is cut to that many, the last being `…`, as Claude Code cuts a
 * skill's listing.
 */
export function catalogLine(entry: CatalogEntry): string {
  const line = `- ${entry.name}: ${entry.description}${entry.whenToUse === undefined ? '' : ` When to use: ${entry.whenToUse}`}`;
  const chars = [...line];
  return chars.length <= LIMITS.skillCatalogEntryChars ? line : `${chars.slice(0, LIMITS.skillCatalogEntryChars - 1).join('')}…`;
}
