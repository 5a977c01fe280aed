import { ok, type Failure, type Outcome, type Success } from '../contract/index.ts';
import type { TaskRun } from './task.ts';
import type { ServerReport, ToolProvider, ToolSet } from './tools.ts';

/** What a run records of the servers a user configured behind its tools (`ToolSet.servers`). */
export type ConfiguredServers = NonNullable<ToolSet['servers']>;

/**
 * Tools that did not open: the failure, and the configured servers of the
 * sets that had opened before it (closed again by then, so `end()` reads
 * how they closed), for the record to name what did start.
 */
export interface Unopened {
  readonly ok: false;
  readonly failure: Failure;
  readonly servers?: ConfiguredServers;
}

/**
 * Opens a run's providers in order into one tool set: their tools in
 * provider order, `mcp` if any is, the fixture's server report (the first
 * set's that has one), every set's configured servers in provider order.
 * One that fails or throws closes those opened before it, so nothing it
 * spawned outlives the failure.
 */
export async function openProviders(providers: readonly ToolProvider[], run: TaskRun): Promise<Outcome<ToolSet>> {
  const opened = await openRecorded(providers, run);
  return opened.ok ? opened : opened.failure;
}

/** `openProviders`, and on a failure the configured servers that had started before it (`Unopened`). */
export async function openRecorded(providers: readonly ToolProvider[], run: TaskRun): Promise<Success<ToolSet> | Unopened> {
  const opened: ToolSet[] = [];
  try {
    for (const provider of providers) {
      const set = await provider.open(run);
      if (!set.ok) {
        await closeAll(opened);
        const servers = configuredOf(opened);
        return { ok: false, failure: set, ...(servers ? { servers } : {}) };
      }
      opened.push(set.value);
    }
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
  return ok(joined(opened));
}

function joined(sets: readonly ToolSet[]): ToolSet {
  const server: ServerReport | undefined = sets.find((set) => set.server)?.server;
  const exchanges = sets.flatMap((set) => (set.protocolOf ? [set.protocolOf] : []));
  const servers = configuredOf(sets);
  return {
    transport: sets.some((set) => set.transport === 'mcp') ? 'mcp' : 'local',
    tools: sets.flatMap((set) => set.tools),
    ...(server ? { server } : {}),
    ...(exchanges.length > 0 ? { protocolOf: (actionId: string) => exchanges.map((of) => of(actionId)).find((e) => e !== undefined) } : {}),
    ...(servers ? { servers } : {}),
    close: () => closeAll(sets),
  };
}

/** Every set's configured servers, in provider order (their ends likewise); undefined when none started any. */
function configuredOf(sets: readonly ToolSet[]): ConfiguredServers | undefined {
  const all = sets.flatMap((set) => (set.servers ? [set.servers] : []));
  const start = all.flatMap((servers) => servers.start);
  if (start.length === 0) return undefined;
  return { start, end: () => all.flatMap((servers) => servers.end()) };
}

/**
 * Closes every set, last opened first, even when one close throws (that error
 * is then rethrown); the one report there is (a server's), or all of them
 * when several report.
 */
async function closeAll(sets: readonly ToolSet[]): Promise<unknown> {
  const reports: unknown[] = [];
  let thrown: { error: unknown } | undefined;
  for (const set of [...sets].reverse()) {
    try {
      const report = await set.close();
      if (report !== undefined) reports.unshift(report);
    } catch (error) {
      thrown ??= { error };
    }
  }
  if (thrown) throw thrown.error;
  return reports.length <= 1 ? reports[0] : reports;
}
