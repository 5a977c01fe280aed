/**
 * Where a run records the snapshot sources: `snapshot/<id>.md`, role
 * `snapshot_source` on run_start. The task's start writes them; its recheck
 * reads the id back from the path.
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
