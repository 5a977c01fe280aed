import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import { canonicalJson, ok, type Outcome } from '../contract/index.ts';
import type { CallEvent, Event, ReadRecorded, Recheck, VerifyFailure } from '../ledger/index.ts';
import { failAt, LEDGER_FILE } from '../ledger/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import { checkCalls } from './call-checks.ts';
import { checkDeferral } from './deferral-checks.ts';
import { checkSkillMode } from './skill-tool/skill-checks.ts';
import { canonicalOf, checkLevel, checkRecord, eventAt, parseJson, type CheckedCall, type RecordedUse } from './record-checks.ts';
import { checkSubagents, levelCompleted, splitLevels, type Levels } from './agent-tool/subagent-checks.ts';
import { originLabel, type ModelOrigin } from './model.ts';
import { checkServers } from './server-checks.ts';
import { checkTasks } from './task-checks.ts';
import { checkTaskFields } from './task-fields.ts';
import { checkResultFiles } from './result-files.ts';
import type { TaskRecheck } from './task.ts';

export interface RecheckReport {
  /** Whether the run reached a verdict (an acceptance event); a failed or interrupted run may not have. */
  readonly decided: boolean;
  readonly accepted: boolean;
  readonly checks: readonly AcceptanceCheck[];
}

/** A call event as the recheck and a task's recorded acceptance read it: the ledger's one call event. */
export type RecordedCallEvent = CallEvent;

// What this recheck reads of the recorded response files (the events themselves verify has parsed).
const ResponseFileShape = v.looseObject({
  content: v.array(v.looseObject({ type: v.string() })),
  stop_reason: v.optional(v.unknown()),
  scripted: v.optional(v.unknown()),
  usage: v.optional(v.unknown()),
  type: v.optional(v.unknown()),
  role: v.optional(v.unknown()),
});
const ToolUseShape = v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.unknown() });
type AnsweredResponse = Exclude<Event<'response'>, { readonly missing: true }>;

/**
 * A task's own fields of an event (the ledger's schemas leave them to the
 * task: acceptance), checked before any is used: the parsed fields, or a
 * `bad_event` failure naming each issue.
 */
