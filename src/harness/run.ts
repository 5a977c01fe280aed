import { CAPLAB_VERSION } from '../version.ts';
import type { Outcome } from '../contract/index.ts';
import { fail, isUnknownOutcome, ok } from '../contract/index.ts';
import { LEDGER_FORMAT_3, openRunDir, type Clock, type EventInput, type RecordLimits, type RunDir, type RunDirFs } from '../ledger/index.ts';
import { mergeReports, reapOrphans, type SweepGraces } from '../platform/index.ts';
import type { Hook, Pipeline, RuntimeTool } from '../pipeline/index.ts';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { exitOf } from './ending.ts';
import { runLoop, type LoopResult, type LoopStep, type MethodSupport } from './loop.ts';
import { RecordRefused, type FileRef, type RunRecorder } from './recorder.ts';
import { scriptedModel, type Scenario } from './scenario.ts';
import { SNAPSHOT_ROLE, snapshotFile } from './snapshot-files.ts';
import type { Snapshot, Task } from './task.ts';
import { runtimeTable, type ServerReport, type ToolProvider } from './tools.ts';

export interface RunOptions {
  readonly task: Task;
  readonly scenario: Scenario;
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

/** The exit code of a run interrupted by this signal: 128 + its number, as a shell reports it. */
export function interruptedExit(reason: unknown): 130 | 143 {
  return reason === 'SIGINT' ? 130 : 143;
}

/** A finished run, ready to report. */
export interface RunOutcome {
  readonly runId: string;
  readonly runDir: string;
  readonly transport: 'local' | 'mcp';
  readonly server?: ServerReport;
  readonly loop: LoopResult;
  readonly head: string;
  readonly events: number;
  readonly exitCode: 0 | 1 | 3 | 4 | 130 | 143;
  readonly ending: string;
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
  let toolsClose: (() => Promise<unknown>) | undefined;
  const start = (fields: Record<string, unknown>) => {
    recorder.append('run_start', {
      caplab: CAPLAB_VERSION,
      run_id: options.runId,
      scenario: options.scenario.name,
      model: { name: `scripted:${options.scenario.name}`, scripted: true },
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
      const exitCode = toolSet.class === 'spawn' || toolSet.class === 'protocol' ? 3 : 1;
      recorder.append('run_end', { accepted: false, exit_code: exitCode, ending: 'failed', cause: `${toolSet.class}/${toolSet.kind}: ${toolSet.message}` });
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
    let requestIndex = 0;
    const loop = await runLoop({
      task: options.task,
      runId: options.runId,
      model: scriptedModel(options.scenario),
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
    const { exitCode, ending } = signal ? { exitCode: interruptedExit(signal), ending: `interrupted by ${signal}` } : endingOf(loop);
    const counts = { stop: loop.stop, requests: loop.requests.length, tool_calls: loop.calls.length, transport_close: closeReport ?? null, orphans };
    recorder.append('run_end', runEnd(run, loop, signal, exitCode, ending, counts));
    const head = run.head();
    const events = run.count();
    const sealed = run.close();
    if (!sealed.ok) return sealed;
    return ok({
      runId: options.runId,
      runDir: run.dir,
      transport: toolSet.value.transport,
      ...(toolSet.value.server ? { server: toolSet.value.server } : {}),
      loop,
      head,
      events,
      exitCode,
      ending,
      closeReport,
    });
  } catch (error) {
    if (toolsClose) await toolsClose().catch(() => undefined);
    const refused = error instanceof RecordRefused ? error.failure : undefined;
    const cause = refused ? `${refused.class}/${refused.kind}: ${refused.message}` : error instanceof RecordWriteError ? error.message : `crash: ${String(error)}`;
    const recorded = endFailed(run, started ? undefined : start, cause);
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

/** What run_end counts of a run that reached the loop's end. */
type RunCounts = Pick<EventInput<'run_end'>, 'stop' | 'requests' | 'tool_calls' | 'transport_close' | 'orphans'>;

/**
 * The run's last event: interrupted by a signal, failed at one of the loop's
 * bounds (naming it, and vouching for any file a tool left unrecorded), or
 * completed with its verdict.
 */
function runEnd(run: RunDir, loop: LoopResult, signal: string | undefined, exitCode: RunOutcome['exitCode'], ending: string, counts: RunCounts): EventInput<'run_end'> {
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
 * @returns Whether the failure is on record and sealed.
 */
function endFailed(run: RunDir, start: ((fields: Record<string, unknown>) => void) | undefined, cause: string): boolean {
  try {
    start?.({});
    const left = run.unreferencedFiles('left_by_failure');
    const ended = run.append('run_end', { accepted: false, exit_code: 1, ending: 'failed', cause, ...(left.length > 0 ? { files: left } : {}) });
    if (ended.ok && run.close().ok) return true;
  } catch {
    // The ledger refused even this (a program error or a broken write): leave it unsealed.
  }
  run.closeUnsealed(cause);
  return false;
}

/**
 * The exit code (SPEC F-CLI): 4 when any outcome is unknown, 3 for a protocol
 * or transport failure, 0 when accepted, 1 otherwise.
 */
function endingOf(loop: LoopResult): { exitCode: 0 | 1 | 3 | 4; ending: string } {
  const failures = loop.calls.flatMap((c) => (c.outcome.ok ? [] : [c.outcome]));
  const exitCode = exitOf(failures, loop.accepted, loop.failure !== undefined);
  const unknown = failures.find(isUnknownOutcome);
  if (exitCode === 4 && unknown) return { exitCode, ending: `outcome unknown: ${unknown.class}/${unknown.kind}` };
  const transport = failures.find((f) => f.class === 'protocol' || f.class === 'spawn');
  if (exitCode === 3 && transport) return { exitCode, ending: `protocol failure: ${transport.class}/${transport.kind}` };
  if (loop.failure) return { exitCode, ending: `failed: ${loop.failure.class}/${loop.failure.kind}` };
  if (exitCode === 0) return { exitCode, ending: 'accepted' };
  const first = failures[0];
  const failed = loop.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
  return { exitCode, ending: first ? `not accepted: ${first.class}/${first.kind}` : `not accepted: ${failed.join(', ')} failed` };
}

