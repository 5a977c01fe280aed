import type { ToolEntry } from '../binding/index.ts';
import type { Success } from '../contract/index.ts';
import type { LedgerEvent, ReadRecorded, VerifyFailure } from '../ledger/index.ts';
import type { ExpectedTool, StrictClient } from '../mcp/index.ts';
import type { CallRecord, RuntimeTool } from '../pipeline/index.ts';
import type { AcceptanceCheck } from './acceptance.ts';
import type { ReadTool } from './disclosure.ts';
import type { RecordedCallEvent } from './recheck.ts';
import type { RecordedCall } from './recorded-call.ts';
import type { FileRef } from './recorder.ts';

/** One source as read once at startup. Bytes are never re-read. */
export interface SourceSnapshot {
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly sha256: string;
  readonly byteLength: number;
}

/**
 * The immutable startup snapshot of a task's sources: the run records it
 * (`snapshot/<id>.md`), tools answer from it, and disclosure is computed
 * against it.
 */
export interface Snapshot {
  readonly id: string;
  /** Sources in the task's fixed order. */
  readonly sources: readonly SourceSnapshot[];
}

/** One of a task's tools as a local function: how it is bound, and how a run makes it. */
export interface LocalTool {
  /** Contract and local implementation: what `caplab tools` lists and method packages bind to. */
  readonly entry: ToolEntry;
  /** The runtime tool over the run's snapshot. */
  make(snapshot: Snapshot, runId: string): RuntimeTool;
}

/** A file in the run dir with the role it plays for the event that vouches for it. */
export type RoleFileRef = FileRef & { readonly role: string };

/** What the task produced, as reports show it: a file of the run dir and its hash. */
export interface Artifact {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The live run after the loop, as a task's acceptance reads it. */
export interface LiveRun {
  readonly snapshot: Snapshot;
  /** Every call in order, its outcome (and data) as the pipeline returned it. */
  readonly calls: readonly RecordedCall[];
  /** The request whose response asked for this tool call: its id, the exact payload bytes sent, and what they disclosed. */
  requestOf(toolCallId: string): { readonly id: string; readonly payload: Uint8Array; readonly disclosedSources: readonly string[] } | undefined;
  /** A file of the run dir now, undefined if absent. */
  readFile(relPath: string): Uint8Array | undefined;
  /** References a file something else wrote into the run dir, hashed from disk now; undefined if absent. */
  fileRef(relPath: string, role: string): RoleFileRef | undefined;
}

/** A task's verdict on a live run: its checks and what the acceptance event records beyond `accepted` and `checks`. */
export interface AcceptanceRecord {
  readonly checks: readonly AcceptanceCheck[];
  /** Files the acceptance event vouches for (the artifact on disk, even without a receipt). */
  readonly files: readonly RoleFileRef[];
  /** The task's own fields of the acceptance event. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly artifact?: Artifact;
}

/** A recorded run as `verify` gives it to a task's acceptance: the harness has checked what it read. */
export interface RecordedRun {
  /** Rebuilt from the recorded source files; its id equals the one run_start recorded. */
  readonly snapshot: Snapshot;
  readonly events: readonly LedgerEvent[];
  /** The acceptance event (its `accepted` and `checks` the harness compares with what the task re-computes). */
  readonly acceptance: LedgerEvent;
  /** The call events, in order, shape-checked; each one's arguments are what a recorded response asked for. */
  readonly calls: readonly RecordedCallEvent[];
  readonly readFile: ReadRecorded;
}

/**
 * A task as a plug-in: what the loop, `verify`'s recheck, setup and the CLI
 * need from one task, and nothing they would have to name a tool for. Plain
 * data and functions; `src/cli/tasks.ts` picks the task.
 */
export interface Task {
  /** The task as the user states it to the model, and the task's rule the host adds to its own system text. */
  readonly prompt: { readonly user: string; readonly rule: string };
  /** Reads the task's sources once into the startup snapshot. */
  snapshot(): Snapshot;
  /** The same snapshot engine over recorded source files (`verify`). */
  snapshotOf(files: readonly { readonly id: string; readonly bytes: Uint8Array }[]): Snapshot;
  readonly tools: {
    /** Every tool as a local function, in the order the model sees them. */
    readonly local: readonly LocalTool[];
    /** The tools the task's fixture MCP server serves (each takes its local namesake's place over MCP), and their adapter. */
    readonly mcp: {
      readonly server: string;
      readonly expected: readonly ExpectedTool[];
      adapt(client: StrictClient, snapshot: Snapshot): readonly RuntimeTool[];
    };
    /** Tools the user's request itself grants: an ordinary allow rule, so any deny still wins. */
    readonly grant: readonly string[];
    /** The tool that reads a source: only its own answer to a call for a source discloses that source (`disclosedSources`); absent, nothing is disclosed. */
    readonly read?: ReadTool;
  };
  readonly method: {
    /** The stages a method package must cover, in order. */
    readonly stages: readonly string[];
    /** The stage of the next request, from the calls so far (never from the model's word). */
    stageOf(calls: readonly CallRecord[]): string;
    /** The method package `demo` and `check` adopt when the scenario names none. */
    readonly skill: string;
  };
  readonly acceptance: {
    /** After the loop: the checks, decided from evidence the host observed itself. */
    live(run: LiveRun): AcceptanceRecord;
    /** `verify`: the same checks re-computed from the recorded bytes, or where the record contradicts itself. */
    recorded(run: RecordedRun): Success<readonly AcceptanceCheck[]> | VerifyFailure;
  };
  readonly scenarios: {
    /** The embedded folder of the task's built-in scenario files. */
    readonly folder: string;
    /** The scenario `demo` runs. */
    readonly demo: string;
    /** Scenarios `check` runs over MCP too: those whose outcome the transport could change. */
    readonly overMcp: readonly string[];
  };
  /** What the task produces: its name in reports and the run-dir folder `check` counts it in (at most one). */
  readonly artifact: { readonly name: string; readonly folder: string };
}
