import type { TaskRun } from '../harness/index.ts';
import type { Snapshot } from './snapshot.ts';
import { fixtureSnapshot } from './sources.ts';

/** One run of the excerpt task: its startup snapshot, and what each of its requests disclosed. */
export interface ExcerptRun {
  readonly runId: string;
  readonly snapshot: Snapshot;
  /** The sources request `requestId` disclosed, as its request event records them; none for a request not made. */
  disclosedBy(requestId: string): readonly string[];
  /** Keeps what a request disclosed (the task's request fields compute it before the request is sent). */
  disclose(requestId: string, sources: readonly string[]): void;
}

/** A run over this snapshot, nothing disclosed yet. */
export function newExcerptRun(runId: string, snapshot: Snapshot): ExcerptRun {
  const disclosed = new Map<string, readonly string[]>();
  return {
    runId,
    snapshot,
    disclosedBy: (requestId) => disclosed.get(requestId) ?? [],
    disclose: (requestId, sources) => void disclosed.set(requestId, sources),
  };
}

// Keyed by the host's run object (the same one from start to acceptance), so runs never share state.
const runs = new WeakMap<TaskRun, ExcerptRun>();

/** The excerpt's state of a run, made at its first use (its start): the sources are read once, then, into the snapshot. */
export function excerptRun(run: TaskRun): ExcerptRun {
  let held = runs.get(run);
  if (!held) {
    held = newExcerptRun(run.runId, fixtureSnapshot());
    runs.set(run, held);
  }
  return held;
}