export function shapedEvent<S extends v.GenericSchema>(schema: S, event: { readonly seq: number; readonly type: string }): v.InferOutput<S> | VerifyFailure {
  const parsed = v.safeParse(schema, event);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${issuePath(issue) ?? '(event)'}: ${issue.message}`);
  return { ...failAt('bad_event', `line ${event.seq + 1} is not a well-formed ${event.type} event: ${issues.join('; ')}`, eventAt(event)), issues };
}
/** Whether a value is a failure (what `shapedEvent` returns for a malformed event). */
export const isVerifyFailure = (value: unknown): value is VerifyFailure => typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;

/**
/**
 * Re-decides a task's acceptance from the recorded bytes alone: the recorded
 * call outcomes, and whatever files the task's acceptance reads
 * (`Task.acceptance.recorded`, which re-checks the task's own fields of the
 * record too, decided or not). The recorded checks must equal the
 * re-computed ones exactly. Every call's recorded arguments must be what the
 * model's recorded response file asked for. `verify` has parsed every event
 * with its format's schema, so a forged ledger gets a named failure, never a
 * crash. A record naming another task is `unknown_task` here.
 */
export function recheckAcceptance(task: TaskRecheck): Recheck<RecheckReport> {
  return function recheck(events, readFile, record) {
    const start = events.find((e) => e.type === 'run_start');
    if (!start) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
    const named = namedTask(start);
    if (named !== undefined && named !== task.id) return failAt('unknown_task', `run_start names task ${JSON.stringify(named)}; this is the recheck of task ${JSON.stringify(task.id)}`, eventAt(start));
    const unnamed = checkTaskFields(task, events, record.format);
    if (unnamed) return unnamed;

    const calls = events.filter((e) => e.type === 'call');
    const uses = responseUses(events, readFile, recordedOrigin(start));
    if (!(uses instanceof Map)) return uses;
    const asked = checkArguments(calls, uses);
    if (asked) return asked;
    const levels = splitLevels(events);
    if (isVerifyFailure(levels)) return levels;
    const { top } = levels;
    const topCalls = top.filter((e) => e.type === 'call');
    const told =
      checkRecord({ events: top, calls: topCalls.map(checkedCall), uses, readFile }) ??
      checkCalls(top, uses) ??
      checkSubagents(events, levels, readFile) ??
      checkNestedLevels(levels, uses, readFile) ??
      checkServers(events, record.format) ??
      checkTasks(events) ??
      checkResultFiles(events, readFile, task.keepsResults ?? false) ??
      checkDeferral(top, readFile) ??
      checkSkillMode(top, readFile);
    if (told) return told;

    const acceptance = events.find((e) => e.type === 'acceptance');
    const recomputed = task.acceptance.recorded({ events, start, ...(acceptance ? { acceptance } : {}), calls, readFile });
    if (!recomputed.ok) return recomputed;
    // verify's lifecycle check already required an acceptance event of every completed run.
    if (!acceptance) return ok({ decided: false, accepted: false, checks: [] });
    return compareChecks(acceptance, recomputed.value);
  };
}

/** The task a record's run_start names (from format 4; undefined before it). */
const namedTask = (start: Event<'run_start'>): string | undefined => ('task' in start ? start.task : undefined);

/**
 * `verify`'s recheck for every task it knows: the one the record's run_start
 * names (`task`), a record without one being `unnamed`'s (every record before
 * format 4). A task it does not know is `evidence/unknown_task`.
 */
export function recheckByTask(taskOf: (id: string) => TaskRecheck | undefined, unnamed: string): Recheck<RecheckReport> {
  return function recheck(events, readFile, record) {
    const start = events.find((e) => e.type === 'run_start');
    if (!start) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
    const id = namedTask(start) ?? unnamed;
    const task = taskOf(id);
    if (!task) return failAt('unknown_task', `run_start names task ${JSON.stringify(id)}, which this caplab does not know`, eventAt(start));
    return recheckAcceptance(task)(events, readFile, record);
  };
}

/** The recorded checks against the re-computed ones: every difference named, a differing verdict first. */
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

/**
 * The origin run_start records for the run's model: `replayed` when its model
 * entry says so, else `scripted` (every record before replays, and every
 * scripted one since, says `scripted: true` and names no origin).
 */
function recordedOrigin(start: Event<'run_start'>): ModelOrigin {
  return 'origin' in start.model && start.model.origin === 'replayed' ? 'replayed' : 'scripted';
}

/** Each response event's tool_use blocks, from its verified response file, in order. */
function responseUses(events: readonly Event[], readFile: ReadRecorded, origin: ModelOrigin): Map<Event, RecordedUse[]> | VerifyFailure {
  const uses = new Map<Event, RecordedUse[]>();
  for (const event of events) {
    if (event.type !== 'response') continue;
    // A response the model never gave (`missing`) has no file and no tool_use.
    const blocks = 'missing' in event ? [] : responseBlocks(event, readFile, origin);
    if (!Array.isArray(blocks)) return blocks;
    uses.set(event, blocks);
  }
  return uses;
}

/** The tool_use blocks of one response's file, which must repeat what the event says of it. */
function responseBlocks(event: AnsweredResponse, readFile: ReadRecorded, origin: ModelOrigin): RecordedUse[] | VerifyFailure {
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
    const told = responseMismatch(event, parsed.output, blocks.length, origin);
    if (told) return failAt('response_mismatch', `${ref.path}: ${told}`, eventAt(event));
  }
  return blocks;
}

/**
 * Why a response event does not repeat its file (stop reason, usage) or is not
 * labelled with the run's recorded origin, or a stop reason its tool_uses
 * contradict. A scripted file says `scripted: true` as its event does; a
 * replayed file is a provider's message (no `scripted` field) whose usage was
 * recorded as it is, never marked synthetic.
 */
function responseMismatch(event: AnsweredResponse, file: v.InferOutput<typeof ResponseFileShape>, uses: number, origin: ModelOrigin): string | undefined {
  const label: { readonly scripted: boolean; readonly origin?: 'replayed' } = originLabel(origin);
  // A record before format 4 has no origin (every one of them is scripted).
  const labelled: { readonly scripted: boolean; readonly origin?: unknown } = event;
  for (const key of ['scripted', 'origin'] as const) {
    if (canonicalOf(labelled[key]) !== canonicalOf(label[key])) return `the response event's ${key} is not the run's (run_start records a ${origin} model)`;
  }
  const fileLabel = origin === 'scripted' ? file.scripted === true : file.scripted === undefined && file.type === 'message' && file.role === 'assistant';
  if (!fileLabel) {
    return origin === 'scripted'
      ? 'the file does not say scripted: true, as every response file of a scripted run does'
      : 'the file is not an assistant message without a scripted field, as every response file of a replayed run is';
  }
  for (const key of ['stop_reason', 'usage'] as const) {
    if (canonicalOf(event[key]) !== canonicalOf(file[key])) return `the response event's ${key} is not the file's`;
  }
  if (origin === 'replayed' && typeof file.usage === 'object' && file.usage !== null && 'synthetic' in file.usage) return 'replayed usage is as recorded, never marked synthetic';
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

/** Each subagent's own loop told as the run's is (call order, payload results, the calls themselves), under run_start's bindings. */
function checkNestedLevels(levels: Levels, uses: ReadonlyMap<Event, readonly RecordedUse[]>, readFile: ReadRecorded): VerifyFailure | undefined {
  const start = levels.top.find((e) => e.type === 'run_start');
  for (const level of levels.agents) {
    const calls = level.events.filter((e) => e.type === 'call');
    const told = checkLevel({ events: level.events, calls: calls.map(checkedCall), uses, readFile }, levelCompleted(level)) ?? checkCalls([...(start ? [start] : []), ...level.events], uses);
    if (told) return told;
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
    // Format 4 hashes the result blocks; a record before it, the tool's one text block's text.
    result: 'model_content_sha256' in call ? { contentSha256: call.model_content_sha256 } : { textSha256: call.model_text_sha256 },
    hookHashes: call.hook_text_sha256 ?? [],
  };
}

export { canonicalOf, eventAt };
