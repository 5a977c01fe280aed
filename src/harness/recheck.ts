import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import { canonicalJson, ok, type Outcome } from '../contract/index.ts';
import type { LedgerEvent, ReadRecorded, Recheck, VerifyFailure } from '../ledger/index.ts';
import { failAt, LEDGER_FILE } from '../ledger/index.ts';
import { isAccepted, type AcceptanceCheck } from './acceptance.ts';
import { checkCalls } from './call-checks.ts';
import { canonicalOf, checkRecord, eventAt, parseJson, type CheckedCall, type RecordedUse } from './record-checks.ts';
import { originLabel, type ModelOrigin } from './model.ts';
import type { Task } from './task.ts';

export interface RecheckReport {
  /** Whether the run reached a verdict (an acceptance event); a failed or interrupted run may not have. */
  readonly decided: boolean;
  readonly accepted: boolean;
  readonly checks: readonly AcceptanceCheck[];
}

// The fields this recheck reads, checked before any is used; other fields may exist.
const StartShape = v.looseObject({ task: v.optional(v.string()) });
const AcceptanceShape = v.looseObject({ accepted: v.boolean(), checks: v.array(v.unknown()) });
const CallShape = v.pipe(v.looseObject({
  request_id: v.string(),
  tool_call_id: v.string(),
  action_id: v.string(),
  name: v.string(),
  arguments: v.looseObject({ original: v.unknown(), converted: v.optional(v.unknown()), rewritten: v.optional(v.unknown()) }),
  outcome: v.variant('ok', [v.looseObject({ ok: v.literal(true) }), v.looseObject({ ok: v.literal(false), class: v.string(), kind: v.string() })]),
  // A record made before the content hash ties the tool's text block by its text's hash.
  model_content_sha256: v.optional(v.string()),
  model_text_sha256: v.optional(v.string()),
  hook_text_sha256: v.optional(v.pipe(v.array(v.string()), v.minLength(1))),
}), v.check((call) => call.model_content_sha256 !== undefined || call.model_text_sha256 !== undefined, 'a call records model_content_sha256 (or, before it, model_text_sha256)'));
/** A call event with the fields a recheck reads, shape-checked. */
export type RecordedCallEvent = v.InferOutput<typeof CallShape>;
const ResponseFileShape = v.looseObject({
  content: v.array(v.looseObject({ type: v.string() })),
  stop_reason: v.optional(v.unknown()),
  scripted: v.optional(v.unknown()),
  usage: v.optional(v.unknown()),
  type: v.optional(v.unknown()),
  role: v.optional(v.unknown()),
});
const ToolUseShape = v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.unknown() });

