import type { Binding } from '../binding/index.ts';
import type { Outcome, Success } from '../contract/index.ts';
import type { FileRef, LedgerEvent, ReadRecorded, TaskFieldsEvent, VerifyFailure } from '../ledger/index.ts';
import type { CallRecord } from '../pipeline/index.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import type { RecordedCallEvent } from './recheck.ts';
import type { RecordedCall } from './recorded-call.ts';
import type { LoopStop } from './loop-state.ts';
import type { OfferedTool, ToolProvider } from './tools.ts';

/**
 * One run of a task, as the host hands it to the task. The host passes the
 * same object to `start`, `tools`, `requestFields` and `acceptance.live` of
 * one run (and a new one to the next run), so a task may key what it holds
 * for a run by it.
 */
export interface TaskRun {
  readonly runId: string;
}

/** A file a task's `start` writes into the run dir, and the role run_start vouches for it under. */
export interface StartFile {
  readonly path: string;
  readonly role: string;
  readonly bytes: Uint8Array;
}

/** What a task writes and records before anything else of the run: its files, and its own fields of run_start. */
export interface TaskStart {
  readonly files: readonly StartFile[];
  /** Merged into run_start; the host's own fields win over one of the same name. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A request as a task's request fields read it: its id, the exact payload bytes sent, and every call recorded before it. */
export interface TaskRequest {
  readonly id: string;
  readonly payload: Uint8Array;
  readonly calls: readonly RecordedCall[];
  /** The subagent whose loop sends it (`agent-<action id>`); absent for the run's own loop. Its calls are that loop's. */
  readonly agent?: string;
}

/** What the task produced, as reports show it: a file of the run dir and its hash. */
export interface Artifact {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The live run after the loop, as a task's acceptance reads it. */
export interface LiveRun {
  /** The run the task's start, tools and request fields were given. */
  readonly run: TaskRun;
  /** Every call in order, its outcome (and data) as the pipeline returned it. */
  readonly calls: readonly RecordedCall[];
  /** The request whose response asked for this tool call: its id and the exact payload bytes sent. */
  requestOf(toolCallId: string): { readonly id: string; readonly payload: Uint8Array } | undefined;
  /** The binding a call ran under: the one its request pinned under the call's name, when the call resolved to it. */
  bindingOf(call: RecordedCall): Binding | undefined;
  /** Why the loop stopped (a verdict is decided only after one of these). */
  readonly stop: Extract<LoopStop, 'final_answer' | 'script_exhausted' | 'max_requests'>;
  /** A file of the run dir now, undefined if absent. */
  readFile(relPath: string): Uint8Array | undefined;
  /** References a file something else wrote into the run dir, hashed from disk now; undefined if absent. */
  fileRef(relPath: string, role: string): FileRef | undefined;
}

/** A task's verdict on a live run: its checks and what the acceptance event records beyond `accepted` and `checks`. */
export interface AcceptanceRecord {
  readonly checks: readonly AcceptanceCheck[];
  /** Files the acceptance event vouches for (the artifact on disk, even without a receipt). */
  readonly files: readonly FileRef[];
  /** The task's own fields of the acceptance event. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly artifact?: Artifact;
}

/** A recorded run as `verify` gives it to a task: the harness has checked the chain, the files and the record's story. */
export interface RecordedRun {
  readonly events: readonly LedgerEvent[];
  /** The run_start event (its task fields are the task's to re-check). */
  readonly start: LedgerEvent;
  /** The acceptance event, absent when the run ended before a verdict (its checks are then not compared). */
  readonly acceptance?: LedgerEvent;
  /** The call events, in order, shape-checked; each one's arguments are what a recorded response asked for. */
  readonly calls: readonly RecordedCallEvent[];
  readonly readFile: ReadRecorded;
}

/** How a task's method packages are staged: the stages they must cover, and which one a request is in. */
export interface TaskMethod {
  /** The stages a method package must cover, in order. */
  readonly stages: readonly string[];
  /** The stage of the next request, from the calls so far (never from the model's word). */
  stageOf(calls: readonly CallRecord[]): string;
  /** The method package `demo` and `check` adopt when the scenario names none. */
  readonly skill: string;
}

/**
 * A task as a plug-in: what the host, `verify`'s recheck and the CLI need
 * from one task, and nothing they would have to name a tool, a source or a
 * file of it for. Only `id`, `prompt`, `tools` and `acceptance` are required;
 * `src/cli/tasks.ts` registers tasks by id.
 */
export interface Task {
  /** What `run_start.task` records, and what `verify` finds the task's recheck by. */
  readonly id: string;
  /** The task as the user states it to the model, and the task's rule the host adds to its own system text. */
  readonly prompt: { readonly user: string; readonly rule: string };
  /** The task's tool providers for one run, in the order the model sees their tools. Nothing opens until the host opens it. */
  tools(run: TaskRun): readonly ToolProvider[];
  readonly acceptance: {
    /** After the loop: the checks, decided from evidence the host observed itself. */
    live(run: LiveRun): AcceptanceRecord;
    /**
     * `verify`, for every record (decided or not): the task's own fields of the
     * record re-checked (run_start, requests), and the checks re-computed from
     * the recorded bytes; or where the record contradicts itself.
     */
    recorded(run: RecordedRun): Success<readonly AcceptanceCheck[]> | VerifyFailure;
  };
  /** Tools the user's request itself grants: an ordinary allow rule, so any deny still wins. */
  readonly grant?: readonly string[];
  /** How method packages are staged for this task; without it a request is in the stage `task`, and `demo` adopts no package. */
  readonly method?: TaskMethod;
  /** Writes and records what the run starts from (before any tool opens), in run_start. */
  start?(run: TaskRun): TaskStart;
  /** The task's own fields of a request event, computed from the request the host is about to send; the host's own fields win over one of the same name. */
  requestFields?(request: TaskRequest, run: TaskRun): Readonly<Record<string, unknown>>;
  /** What the task produces: its name in reports and the run-dir folder `check` counts it in (at most one). */
  readonly artifact?: { readonly name: string; readonly folder: string };
  /**
   * The keys of the task's own fields: in run_start (`start`), in request
   * events (`requestFields`), in the acceptance event (`acceptance.live`'s
   * `fields`). `verify` refuses any other key the ledger does not name there
   * (`bad_event`), so a forged or misspelt field is never carried unread.
   */
  readonly fields?: { readonly [E in TaskFieldsEvent]?: readonly string[] };
  /**
   * The host keeps every successful call's result data in the run dir
   * (`results/<action>.json`, canonical JSON, role `call_result`, its sha256
   * the outcome's `data_sha256`), so the task's recheck can read it; such a
   * run names record format 6.
   */
  readonly keepsResults?: boolean;
  /**
   * The task's own check of the run's tools, once every offer is known and
   * before anything runs (nothing is spawned by it): a refusal is a usage failure.
   */
  checkTools?(offers: readonly OfferedTool[]): Outcome<void>;
}

/** What `verify` needs of a task: its id, its recheck, the names of its own fields, whether it keeps results. */
export type TaskRecheck = Pick<Task, 'id' | 'acceptance' | 'fields' | 'keepsResults'>;

/** The stage of a task without method stages. */
export const TASK_STAGE = 'task';
