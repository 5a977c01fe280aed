import { CAPLAB_VERSION } from '../version.ts';
import type { Outcome } from '../contract/index.ts';
import { fail, ok, type Failure } from '../contract/index.ts';
import { EXIT, exitCodeOf } from '../base/index.ts';
import { openRunDir, type Clock, type EventInput, type RecordLimits, type RunDir, type RunDirFs } from '../ledger/index.ts';
import { mergeReports, reapOrphans, type SweepGraces } from '../platform/index.ts';
import type { Hook, Pipeline, RuntimeTool } from '../pipeline/index.ts';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { endingOfFailure, loopEnding, summaryOf, type RunEnding } from './ending.ts';
import { runLoop, type LoopResult, type LoopStep, type MethodSupport } from './loop.ts';
import { RecordRefused, type FileRef, type RunRecorder } from './recorder.ts';
import { hostProvider, type Builtin, type HostServices } from './host-tools.ts';
import type { Model, ModelOrigin } from './model.ts';
import { openProviders } from './open-tools.ts';
import { runNames } from './run-names.ts';
import type { Task, TaskRun } from './task.ts';
import { duplicateName, runtimeTable, type ServerReport, type ToolProvider } from './tools.ts';

export interface RunOptions {
  readonly task: Task;
  /** What answers the run's requests (`scriptedModel`, `replayModel`); every label of the run comes from it. */
  readonly model: Model;
  /** Tools beyond the task's own (`task.tools`), after them: users' servers. */
  readonly providers?: readonly ToolProvider[];
  /** The host's own tools, after every provider's (none ships); each gets the run's `HostServices`. */
  readonly builtins?: readonly Builtin[];
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
  readonly method?: MethodSupport & { readonly record: Readonly<Record<string, unknown>> };
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
  };
}

/**
 * Runs one scenario end to end: run dir and ledger, what the task starts from,
 * tools (the task's providers, those given, the built-ins), the loop,
 * acceptance, and a clean close. Every step is recorded before it is
 * reported. Two tools under one name are refused before any work
 * (`invalid_arguments/duplicate_tool`: nothing opened, no run dir made). Once the run dir exists the ledger always ends in a `run_end`
 * (`completed`, `interrupted` naming the signal, or `failed` with its cause)
 * before the seal is written; when even that cannot be appended, the dir is
 * left unsealed. Before the servers close and again after, processes that
 * escaped their group (setsid) are killed (Linux, as a child subreaper) and
 * listed in `run_end.orphans`; those found by a server's own close are in its
 * close report.
 */
