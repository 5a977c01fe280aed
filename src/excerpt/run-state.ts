import type { TaskRun } from '../harness/index.ts';
import type { Snapshot } from './snapshot.ts';
import { fixtureSnapshot } from './sources.ts';

/** One run of the excerpt task: its startup snapshot, and what each of its requests disclosed. */
export interface ExcerptRun {
  readonly runId: string;
  readonly snapshot: Snapshot;
  /** The sources request `requestId` disclosed, as its request event records them; none for a request not made. */
  disclosedBy(requestId: string): readonly string[];
  /** Keeps what a request disclosed (the task's request fields compute it before the request is sent); a subagent's request, under its agent too. */
  disclose(requestId: string, sources: readonly string[], agent?: string): void;
  /** The sources any request of subagent `agent` disclosed, in snapshot order. */
  disclosedByAgent(agent: string): readonly string[];
}

/** A run over this snapshot, nothing disclosed yet. */
export function newExcerptRun(runId: string, snapshot: Snapshot): ExcerptRun {
  const disclosed = new Map<string, readonly string[]>();
  const byAgent = new Map<string, Set<string>>();
  return {
    runId,
    snapshot,
    disclosedBy: (requestId) => disclosed.get(requestId) ?? [],
    disclose: (requestId, sources, agent) => {
      disclosed.set(requestId, sources);
      if (agent === undefined) return;
      const held = byAgent.get(agent) ?? new Set<string>();
      for (const source of sources) held.add(source);
      byAgent.set(agent, held);
    },
    disclosedByAgent: (agent) => snapshot.sources.filter((s) => byAgent.get(agent)?.has(s.id)).map((s) => s.id),
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
