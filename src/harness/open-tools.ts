import { ok, type Outcome } from '../contract/index.ts';
import type { TaskRun } from './task.ts';
import type { ServerReport, ToolProvider, ToolSet } from './tools.ts';

/**
 * Opens a run's providers in order into one tool set: their tools in
 * provider order, `mcp` if any is, the first server's report (recording
 * several is the next step's). One that fails or throws closes those
 * opened before it, so nothing it spawned outlives the failure.
 */
export async function openProviders(providers: readonly ToolProvider[], run: TaskRun): Promise<Outcome<ToolSet>> {
  const opened: ToolSet[] = [];
  try {
    for (const provider of providers) {
      const set = await provider.open(run);
      if (!set.ok) {
        await closeAll(opened);
        return set;
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
  return {
    transport: sets.some((set) => set.transport === 'mcp') ? 'mcp' : 'local',
    tools: sets.flatMap((set) => set.tools),
    ...(server ? { server } : {}),
    ...(exchanges.length > 0 ? { protocolOf: (actionId: string) => exchanges.map((of) => of(actionId)).find((e) => e !== undefined) } : {}),
    close: () => closeAll(sets),
  };
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
