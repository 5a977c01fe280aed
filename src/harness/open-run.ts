import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, exitCodeOf } from '../base/index.ts';
import type { Binding } from '../binding/index.ts';
import { fail, ok, type Failure, type Outcome } from '../contract/index.ts';
import { LEDGER_FORMAT_5, LEDGER_FORMAT_6, LEDGER_FORMAT_7, LEDGER_FORMAT_8, LEDGER_FORMAT_10, LEDGER_FORMAT_11, LEDGER_FORMAT_12, openRunDir, type Clock, type EventInput, type RecordFormat, type RecordLimits, type RunDir, type RunDirFs } from '../ledger/index.ts';
import type { Hook } from '../pipeline/index.ts';
import { mergeReports, reapOrphans, type SweepGraces } from '../platform/index.ts';
import { CAPLAB_VERSION } from '../version.ts';
import type { LoopResult } from './decide-acceptance.ts';
import { endingOfFailure, loopEnding, summaryOf, type RunEnding } from './ending.ts';
import type { MethodSupport } from './loop-state.ts';
import type { Model } from './model.ts';
import type { FileRef } from '../ledger/index.ts';
import { recorderOf, type RunRecorder } from './recorder.ts';
import type { Task, TaskStart } from './task.ts';
import type { ConfiguredServers } from './open-tools.ts';
import type { ServerEnd, ServerReport } from './tools.ts';

/** What a run's record is made with: where it goes, how it is written, and what run_start says of the run. */
export interface RunRecordOptions {
  readonly task: Pick<Task, 'id' | 'keepsResults'>;
  /** What answers the run's requests (`scriptedModel`, `replayModel`); every label of the run comes from it. */
  readonly model: Model;
  readonly runId: string;
  readonly runDir: string;
  /**
   * The run dir already opened at `runDir` (the CLI takes it before any output,
   * so a path it cannot take is a usage error); the run then owns and closes it.
   */
  readonly opened?: RunDir;
  readonly clock: Clock;
  readonly hooks: readonly Hook[];
  readonly method?: MethodSupport & {
    /** What run_start records of the adopted package (tool mode: null, no package is adopted at start). */
    readonly record: Readonly<Record<string, unknown>> | null;
    /** Skill tool mode: run_start says `skill_mode: "tool"` and the run names format 10. */
    readonly skillMode?: 'tool';
    /** Skill tool mode: what run_start records of the packages Skill may serve (`skill_packages`, `skill_nested`). */
    readonly startFields?: Readonly<Record<string, unknown>>;
  };
  /** The subagent types the host's Agent offers: run_start records them (`agents`) and the run names format 11. */
  readonly agents?: readonly { readonly name: string; readonly kind: 'dir' | 'project' | 'embedded' | 'host'; readonly path: string; readonly sha256: string }[];
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

/** What run_start records of the tools that opened. */
export interface OpenedTools {
  readonly transport: 'local' | 'mcp' | null;
  readonly server: ServerReport | null;
  readonly bindings: readonly Binding[];
  /**
   * The servers a user configured behind them (or, when the tools did not
   * open, those that had started): run_start records their starts and names
   * format 5, run_end how they ended, read after the tools closed.
   */
  readonly servers?: ConfiguredServers;
  /** The run's defer rules as given (at least one): run_start records them and names format 8. */
  readonly defer?: readonly string[];
}

/** Whether a hook runs at a tool call (its matcher names tools), not at a subagent's start or stop. */
const isToolHook = (event: string): boolean => event === 'PreToolUse' || event === 'PostToolUse';

const NO_TOOLS: OpenedTools = { transport: null, server: null, bindings: [] };

/**
 * Whether the opened tools carry a server reached over HTTP — a binding's
 * server, a configured server's identity, or the server run_start names —
 * the shape only format 7 records (the ledger's `FORMAT_USES` asks the same of the events).
 */
export function reachesHttp(tools: OpenedTools): boolean {
  return (
    (tools.server !== null && 'url' in tools.server) ||
    tools.bindings.some((binding) => binding.server?.endpoint.kind === 'http') ||
    (tools.servers?.start ?? []).some((start) => start.identity?.endpoint.kind === 'http')
  );
}

/**
 * How a run ends: through its loop (with its verdict, or without one), or
 * before it because its tools did not open, or because the record refused a
 * write outside what the loop's bounds catch, or because the host crashed.
 * `answered` is how many responses the run recorded (what the model's run_end fields count).
 */
export type RunClose =
  | { readonly type: 'loop'; readonly loop: LoopResult; readonly answered: number }
  | { readonly type: 'unopened'; readonly failure: Failure; readonly servers?: ConfiguredServers }
  | { readonly type: 'broken'; readonly failure: Failure; readonly answered: number }
  | { readonly type: 'crashed'; readonly error: unknown; readonly answered: number };

/** A run ended through its loop and sealed. */
export interface Ended {
  /** How it ended: `exitCodeOf` gives the exit code, `summaryOf` the line. */
  readonly ending: RunEnding;
  readonly head: string;
  readonly events: number;
  readonly closeReport: unknown;
}

/** How long escaped processes (setsid) get after SIGTERM, then after SIGKILL, at the end of a run. */
const ORPHAN_GRACES: SweepGraces = { termMs: 500, killMs: 500 };

/**
 * An open run: its run dir and ledger, what run_start says, and its tools'
 * close. `end` owns everything after: reaping, closing the tools, the last
 * event and the seal. Once it is open, the ledger always ends in a
 * `run_end` (`completed`, `interrupted` naming the signal, or `failed` with
 * its cause) before the seal is written; when even that cannot be appended,
 * the dir is left unsealed.
 */
export class OpenRun {
  readonly recorder: RunRecorder;
  readonly #dir: RunDir;
  readonly #options: RunRecordOptions;
  readonly #startFiles: FileRef[] = [];
  #taskFields: Readonly<Record<string, unknown>> = {};
  #started = false;
  /** The format the run dir was opened with: every run's but one with configured servers (format 5). */
  readonly #baseFormat: RecordFormat;
  /** The configured servers run_start recorded; run_end records their ends. */
  #servers: ConfiguredServers | undefined;
  #closeTools: (() => Promise<unknown>) | undefined;
  #closing: Promise<unknown> | undefined;
  readonly #onAbort = (): void => void this.#toolsClosed();