export async function runTask(options: RunOptions): Promise<Outcome<RunOutcome>> {
  const taskRun: TaskRun = Object.freeze({ runId: options.runId });
  let table: Readonly<Record<string, RuntimeTool>> = {};
  const { providers, clash } = providersOf(options, taskRun, () => table);
  if (!clash.ok && !options.opened) return clash;
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
  const startFiles: (FileRef & { role: string })[] = [];
  let taskFields: Readonly<Record<string, unknown>> = {};
  let started = false;
  // Responses recorded so far: the registry hook's request index, and what the model's run_end fields count.
  let requestIndex = 0;
  let toolsClose: (() => Promise<unknown>) | undefined;
  const start = (fields: Record<string, unknown>) => {
    recorder.append('run_start', {
      ...taskFields,
      caplab: CAPLAB_VERSION,
      task: options.task.id,
      run_id: options.runId,
      scenario: options.model.record.scenario,
      model: options.model.record.model,
      transport: null,
      server: null,
      bindings: [],
      hooks: options.hooks.map((h) => ({ name: h.name, event: h.event, matcher: h.matcher })),
      method: options.method?.record ?? null,
      files: startFiles,
      ...fields,
    });
    started = true;
  };
  try {
    const begun = options.task.start?.(taskRun);
    for (const file of begun?.files ?? []) startFiles.push({ role: file.role, ...recorder.writeFile(file.path, file.bytes) });
    taskFields = begun?.fields ?? {};
    const toolSet = clash.ok ? await openProviders(providers, taskRun) : clash;
    // What the offers promised is checked again on what opened: one name, one tool.
    const frozen = toolSet.ok ? runtimeTable(toolSet.value.tools) : toolSet;
    if (!toolSet.ok || !frozen.ok) {
      if (toolSet.ok) await toolSet.value.close();
      const failure = toolSet.ok ? (frozen as Failure) : toolSet;
      start({});
      const exitCode = recordedExit(endingOfFailure(failure));
      recorder.append('run_end', { accepted: false, exit_code: exitCode, ending: 'failed', cause: `${failure.class}/${failure.kind}: ${failure.message}`, ...options.model.ended?.(0) });
      const sealed = run.close();
      return sealed.ok ? failure : sealed;
    }
    table = frozen.value;
    // Idempotent: an interruption starts the close at once (ending calls in flight), the end awaits the same.
    let closing: Promise<unknown> | undefined;
    toolsClose = () => (closing ??= toolSet.value.close());
    const closeOnAbort = () => void toolsClose?.();
    options.signal?.addEventListener('abort', closeOnAbort, { once: true });
    start({ transport: toolSet.value.transport, server: toolSet.value.server ?? null, bindings: Object.values(table).map((t) => t.binding) });
    const loop = await runLoop({
      task: options.task,
      run: taskRun,
      runId: options.runId,
      model: options.model,
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
    recorder.append('run_end', runEnd(run, loop, signal, recordedExit(ending), summaryOf(ending), counts));
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

/**
 * The run's providers in the order the model sees their tools — the task's,
 * those given, then the built-ins over the run's services — and whether two
 * of them offer one name.
 */
function providersOf(options: RunOptions, run: TaskRun, table: HostServices['tools']): { providers: readonly ToolProvider[]; clash: Outcome<void> } {
  const services: HostServices = { tools: table, names: runNames().child('host'), signal: options.signal ?? new AbortController().signal };
  const builtins = options.builtins ?? [];
  const providers = [...options.task.tools(run), ...(options.providers ?? []), ...(builtins.length > 0 ? [hostProvider(builtins, services)] : [])];
  return { providers, clash: duplicateName(providers.flatMap((provider) => provider.offers)) };
}

/** An exit code as run_end records it. */
type RecordedExit = EventInput<'run_end'>['exit_code'];

/**
 * A run's exit code as its run_end records it. A run with a run dir was
 * never refused (exit 2 is a refusal's, before any run dir exists), and no
 * ending gives 70 (main.ts's last resort).
 * @throws TypeError for either: the program's mistake.
 */
function recordedExit(ending: RunEnding): RecordedExit {
  const code = exitCodeOf(ending);
  if (code === EXIT.usage || code === EXIT.internal) throw new TypeError(`a run with a run dir cannot end with exit ${code}: ${JSON.stringify(ending)}`);
  return code;
}

/** What run_end counts of a run that reached the loop's end. */
type RunCounts = Pick<EventInput<'run_end'>, 'stop' | 'requests' | 'tool_calls' | 'transport_close' | 'orphans'>;

/**
 * The run's last event: interrupted by a signal, failed at one of the loop's
 * bounds (naming it, and vouching for any file a tool left unrecorded), or
 * completed with its verdict.
 */
function runEnd(run: RunDir, loop: LoopResult, signal: string | undefined, exitCode: RecordedExit, ending: string, counts: RunCounts): EventInput<'run_end'> {
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
    const ended = run.append('run_end', { accepted: false, exit_code: recordedExit({ type: 'failed', at: 'run' }), ending: 'failed', cause, ...(left.length > 0 ? { files: left } : {}), ...model });
    if (ended.ok && run.close().ok) return true;
  } catch {
    // The ledger refused even this (a program error or a broken write): leave it unsealed.
  }
  run.closeUnsealed(cause);
  return false;
}
