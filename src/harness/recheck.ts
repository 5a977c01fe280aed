import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import { canonicalJson, ok, type Outcome } from '../contract/index.ts';
import type { CallEvent, Event, LedgerEvent, ReadRecorded, Recheck, VerifyFailure } from '../ledger/index.ts';
import { failAt, LEDGER_FILE } from '../ledger/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import { checkCalls } from './call-checks.ts';
import { canonicalOf, checkRecord, eventAt, parseJson, type CheckedCall, type RecordedUse } from './record-checks.ts';
import { SNAPSHOT_ROLE, snapshotIdOf } from './snapshot-files.ts';
import type { Snapshot, Task } from './task.ts';

export interface RecheckReport {
  /** Whether the run reached a verdict (an acceptance event); a failed or interrupted run may not have. */
  readonly decided: boolean;
  readonly accepted: boolean;
  readonly checks: readonly AcceptanceCheck[];
}

/** A call event as the recheck and a task's recorded acceptance read it: the ledger's one call event. */
export type RecordedCallEvent = CallEvent;

// What this recheck reads of the recorded response files (the events themselves verify has parsed).
const ResponseFileShape = v.looseObject({ content: v.array(v.looseObject({ type: v.string() })), stop_reason: v.optional(v.unknown()), scripted: v.optional(v.unknown()), usage: v.optional(v.unknown()) });
const ToolUseShape = v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.unknown() });
type AnsweredResponse = Exclude<Event<'response'>, { readonly missing: true }>;

/**
 * A task's own fields of an event (the ledger's schemas leave them to the
 * task: acceptance), checked before any is used: the parsed fields, or a
 * `bad_event` failure naming each issue.
 */