/** The fields of an event a recheck reads, checked before any is used: the parsed fields, or a `bad_event` failure naming each issue. */
export function shapedEvent<S extends v.GenericSchema>(schema: S, event: LedgerEvent): v.InferOutput<S> | VerifyFailure {
  const parsed = v.safeParse(schema, event);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${issuePath(issue) ?? '(event)'}: ${issue.message}`);
  return { ...failAt('bad_event', `line ${event.seq + 1} is not a well-formed ${event.type} event: ${issues.join('; ')}`, eventAt(event)), issues };
}
/** Whether a value is a failure (what `shapedEvent` returns for a malformed event). */
export const isVerifyFailure = (value: unknown): value is VerifyFailure => typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;

/**
 * Re-decides a task's acceptance from the recorded bytes alone: the recorded
 * call outcomes, and whatever files the task's acceptance reads
 * (`Task.acceptance.recorded`, which re-checks the task's own fields of the
 * record too, decided or not). The recorded checks must equal the
 * re-computed ones exactly. Every call's recorded arguments must be what the
 * model's recorded response file asked for. Each event's shape is checked
 * before it is used, so a forged ledger gets a named failure, never a crash.
 * A record naming another task is `unknown_task` here.
 */
export function recheckAcceptance(task: Task): Recheck<RecheckReport> {
  return function recheck(events, readFile, record) {
    const startEvent = events.find((e) => e.type === 'run_start');
    if (!startEvent) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
    const start = shapedEvent(StartShape, startEvent);
    if (isVerifyFailure(start)) return start;
    if (start.task !== undefined && start.task !== task.id) return failAt('unknown_task', `run_start names task ${JSON.stringify(start.task)}; this is the recheck of task ${JSON.stringify(task.id)}`, eventAt(startEvent));

    const calls: { event: LedgerEvent; call: RecordedCallEvent }[] = [];
    for (const event of events.filter((e) => e.type === 'call')) {
      const call = shapedEvent(CallShape, event);
      if (isVerifyFailure(call)) return call;
      calls.push({ event, call });
    }
    const uses = responseUses(events, readFile, recordedOrigin(startEvent));
    if (!(uses instanceof Map)) return uses;
    const asked = checkArguments(calls, uses);
    if (asked) return asked;
    const told = checkRecord({ events, calls: calls.map(checkedCall), uses, readFile, format: record.format }) ?? checkCalls(events, uses);
    if (told) return told;

    const acceptanceEvent = events.find((e) => e.type === 'acceptance');
    const acceptance = acceptanceEvent ? shapedEvent(AcceptanceShape, acceptanceEvent) : undefined;
    if (isVerifyFailure(acceptance)) return acceptance;
    const recomputed = task.acceptance.recorded({ events, start: startEvent, ...(acceptanceEvent ? { acceptance: acceptanceEvent } : {}), calls: calls.map(({ call }) => call), readFile });
    if (!recomputed.ok) return recomputed;
    // verify's lifecycle check already required an acceptance event of every completed run.
    if (!acceptanceEvent || !acceptance) return ok({ decided: false, accepted: false, checks: [] });
    return compareChecks(acceptanceEvent, acceptance, recomputed.value);
  };
}

/**
 * `verify`'s recheck for every task it knows: the one the record's run_start
 * names (`task`), a record without one being `unnamed`'s (every record from
 * before tasks had ids). A task it does not know is `evidence/unknown_task`.
 */
export function recheckByTask(taskOf: (id: string) => Task | undefined, unnamed: string): Recheck<RecheckReport> {
  return function recheck(events, readFile, record) {
    const startEvent = events.find((e) => e.type === 'run_start');
    if (!startEvent) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
    const start = shapedEvent(StartShape, startEvent);
    if (isVerifyFailure(start)) return start;
    const id = start.task ?? unnamed;
    const task = taskOf(id);
    if (!task) return failAt('unknown_task', `run_start names task ${JSON.stringify(id)}, which this caplab does not know`, eventAt(startEvent));
    return recheckAcceptance(task)(events, readFile, record);
  };
}

/** The recorded checks against the re-computed ones: every difference named, a differing verdict first. */
function compareChecks(acceptanceEvent: LedgerEvent, acceptance: v.InferOutput<typeof AcceptanceShape>, checks: readonly AcceptanceCheck[]): Outcome<RecheckReport> | VerifyFailure {
  const recorded = acceptance.checks as readonly (AcceptanceCheck | undefined)[];
  const accepted = isAccepted(checks);
  // Every differing check becomes one issue; the message names the first whose verdict differs
  // (a forged defect), before any that differs only in its evidence text.
  const differing = checks.filter((check, i) => canonicalJson(check) !== canonicalOf(recorded[i] ?? null));
  if (differing.length > 0) {
    const recordedVerdict = (check: AcceptanceCheck) => JSON.stringify((recorded[checks.indexOf(check)] as { verdict?: unknown } | undefined)?.verdict) ?? 'nothing';
    const first = differing.find((check) => JSON.stringify(check.verdict) !== recordedVerdict(check)) ?? differing[0]!;
    return {
      ...failAt('acceptance_mismatch', `acceptance check ${first.id} re-computes to ${first.verdict} (${first.evidence}), the ledger recorded ${recordedVerdict(first)}`, eventAt(acceptanceEvent)),
      issues: differing.map((check) => `${check.id}: recorded ${recordedVerdict(check)}, re-computed ${check.verdict} (${check.evidence})`),
    };
  }
  if (recorded.length !== checks.length) {
    return failAt('acceptance_mismatch', `the ledger recorded ${recorded.length} acceptance checks, the evidence gives ${checks.length}`, eventAt(acceptanceEvent));
  }
  if (acceptance.accepted !== accepted) {
    return failAt('acceptance_mismatch', `the ledger recorded accepted=${acceptance.accepted}, the evidence gives ${accepted}`, eventAt(acceptanceEvent));
  }
  return ok({ decided: true, accepted, checks });
}

/**
 * The origin run_start records for the run's model: `replayed` when its model
 * entry says so, else `scripted` (every record before replays, and every
 * scripted one since, says `scripted: true` and names no origin).
 */
function recordedOrigin(start: LedgerEvent): ModelOrigin {
  const model = start['model'] as { origin?: unknown } | null | undefined;
  return model?.origin === 'replayed' ? 'replayed' : 'scripted';
}

/** Each response event's tool_use blocks, from its verified response file, in order. */
function responseUses(events: readonly LedgerEvent[], readFile: ReadRecorded, origin: ModelOrigin): Map<LedgerEvent, RecordedUse[]> | VerifyFailure {
  const uses = new Map<LedgerEvent, RecordedUse[]>();
  for (const event of events.filter((e) => e.type === 'response')) {
    const blocks: RecordedUse[] = [];
    for (const ref of (event.files ?? []).filter((f) => f.role === 'model_response')) {
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
    uses.set(event, blocks);
  }
  return uses;
}

/**
 * Why a response event does not repeat its file (stop reason, usage) or is not
 * labelled with the run's recorded origin, or a stop reason its tool_uses
 * contradict. A scripted file says `scripted: true` as its event does; a
 * replayed file is a provider's message (no `scripted` field) whose usage was
 * recorded as it is, never marked synthetic.
 */
function responseMismatch(event: LedgerEvent, file: v.InferOutput<typeof ResponseFileShape>, uses: number, origin: ModelOrigin): string | undefined {
  const label = originLabel(origin);
  for (const key of ['scripted', 'origin'] as const) {
    if (canonicalOf(event[key]) !== canonicalOf(label[key])) return `the response event's ${key} is not the run's (run_start records a ${origin} model)`;
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
function checkArguments(calls: readonly { event: LedgerEvent; call: RecordedCallEvent }[], uses: ReadonlyMap<LedgerEvent, readonly RecordedUse[]>): VerifyFailure | undefined {
  // A list per id: a response that repeats an id is refused elsewhere, and must not hide a match here.
  const byId = new Map<string, RecordedUse[]>();
  for (const use of [...uses.values()].flat()) byId.set(use.id, [...(byId.get(use.id) ?? []), use]);
  for (const { event, call } of calls) {
    const recorded = canonicalOf(call.arguments.original);
    const asked = byId.get(call.tool_call_id) ?? [];
    if (!asked.some((use) => use.name === call.name && use.input !== undefined && use.input === recorded)) {
      return failAt(
        'arguments_mismatch',
        `call ${call.tool_call_id} (${call.name}) recorded a name or arguments that no recorded model response asked for under that id`,
        eventAt(event),
      );
    }
  }
  return undefined;
}

/** A shape-checked call event as the record checks read it. */
function checkedCall({ event, call }: { event: LedgerEvent; call: RecordedCallEvent }): CheckedCall {
  return {
    event,
    requestId: call.request_id,
    toolCallId: call.tool_call_id,
    name: call.name,
    arguments: call.arguments,
    ok: call.outcome.ok,
    ...(call.outcome.ok ? {} : { failure: { class: call.outcome.class, kind: call.outcome.kind } }),
    result: call.model_content_sha256 !== undefined ? { contentSha256: call.model_content_sha256 } : { textSha256: call.model_text_sha256! },
    hookHashes: call.hook_text_sha256 ?? [],
  };
}

export { canonicalOf, eventAt };
