/**
 * Where a run records its snapshot sources: `snapshot/<id>.md`, role
 * `snapshot_source` on run_start. The run writes them; `verify` reads the id
 * back from the path.
 */
export const SNAPSHOT_ROLE = 'snapshot_source';

/** The run-dir path of one snapshot source. */
export function snapshotFile(id: string): string {
  return `snapshot/${id}.md`;
}

/** The source id a recorded snapshot file stands for (the inverse of `snapshotFile`). */
export function snapshotIdOf(path: string): string {
  return path.replace(/^snapshot\//, '').replace(/\.md$/, '');
}