export function shapedEvent<S extends v.GenericSchema>(schema: S, event: LedgerEvent): v.InferOutput<S> | VerifyFailure {
  const parsed = v.safeParse(schema, event);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${issuePath(issue) ?? '(event)'}: ${issue.message}`);
  return { ...failAt('bad_event', `line ${event.seq + 1} is not a well-formed ${event.type} event: ${issues.join('; ')}`, eventAt(event)), issues };
}
/** Whether a value is a failure (what `shapedEvent` returns for a malformed event). */
export const isVerifyFailure = (value: unknown): value is VerifyFailure => typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;

/**
 * Re-decides a task's acceptance from the recorded bytes alone: the snapshot
 * files of run_start (rebuilt by the task's own engine), the recorded call
 * outcomes, and whatever files the task's acceptance reads (`Task.acceptance.recorded`).
 * The recorded checks must equal the re-computed ones exactly. Every call's
 * recorded arguments must be what the model's recorded response file asked
 * for. `verify` has parsed every event with its format's schema, so a forged
 * ledger gets a named failure, never a crash.
 */
export function recheckAcceptance(task: Task): Recheck<RecheckReport> {
  return function recheck(events, readFile) {
    const start = events.find((e) => e.type === 'run_start');
    if (!start) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
    const snapshot = recordedSnapshot(task, start, readFile);
    if (isVerifyFailure(snapshot)) return snapshot;

    const calls = events.filter((e) => e.type === 'call');
    const uses = responseUses(events, readFile);
    if (!(uses instanceof Map)) return uses;
    const asked = checkArguments(calls, uses);
    if (asked) return asked;
    const told = checkRecord({ events, calls: calls.map(checkedCall), uses, readFile, snapshot, read: task.tools.read }) ?? checkCalls(events, uses);
    if (told) return told;

    const acceptance = events.find((e) => e.type === 'acceptance');
    // verify's lifecycle check already required an acceptance event of every completed run.
    if (!acceptance) return ok({ decided: false, accepted: false, checks: [] });
    const recomputed = task.acceptance.recorded({ snapshot, events, acceptance, calls, readFile });
    if (!recomputed.ok) return recomputed;
    return compareChecks(acceptance, recomputed.value);
  };
}

/** The snapshot rebuilt from run_start's source files, which must be the one (and the sources) run_start recorded. */
function recordedSnapshot(task: Task, start: Event<'run_start'>, readFile: ReadRecorded): Snapshot | VerifyFailure {
  const files: { id: string; bytes: Uint8Array }[] = [];
  for (const file of start.files.filter((f) => f.role === SNAPSHOT_ROLE)) {
    const bytes = readFile(file.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, eventAt(start));
    files.push({ id: snapshotIdOf(file.path), bytes: bytes.value });
  }
  const snapshot = task.snapshotOf(files);
  if (snapshot.id !== start.snapshot.id) {
    return failAt('snapshot_mismatch', `snapshot files hash to ${snapshot.id}, run_start recorded ${start.snapshot.id}`, eventAt(start));
  }
  const claims = snapshot.sources.map((s) => ({ id: s.id, sha256: s.sha256, bytes: s.byteLength }));
  if (canonicalOf(claims) !== canonicalOf(start.snapshot.sources)) {
    return failAt('snapshot_mismatch', 'run_start\'s list of sources (id, sha256, bytes) is not what the snapshot files are', eventAt(start));
  }
  return snapshot;
}

/** The recorded checks against the re-computed ones: every one equal, and the verdict. */
function compareChecks(acceptance: Event<'acceptance'>, checks: readonly AcceptanceCheck[]): Outcome<RecheckReport> | VerifyFailure {
  const recorded = acceptance.checks;
  const accepted = isAccepted(checks);
  // Every differing check becomes one issue; the message names the first whose verdict differs
  // (a forged defect), before any that differs only in its evidence text.
  const differing = checks.filter((check, i) => canonicalJson(check) !== canonicalOf(recorded[i] ?? null));
  if (differing.length > 0) {
    const recordedVerdict = (check: AcceptanceCheck) => JSON.stringify(recorded[checks.indexOf(check)]?.verdict) ?? 'nothing';
    const first = differing.find((check) => JSON.stringify(check.verdict) !== recordedVerdict(check)) ?? differing[0]!;
    return {
      ...failAt('acceptance_mismatch', `acceptance check ${first.id} re-computes to ${first.verdict} (${first.evidence}), the ledger recorded ${recordedVerdict(first)}`, eventAt(acceptance)),
      issues: differing.map((check) => `${check.id}: recorded ${recordedVerdict(check)}, re-computed ${check.verdict} (${check.evidence})`),
    };
  }
  if (recorded.length !== checks.length) {
    return failAt('acceptance_mismatch', `the ledger recorded ${recorded.length} acceptance checks, the evidence gives ${checks.length}`, eventAt(acceptance));
  }
  if (acceptance.accepted !== accepted) {
    return failAt('acceptance_mismatch', `the ledger recorded accepted=${acceptance.accepted}, the evidence gives ${accepted}`, eventAt(acceptance));
  }
  return ok({ decided: true, accepted, checks });
}

/** Each response event's tool_use blocks, from its verified response file, in order. */
function responseUses(events: readonly Event[], readFile: ReadRecorded): Map<Event, RecordedUse[]> | VerifyFailure {
  const uses = new Map<Event, RecordedUse[]>();
  for (const event of events) {
    if (event.type !== 'response') continue;
    // A response the model never gave (`missing`) has no file and no tool_use.
    const blocks = 'missing' in event ? [] : responseBlocks(event, readFile);
    if (!Array.isArray(blocks)) return blocks;
    uses.set(event, blocks);
  }
  return uses;
}

/** The tool_use blocks of one response's file, which must repeat what the event says of it. */
function responseBlocks(event: AnsweredResponse, readFile: ReadRecorded): RecordedUse[] | VerifyFailure {
  const blocks: RecordedUse[] = [];
  for (const ref of event.files) {
    const bytes = readFile(ref.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, eventAt(event));
    const parsed = v.safeParse(ResponseFileShape, parseJson(bytes.value));
    if (!parsed.success) return failAt('bad_response_file', `${ref.path} is not a model response (JSON with a content array)`, { ...eventAt(event), file: ref.path });
    for (const block of parsed.output.content) {
      const use = v.safeParse(ToolUseShape, block);
      if (use.success) blocks.push({ id: use.output.id, name: use.output.name, input: canonicalOf(use.output.input) });
    }
    const told = responseMismatch(event, parsed.output, blocks.length);
    if (told) return failAt('response_mismatch', `${ref.path}: ${told}`, eventAt(event));
  }
  return blocks;
}

/** Why a response event does not repeat its file (stop reason, label, usage), or a stop reason its tool_uses contradict. */
function responseMismatch(event: AnsweredResponse, file: v.InferOutput<typeof ResponseFileShape>, uses: number): string | undefined {
  for (const key of ['stop_reason', 'scripted', 'usage'] as const) {
    if (canonicalOf(event[key]) !== canonicalOf(file[key])) return `the response event's ${key} is not the file's`;
  }
  if ((file.stop_reason === 'tool_use') !== uses > 0) return `stop_reason ${JSON.stringify(file.stop_reason)} with ${uses} tool_use block(s)`;
  return undefined;
}

/**
 * Each call's recorded `arguments.original` must be the input of the tool_use
 * block with its id and name in a recorded model response file.
 */
function checkArguments(calls: readonly CallEvent[], uses: ReadonlyMap<Event, readonly RecordedUse[]>): VerifyFailure | undefined {
  // A list per id: a response that repeats an id is refused elsewhere, and must not hide a match here.
  const byId = new Map<string, RecordedUse[]>();
  for (const use of [...uses.values()].flat()) byId.set(use.id, [...(byId.get(use.id) ?? []), use]);
  for (const call of calls) {
    const recorded = canonicalOf(call.arguments.original);
    const asked = byId.get(call.tool_call_id) ?? [];
    if (!asked.some((use) => use.name === call.name && use.input !== undefined && use.input === recorded)) {
      return failAt(
        'arguments_mismatch',
        `call ${call.tool_call_id} (${call.name}) recorded a name or arguments that no recorded model response asked for under that id`,
        eventAt(call),
      );
    }
  }
  return undefined;
}

/** A call event as the record checks read it. */
function checkedCall(call: CallEvent): CheckedCall {
  return {
    event: call,
    requestId: call.request_id,
    toolCallId: call.tool_call_id,
    name: call.name,
    arguments: call.arguments,
    ok: call.outcome.ok,
    ...(call.outcome.ok ? {} : { failure: { class: call.outcome.class, kind: call.outcome.kind } }),
    blockHashes: [call.model_text_sha256, ...(call.hook_text_sha256 ?? [])],
  };
}

export { canonicalOf, eventAt };
