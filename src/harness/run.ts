import { CAPLAB_VERSION } from '../version.ts';
import type { Outcome } from '../contract/index.ts';
import { fail, ok } from '../contract/index.ts';
import { exitCodeOf } from '../base/index.ts';
import { LEDGER_FORMAT_3, openRunDir, type Clock, type RecordLimits, type RunDir, type RunDirFs } from '../ledger/index.ts';
import { mergeReports, reapOrphans, type SweepGraces } from '../platform/index.ts';
import type { Hook, Pipeline, RuntimeTool } from '../pipeline/index.ts';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { endingOfFailure, loopEnding, summaryOf, type RunEnding } from './ending.ts';
import { runLoop, type LoopResult, type LoopStep, type MethodSupport } from './loop.ts';
import { RecordRefused, type FileRef, type RunRecorder } from './recorder.ts';
import type { Model, ModelOrigin } from './model.ts';
import { SNAPSHOT_ROLE, snapshotFile } from './snapshot-files.ts';
import type { Snapshot, Task } from './task.ts';
import { runtimeTable, type ServerReport, type ToolProvider } from './tools.ts';

export interface RunOptions {
  readonly task: Task;
  /** What answers the run's requests (`scriptedModel`, `replayModel`); every label of the run comes from it. */
  readonly model: Model;
  /** The task's startup snapshot (`task.snapshot()`), taken once before the run. */
  readonly snapshot: Snapshot;
  readonly tools: ToolProvider;
  readonly runId: string;
  readonly runDir: string;
  /**
   * The run dir already opened at `runDir` (the CLI takes it before any output,
   * so a path it cannot take is a usage error); runTask then owns and closes it.
   */
  readonly opened?: RunDir;
  readonly clock: Clock;
  readonly cwd: string;
  readonly hooks: readonly Hook[];
  readonly permission: Pipeline['permission'];
  readonly convert: Parameters<typeof runLoop>[0]['pipeline']['convert'];
  readonly method?: MethodSupport & { readonly record: unknown };
  /** Lets a test swap the tool table between requests (binding_changed). */
  readonly registry?: (table: Readonly<Record<string, RuntimeTool>>, requestIndex: number) => Readonly<Record<string, RuntimeTool>>;
  readonly onStep?: (step: LoopStep) => void;
  /** The run dir's filesystem (a test makes a write fail through it). */
  readonly fs?: RunDirFs;
  /** fsync every event and file as it is written (`--durable`; see the ledger's `OpenRunDirOptions`). */
  readonly durable?: boolean;
  /** The bounds the record is written within (default: what `verify` reads; a test injects small ones). */
  readonly recordLimits?: Partial<RecordLimits>;
  /**
   * Aborted on SIGINT/SIGTERM (main.ts) or by a test, with the signal's name
   * as its reason: no new work starts, hooks and servers are terminated with
   * their process groups, and the run ends `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/** How long escaped processes (setsid) get after SIGTERM, then after SIGKILL, at the end of a run. */
const ORPHAN_GRACES: SweepGraces = { termMs: 500, killMs: 500 };

/** A finished run, ready to report. */
export interface RunOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly transport: 'local' | 'mcp';
  readonly server?: ServerReport;
  /** The model that answered: how the run's responses and usage are labelled. */
  readonly model: { readonly name: string; readonly origin: ModelOrigin; readonly scenario: string | null };
  readonly loop: LoopResult;
  readonly head: string;
  readonly events: number;
  /** How it ended: `exitCodeOf` gives the exit code, `summaryOf` the line. */
  readonly ending: RunEnding;
  readonly closeReport: unknown;
}

class RecordWriteError extends Error {}

/** Adapts the ledger's run dir to the loop's recorder; a failed write stops the run. */
function recorderOf(run: RunDir): RunRecorder {
  const must = <T>(outcome: Outcome<T>): T => {
    if (outcome.ok) return outcome.value;
    if (outcome.kind === 'record_limit') throw new RecordRefused(outcome);
    throw new RecordWriteError(`${outcome.class}/${outcome.kind}: ${outcome.message}`);
  };
  return {
    writeFile: (relPath, bytes) => must(run.writeFile(relPath, bytes)),
    fileRef: (relPath, role) => {
      const ref = run.fileRef(relPath, role);
      return ref.ok ? ref.value : undefined;
    },
    append: (type, data) => must(run.append(type, data)),
    useFormat: (format) => run.useFormat(format),
  };
}

