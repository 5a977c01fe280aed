import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordEvents } from '../ledger/index.ts';

/** What a run left behind, read back from its run dir (never from the in-memory outcome). */
export interface RunEffects {
  /** Files under the run dir's folder for the task's artifact (`Task.artifact.folder`). */
  readonly artifactFiles: number;
  /**
   * Per tool that is not read-only (from the bindings recorded at `run_start`),
   * how many recorded calls entered its handler: the side effects the run
   * started, whatever the call's outcome.
   */
  readonly effects: Readonly<Record<string, number>>;
}

/**
 * Reads a run dir's side effects: the files under the artifact's `folder` and, from
 * the ledger's events (parsed with their schemas), the handler entries of
 * every tool whose recorded contract is not read-only. A call record names
 * its binding by id; a refused call that never resolved has none and never
 * entered a handler.
 *
 * Meant for a run dir `verify` has already accepted: a ledger it cannot read
 * is an error here (thrown), not a verdict on the record.
 */
export function readRunEffects(runDir: string, folder: string | undefined): RunEffects {
  let artifactFiles = 0;
  try {
    // A task that names no artifact folder has no artifact to count.
    if (folder !== undefined) artifactFiles = readdirSync(join(runDir, folder)).length;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const events = readRecordEvents(runDir);
  if (!events.ok) throw new Error(`${runDir}: ${events.kind}: ${events.message}`);
  const writers = new Map<string, string>();
  const effects: Record<string, number> = {};
  for (const event of events.value) {
    if (event.type === 'run_start') {
      for (const binding of event.bindings) {
        if (!binding.contract.attributes.readOnly) writers.set(binding.id, binding.contract.name);
      }
    } else if (event.type === 'call' && event.handler_entered && event.binding_id !== null) {
      const tool = writers.get(event.binding_id);
      if (tool !== undefined) effects[tool] = (effects[tool] ?? 0) + 1;
    }
  }
  return { artifactFiles, effects };
}

/**
 * Why a run's effects break the check's invariant, or undefined: at most one
 * file under the artifact's `folder`, and no side effect started twice (a
 * handler entered once per tool that is not read-only).
 */
export function effectViolation(effects: RunEffects, folder: string): string | undefined {
  if (effects.artifactFiles > 1) return `${effects.artifactFiles} files under ${folder}/`;
  const repeated = Object.entries(effects.effects).filter(([, n]) => n > 1);
  return repeated.length > 0 ? repeated.map(([tool, n]) => `${tool} handler entered ${n} times`).join(', ') : undefined;
}
