import { assetBytes } from '../assets/index.ts';
import { takeSnapshot, type Snapshot } from './snapshot.ts';

/** The fixed source ids, in the fixed order quotes must follow. */
export const SOURCE_IDS = ['alpha', 'beta'] as const;

/** Reads the embedded fixture sources once into a startup snapshot. */
export function fixtureSnapshot(): Snapshot {
  return takeSnapshot(
    SOURCE_IDS.map((id) => {
      const bytes = assetBytes(`fixtures/sources/${id}.md`);
      if (!bytes) throw new Error(`embedded source missing: ${id}`);
      return { id, bytes };
    }),
  );
}