/**
 * Runs one scenario end to end: run dir and ledger, tools (local or MCP), the
 * loop, acceptance, and a clean close. Every step is recorded before it is
 * reported. Once the run dir exists the ledger always ends in a `run_end`
 * (`completed`, `interrupted` naming the signal, or `failed` with its cause)
 * before the seal is written; when even that cannot be appended, the dir is
 * left unsealed. Before the servers close and again after, processes that
 * escaped their group (setsid) are killed (Linux, as a child subreaper) and
 * listed in `run_end.orphans`; those found by a server's own close are in its
 * close report.
 */
export async function runTask(options: RunOptions): Promise<Outcome<RunOutcome>> {
  const opened = options.opened
    ? ok(options.opened)
    : openRunDir(options.runDir, {
        clock: options.clock,
        durable: options.durable ?? false,
        ...(options.fs ? { fs: options.fs } : {}),
        ...(options.recordLimits ? { limits: options.recordLimits } : {}),
      });
  if (!opened.ok) return opened;
  const run = opened.value;
  const recorder = recorderOf(run);
  if (isPlainMethod(options.method?.record)) recorder.useFormat(LEDGER_FORMAT_3);
  const snapshotFiles: (FileRef & { role: string })[] = [];
  let started = false;
  // Responses recorded so far: the registry hook's request index, and what the model's run_end fields count.
  let requestIndex = 0;
  let toolsClose: (() => Promise<unknown>) | undefined;
  const start = (fields: Record<string, unknown>) => {
    recorder.append('run_start', {
      caplab: CAPLAB_VERSION,
      run_id: options.runId,
      scenario: options.model.record.scenario,
      model: options.model.record.model,
      transport: null,
      server: null,
      snapshot: { id: options.snapshot.id, sources: options.snapshot.sources.map((s) => ({ id: s.id, sha256: s.sha256, bytes: s.byteLength })) },
      bindings: [],
      hooks: options.hooks.map((h) => ({ name: h.name, event: h.event, matcher: h.matcher })),
      method: options.method?.record ?? null,
      files: snapshotFiles,
      ...fields,
    });
    started = true;
  };
  try {
    for (const s of options.snapshot.sources) snapshotFiles.push({ role: SNAPSHOT_ROLE, ...recorder.writeFile(snapshotFile(s.id), s.bytes) });
    const toolSet = await options.tools(options.snapshot, options.runId);
    if (!toolSet.ok) {
      start({});
      const exitCode = exitCodeOf(endingOfFailure(toolSet));
      recorder.append('run_end', { accepted: false, exit_code: exitCode, ending: 'failed', cause: `${toolSet.class}/${toolSet.kind}: ${toolSet.message}`, ...options.model.ended?.(0) });
      const sealed = run.close();
      return sealed.ok ? toolSet : sealed;
    }
    // Idempotent: an interruption starts the close at once (ending calls in flight), the end awaits the same.
    let closing: Promise<unknown> | undefined;
    toolsClose = () => (closing ??= toolSet.value.close());
    const closeOnAbort = () => void toolsClose?.();
    options.signal?.addEventListener('abort', closeOnAbort, { once: true });
    const table = runtimeTable(toolSet.value.tools);
    start({ transport: toolSet.value.transport, server: toolSet.value.server ?? null, bindings: Object.values(table).map((t) => t.binding) });
    const loop = await runLoop({
      task: options.task,
      runId: options.runId,
      model: options.model,
      snapshot: options.snapshot,
      registry: () => (options.registry ? options.registry(table, requestIndex) : table),
      pipeline: {
        hooks: options.hooks,
        permission: options.permission,
        convert: options.convert,
        keepOutput: (actionId, text) => recorder.writeFile(`outputs/${actionId}.txt`, new TextEncoder().encode(text)),
        session: { id: options.runId, transcriptPath: join(run.dir, 'ledger.jsonl'), cwd: options.cwd },
        runDir: run.dir,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      recorder,
      readRunFile: (relPath) => {
        try {
          return new Uint8Array(readFileSync(join(run.dir, relPath)));
        } catch {
          return undefined;
        }
      },
      ...(options.method ? { method: options.method } : {}),
      ...(toolSet.value.protocolOf ? { protocolOf: toolSet.value.protocolOf } : {}),
      onStep: (step) => {
        if (step.type === 'response') requestIndex++;
        options.onStep?.(step);
      },
    });
    // The record so far goes to disk (all at once) while the servers close; close() syncs the rest.
    const syncing = run.sync();
    // Before the servers close, what hooks left (their report stays theirs); after, whatever is left.
    const early = await reapOrphans(ORPHAN_GRACES);
    const closeReport = await toolsClose();
    options.signal?.removeEventListener('abort', closeOnAbort);
    toolsClose = undefined;
    const orphans = mergeReports(early, await reapOrphans(ORPHAN_GRACES));
    await syncing;
    const signal = options.signal?.aborted ? String(options.signal.reason) : undefined;
    const ending = loopEnding(loop, signal);
    const counts = { stop: loop.stop, requests: loop.requests.length, tool_calls: loop.calls.length, transport_close: closeReport ?? null, orphans, ...options.model.ended?.(requestIndex) };
    recorder.append('run_end', runEnd(run, loop, signal, exitCodeOf(ending), summaryOf(ending), counts));
    const head = run.head();
    const events = run.count();
    const sealed = run.close();
    if (!sealed.ok) return sealed;
    return ok({
      runId: options.runId,
      runDir: run.dir,
      transport: toolSet.value.transport,
      ...(toolSet.value.server ? { server: toolSet.value.server } : {}),
      model: { name: options.model.name, origin: options.model.origin, scenario: options.model.record.scenario },
      loop,
      head,
      events,
      ending,
      closeReport,
    });
  } catch (error) {
    if (toolsClose) await toolsClose().catch(() => undefined);
    const refused = error instanceof RecordRefused ? error.failure : undefined;
    const cause = refused ? `${refused.class}/${refused.kind}: ${refused.message}` : error instanceof RecordWriteError ? error.message : `crash: ${String(error)}`;
    const recorded = endFailed(run, started ? undefined : start, cause, options.model.ended?.(requestIndex));
    if (refused) return recorded ? refused : fail('business', 'record_write_failed', `${cause}; the run dir is left unsealed`);
    if (error instanceof RecordWriteError) {
      return fail('business', 'record_write_failed', recorded ? error.message : `${error.message}; the run dir is left unsealed`);
    }
    throw error;
  }
}

/** Whether a method record is a plain Agent Skills body (record format 3). */
function isPlainMethod(record: unknown): boolean {
  return typeof record === 'object' && record !== null && (record as { plain?: unknown }).plain === true;
}

/**
 * The run's last event: interrupted by a signal, failed at one of the loop's
 * bounds (naming it, and vouching for any file a tool left unrecorded), or
 * completed with its verdict.
 */
function runEnd(run: RunDir, loop: LoopResult, signal: string | undefined, exitCode: number, ending: string, counts: Record<string, unknown>): Record<string, unknown> {
  if (signal) {
    return { accepted: false, exit_code: exitCode, ending: 'interrupted', cause: `${signal}: new work stopped; hooks and servers terminated with their process groups`, ...counts };
  }
  if (loop.failure) {
    const left = run.unreferencedFiles('left_by_failure');
    const cause = `${loop.failure.class}/${loop.failure.kind}: ${loop.failure.message}`;
    return { accepted: false, exit_code: exitCode, ending: 'failed', cause, ...counts, ...(left.length > 0 ? { files: left } : {}) };
  }
  return { accepted: loop.accepted, exit_code: exitCode, ending: 'completed', summary: ending, ...counts };
}

/**
 * Records a failed end (and a run_start first, if the failure came before it)
 * and seals; when the ledger takes no more events, closes it unsealed.
 * `model` is what the model adds to run_end (`Model.ended`).
 * @returns Whether the failure is on record and sealed.
 */
function endFailed(run: RunDir, start: ((fields: Record<string, unknown>) => void) | undefined, cause: string, model: Readonly<Record<string, unknown>> = {}): boolean {
  try {
    start?.({});
    const left = run.unreferencedFiles('left_by_failure');
    const ended = run.append('run_end', { accepted: false, exit_code: exitCodeOf({ type: 'failed', at: 'run' }), ending: 'failed', cause, ...(left.length > 0 ? { files: left } : {}), ...model });
    if (ended.ok && run.close().ok) return true;
  } catch {
    // The ledger refused even this (a program error or a broken write): leave it unsealed.
  }
  run.closeUnsealed(cause);
  return false;
}
