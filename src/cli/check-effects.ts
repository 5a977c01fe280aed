import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, readBoundedText } from '../contract/index.ts';
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

/** A run's handler entries per call, and the calls its model asked for, read back from its run dir. */
export interface CallEffects {
  /** Per tool_use id, how many recorded call events entered a handler, in first-entry order. */
  readonly entered: ReadonlyMap<string, number>;
  /** Every tool_use id a recorded response file asked for. */
  readonly asked: ReadonlySet<string>;
}

/**
 * Reads a run dir's handler entries per tool_use id (from its call events)
 * and the ids its model asked for (from the `tool_use` blocks of each
 * response event's files, read bounded, no symlink followed). For the
 * expectations cases of `check --scenarios`: their tools are foreign, never
 * read-only, so the side-effect check is per call, not per tool.
 *
 * Meant for a run dir `verify` has already accepted: a ledger or response
 * file it cannot read is an error here (thrown), not a verdict on the record.
 */
export function readCallEffects(runDir: string): CallEffects {
  const events = readRecordEvents(runDir);
  if (!events.ok) throw new Error(`${runDir}: ${events.kind}: ${events.message}`);
  const entered = new Map<string, number>();
  const asked = new Set<string>();
  for (const event of events.value) {
    if (event.type === 'call' && event.handler_entered) entered.set(event.tool_call_id, (entered.get(event.tool_call_id) ?? 0) + 1);
    if (event.type !== 'response' || 'missing' in event) continue;
    for (const file of event.files) for (const id of toolUseIds(runDir, file.path)) asked.add(id);
  }
  return { entered, asked };
}

/** The ids of a response file's `tool_use` blocks. */
function toolUseIds(runDir: string, path: string): string[] {
  const read = readBoundedText(join(runDir, path), LIMITS.recordFileBytes, { noFollow: true });
  if (!read.ok) throw new Error(`${runDir}: ${read.kind}: ${read.message}`);
  const content = (JSON.parse(read.value) as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) throw new Error(`${runDir}: ${path} is not a model response (no content array)`);
  return content.flatMap((block: { type?: unknown; id?: unknown } | null) => (block?.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : []));
}

/**
 * Why a run's calls break the per-call side-effect rule, or undefined: each
 * call's handler entered at most once per tool_use id, and only for ids a
 * recorded response asked for.
 */
export function callEffectViolation(effects: CallEffects): string | undefined {
  const problems: string[] = [];
  for (const [id, times] of effects.entered) {
    if (!effects.asked.has(id)) problems.push(`call ${JSON.stringify(id)}: handler entered, but no recorded response asked for that id`);
    else if (times > 1) problems.push(`call ${JSON.stringify(id)}: handler entered ${times} times`);
  }
  return problems.length > 0 ? problems.join(', ') : undefined;
}