  constructor(dir: RunDir, options: RunRecordOptions) {
    this.#dir = dir;
    this.#options = options;
    this.#baseFormat = dir.format();
    this.recorder = recorderOf(dir);
  }

  get dir(): string {
    return this.#dir.dir;
  }

  /** A file of the run dir now (for acceptance), undefined if absent. */
  readFile(relPath: string): Uint8Array | undefined {
    try {
      return new Uint8Array(readFileSync(join(this.#dir.dir, relPath)));
    } catch {
      return undefined;
    }
  }

  /** Writes the files the task starts from (run_start vouches for them) and keeps its own run_start fields. */
  begin(start: TaskStart | undefined): Outcome<void> {
    for (const file of start?.files ?? []) {
      const written = this.recorder.writeFile(file.path, file.bytes);
      if (!written.ok) return written;
      this.#startFiles.push({ role: file.role, ...written.value });
    }
    this.#taskFields = start?.fields ?? {};
    return ok(undefined);
  }

  /**
   * Records run_start: the run, its model, hooks and method, the task's files
   * and fields, and the tools that opened. A run with a tool that completes
   * in the background names format 12 (which has 11's and the earlier shapes
   * too); a run that offers Agent names 11; a run in skill tool mode names
   * format 10 (which has 9's and the earlier shapes too); a run that defers tools names
   * format 8 (which has 7's and the earlier shapes too); tools with a server reached over
   * HTTP name format 7 (which has 6's and 5's shapes too); a task that keeps
   * its calls' results names format 6; tools with configured servers name
   * format 5, which records them; every other run keeps the format it opened with.
   */
  start(tools: OpenedTools): Outcome<void> {
    const { model, hooks, method } = this.#options;
    const { servers, ...opened } = tools;
    // Named on each attempt: a run_start refused (a record limit) is written again, without them, by the failed end.
    const agents = this.#options.agents ?? [];
    const background = tools.bindings.some((binding) => binding.contract.completion !== undefined);
    this.#dir.nameFormat(background ? LEDGER_FORMAT_12 : agents.length > 0 ? LEDGER_FORMAT_11 : method?.skillMode ? LEDGER_FORMAT_10 : tools.defer ? LEDGER_FORMAT_8 : reachesHttp(tools) ? LEDGER_FORMAT_7 : this.#options.task.keepsResults ? LEDGER_FORMAT_6 : servers ? LEDGER_FORMAT_5 : this.#baseFormat);
    const appended = this.recorder.append('run_start', {
      ...this.#taskFields,
      caplab: CAPLAB_VERSION,
      task: this.#options.task.id,
      run_id: this.#options.runId,
      scenario: model.record.scenario,
      model: model.record.model,
      // A subagent event's hook is recorded by a run that can start a subagent (format 11); another never runs it.
      hooks: hooks.flatMap((h) => (isToolHook(h.event) || agents.length > 0 ? [{ name: h.name, event: h.event, matcher: h.matcher }] : [])) as EventInput<'run_start'>['hooks'],
      method: method?.record ?? null,
      files: this.#startFiles,
      ...opened,
      ...(servers ? { servers: servers.start } : {}),
      ...(method?.skillMode ? { skill_mode: method.skillMode, ...method.startFields } : {}),
      ...(agents.length > 0 ? { agents } : {}),
    });
    if (!appended.ok) return appended;
    this.#started = true;
    this.#servers = servers;
    return ok(undefined);
  }

  /** Takes the tools' close. Idempotent: an interruption starts it at once (ending calls in flight), `end` awaits the same. */
  holdTools(close: () => Promise<unknown>): void {
    this.#closeTools = close;
    this.#options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /**
   * Ends the run. Through its loop: reaps what escaped, closes the tools,
   * records run_end (its ending from the loop, its verdict and the signal)
   * and seals. Otherwise records a `failed` run_end (and a run_start first,
   * if none was) and seals, or leaves the dir unsealed; a crash is recorded
   * as one, and the caller rethrows it.
   */
  end(how: Extract<RunClose, { type: 'loop' }>): Promise<Outcome<Ended>>;
  end(how: Extract<RunClose, { type: 'unopened' | 'broken' }>): Promise<Failure>;
  end(how: Extract<RunClose, { type: 'crashed' }>): Promise<void>;
  async end(how: RunClose): Promise<Outcome<Ended> | Failure | void> {
    switch (how.type) {
      case 'loop':
        return this.#endLoop(how.loop, how.answered);
      case 'unopened':
        return this.#endUnopened(how.failure, how.servers);
      case 'broken':
        return this.#endBroken(how.failure, how.answered);
      case 'crashed':
        await this.#toolsClosed().catch(() => undefined);
        this.#recordFailedEnd(`crash: ${String(how.error)}`, how.answered);
    }
  }

  async #endLoop(loop: LoopResult, answered: number): Promise<Outcome<Ended>> {
    // The record broke mid-loop: no counts, no verdict, only the failure (if even that can be written).
    if (loop.failure?.kind === 'record_write_failed') return this.#endBroken(loop.failure, answered);
    // The record so far goes to disk (all at once) while the servers close; close() syncs the rest.
    const syncing = this.#dir.sync();
    // Before the servers close, what hooks left (their report stays theirs); after, whatever is left.
    const early = await reapOrphans(ORPHAN_GRACES);
    const closeReport = await this.#toolsClosed();
    // After the close: a configured server's end (its close report, its stderr's tail) is known only then.
    const servers = this.#serverEnds();
    const orphans = mergeReports(early, await reapOrphans(ORPHAN_GRACES));
    await syncing;
    const signal = this.#options.signal?.aborted ? String(this.#options.signal.reason) : undefined;
    const ending = loopEnding(loop, signal);
    const counts = { stop: loop.stop, requests: loop.requests.length, tool_calls: loop.calls.length, transport_close: closeReport ?? null, orphans, ...this.#options.model.ended?.(answered), ...servers };
    const ended = this.recorder.append('run_end', runEnd(this.#dir, loop, signal, recordedExit(ending), summaryOf(ending), counts));
    if (!ended.ok) return this.#endBroken(ended, answered);
    const head = this.#dir.head();
    const events = this.#dir.count();
    const sealed = this.#dir.close();
    return sealed.ok ? ok({ ending, head, events, closeReport }) : sealed;
  }

  /**
   * Tools that did not open: run_start names none (but the configured
   * servers that had started, already closed), run_end the failure, its exit
   * code as its ending gives it, and how those servers ended.
   */
  async #endUnopened(failure: Failure, servers: ConfiguredServers | undefined): Promise<Failure> {
    const started = this.#started ? ok(undefined) : this.start(servers ? { ...NO_TOOLS, servers } : NO_TOOLS);
    if (!started.ok) return this.#endBroken(started, 0);
    const cause = `${failure.class}/${failure.kind}: ${failure.message}`;
    const ended = this.recorder.append('run_end', { accepted: false, exit_code: recordedExit(endingOfFailure(failure)), ending: 'failed', cause, ...this.#options.model.ended?.(0), ...this.#serverEnds() });
    if (!ended.ok) return this.#endBroken(ended, 0);
    const sealed = this.#dir.close();
    return sealed.ok ? failure : sealed;
  }

  /** The record refused a write: the run ends `failed` with it; what it returns says whether even that is on record. */
  async #endBroken(failure: Failure, answered: number): Promise<Failure> {
    await this.#toolsClosed().catch(() => undefined);
    // A failed write's message already names what failed (`recorderOf`); a record limit is named here.
    const cause = failure.kind === 'record_write_failed' ? failure.message : `${failure.class}/${failure.kind}: ${failure.message}`;
    if (this.#recordFailedEnd(cause, answered)) return failure;
    return fail('business', 'record_write_failed', `${cause}; the run dir is left unsealed`);
  }

  /** run_end's `servers`: each configured server's end, read once the tools closed; nothing when run_start recorded none. */
  #serverEnds(): { servers?: readonly ServerEnd[] } {
    // A server that never started has no close report: null, as JSON keeps it.
    return this.#servers ? { servers: this.#servers.end().map((end) => ({ ...end, close: end.close ?? null })) } : {};
  }

  /** The tools' one close: started by the first caller (an interruption or the end), shared by every later one. */
  #toolsClosed(): Promise<unknown> {
    if (!this.#closeTools) return Promise.resolve(undefined);
    if (!this.#closing) {
      this.#options.signal?.removeEventListener('abort', this.#onAbort);
      this.#closing = this.#closeTools();
    }
    return this.#closing;
  }

  /**
   * Records a failed end (and a run_start first, if the failure came before
   * it) and seals; when the ledger takes no more events, closes it unsealed.
   * @returns Whether the failure is on record and sealed.
   */
  #recordFailedEnd(cause: string, answered: number): boolean {
    try {
      const started = this.#started ? ok(undefined) : this.start(NO_TOOLS);
      const left = this.#dir.unreferencedFiles('left_by_failure');
      const end: EventInput<'run_end'> = { accepted: false, exit_code: recordedExit({ type: 'failed', at: 'run' }), ending: 'failed', cause, ...(left.length > 0 ? { files: left } : {}), ...this.#options.model.ended?.(answered), ...this.#serverEnds() };
      if (started.ok && this.#dir.append('run_end', end).ok && this.#dir.close().ok) return true;
    } catch {
      // The ledger refused even this (a program error): leave it unsealed.
    }
    this.#dir.closeUnsealed(cause);
    return false;
  }
}

/** Opens a run's record: the run dir given (`opened`) or a fresh one at `runDir`. */
export function openRun(options: RunRecordOptions): Outcome<OpenRun> {
  const opened = options.opened
    ? ok(options.opened)
    : openRunDir(options.runDir, {
        clock: options.clock,
        durable: options.durable ?? false,
        ...(options.fs ? { fs: options.fs } : {}),
        ...(options.recordLimits ? { limits: options.recordLimits } : {}),
      });
  return opened.ok ? ok(new OpenRun(opened.value, options)) : opened;
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
type RunCounts = Pick<EventInput<'run_end'>, 'stop' | 'requests' | 'tool_calls' | 'transport_close' | 'orphans' | 'servers'>;

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
