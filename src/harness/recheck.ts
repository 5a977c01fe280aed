import { issuePath } from '../base/index.ts';
import * as v from 'valibot';
import { canonicalHash, canonicalJson, jsonTooDeep, LIMITS, ok, type Outcome } from '../contract/index.ts';
import { acceptanceChecks, CardReceipt, isAccepted, takeSnapshot, type AcceptanceCheck } from '../excerpt/index.ts';
import type { LedgerEvent, ReadRecorded, Recheck, VerifyFailure } from '../ledger/index.ts';
import { failAt, LEDGER_FILE } from '../ledger/index.ts';

export interface RecheckReport {
  /** Whether the run reached a verdict (an acceptance event); a failed or interrupted run may not have. */
  readonly decided: boolean;
  readonly accepted: boolean;
  readonly checks: readonly AcceptanceCheck[];
}

const at = (event: LedgerEvent) => ({ file: LEDGER_FILE, line: event.seq + 1, seq: event.seq, type: event.type });

// The fields this recheck reads, checked before any is used; other fields may exist.
const StartShape = v.looseObject({ snapshot: v.looseObject({ id: v.string() }) });
const AcceptanceShape = v.looseObject({
  accepted: v.boolean(),
  checks: v.array(v.unknown()),
  receipt: v.nullable(CardReceipt),
  producing_request: v.nullable(v.string()),
});
const CallShape = v.looseObject({
  tool_call_id: v.string(),
  name: v.string(),
  arguments: v.looseObject({ original: v.unknown() }),
  outcome: v.variant('ok', [v.looseObject({ ok: v.literal(true) }), v.looseObject({ ok: v.literal(false), class: v.string(), kind: v.string() })]),
});
const ResponseFileShape = v.looseObject({ content: v.array(v.looseObject({ type: v.string() })) });
const ToolUseShape = v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.unknown() });

function shaped<S extends v.GenericSchema>(schema: S, event: LedgerEvent): v.InferOutput<S> | VerifyFailure {
  const parsed = v.safeParse(schema, event);
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${issuePath(issue) ?? '(event)'}: ${issue.message}`);
  return { ...failAt('bad_event', `line ${event.seq + 1} is not a well-formed ${event.type} event: ${issues.join('; ')}`, at(event)), issues };
}
const failed = (value: unknown): value is VerifyFailure => typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;

/**
 * Re-decides acceptance from the recorded bytes alone: the snapshot files of
 * run_start, the card file, the producing request's payload, and the recorded
 * call outcomes. The recorded checks must equal the re-computed ones exactly.
 * Every call's recorded arguments must be what the model's recorded response
 * file asked for. Each event's shape is checked before it is used, so a
 * forged ledger gets a named failure, never a crash.
 */
export const recheckAcceptance: Recheck<RecheckReport> = (events, readFile) => {
  const startEvent = events.find((e) => e.type === 'run_start');
  if (!startEvent) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
  const start = shaped(StartShape, startEvent);
  if (failed(start)) return start;

  const sources = (startEvent.files ?? []).filter((f) => f.role === 'snapshot_source');
  const files: { id: string; bytes: Uint8Array }[] = [];
  for (const file of sources) {
    const bytes = readFile(file.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, at(startEvent));
    files.push({ id: file.path.replace(/^snapshot\//, '').replace(/\.md$/, ''), bytes: bytes.value });
  }
  const snapshot = takeSnapshot(files);
  if (snapshot.id !== start.snapshot.id) {
    return failAt('snapshot_mismatch', `snapshot files hash to ${snapshot.id}, run_start recorded ${start.snapshot.id}`, at(startEvent));
  }

  const calls: { event: LedgerEvent; call: v.InferOutput<typeof CallShape> }[] = [];
  for (const event of events.filter((e) => e.type === 'call')) {
    const call = shaped(CallShape, event);
    if (failed(call)) return call;
    calls.push({ event, call });
  }
  const asked = checkArguments(events, calls, readFile);
  if (asked) return asked;

  const acceptanceEvent = events.find((e) => e.type === 'acceptance');
  // verify's lifecycle check already required an acceptance event of every completed run.
  if (!acceptanceEvent) return ok({ decided: false, accepted: false, checks: [] });
  const acceptance = shaped(AcceptanceShape, acceptanceEvent);
  if (failed(acceptance)) return acceptance;

  const receipt = acceptance.receipt ?? undefined;
  const producingId = acceptance.producing_request;
  const producing = producingId ? events.find((e) => e.type === 'request' && e['request_id'] === producingId) : undefined;
  const payloadRef = producing?.files?.find((f) => f.role === 'request_payload');
  const payload = payloadRef ? readFile(payloadRef.path) : undefined;
  if (payload && !payload.ok) return failAt(payload.kind, payload.message, at(producing!));
  // The card the acceptance vouched for: with a receipt, or found on disk after an unknown outcome
  // (a create whose handler timed out after its write); with a receipt, it must be the receipt's file.
  const cardRef = acceptanceEvent.files?.find((f) => f.role === 'card');
  if (receipt && cardRef?.path !== receipt.path) {
    return failAt('receipt_mismatch', `the acceptance vouches for ${cardRef?.path ?? 'no card'}, the receipt names ${receipt.path}`, at(acceptanceEvent));
  }
  const card = cardRef ? readFile(cardRef.path) : undefined;
  const creates = calls.filter(({ call }) => call.name === 'create_card');
  // The receipt must be the data a successful create call returned (its canonical hash), not one written in later.
  const returned = creates.flatMap(({ call }) => (call.outcome.ok && typeof call.outcome['data_sha256'] === 'string' ? [call.outcome['data_sha256']] : []));
  if (receipt && !returned.includes(canonicalHash(receipt))) {
    return failAt('receipt_mismatch', 'the receipt in the acceptance event is not the data any successful create_card call returned', at(acceptanceEvent));
  }
  // The receipt, the acceptance's card summary and the card file must tell one story (sha256 is checked by card_hash).
  const summary = acceptanceEvent['card'];
  if (receipt && card?.ok && card.value.byteLength !== receipt.bytes) {
    return failAt('receipt_mismatch', `the receipt records ${receipt.bytes} bytes, ${receipt.path} has ${card.value.byteLength}`, at(acceptanceEvent));
  }
  if (canonicalOf(summary) !== canonicalOf(receipt ? { path: receipt.path, sha256: receipt.sha256 } : null)) {
    return failAt('receipt_mismatch', 'the acceptance event\'s card summary does not repeat the receipt\'s path and sha256', at(acceptanceEvent));
  }
  const checks = acceptanceChecks({
    snapshot,
    ...(receipt ? { receipt } : {}),
    ...(card?.ok ? { card: card.value } : {}),
    ...(payload?.ok ? { producingPayload: payload.value } : {}),
    successfulCreates: creates.filter(({ call }) => call.outcome.ok).length,
    refusedCreates: creates.flatMap(({ call }) => (call.outcome.ok ? [] : [`${call.tool_call_id}: ${call.outcome.class}/${call.outcome.kind}`])),
  });
  const recorded = acceptance.checks as readonly (AcceptanceCheck | undefined)[];
  const accepted = isAccepted(checks);
  // Every differing check becomes one issue; the message names the first whose verdict differs
  // (a forged defect), before any that differs only in its evidence text.
  const differing = checks.filter((check, i) => canonicalJson(check) !== canonicalOf(recorded[i] ?? null));
  if (differing.length > 0) {
    const recordedVerdict = (check: AcceptanceCheck) => JSON.stringify((recorded[checks.indexOf(check)] as { verdict?: unknown } | undefined)?.verdict) ?? 'nothing';
    const first = differing.find((check) => JSON.stringify(check.verdict) !== recordedVerdict(check)) ?? differing[0]!;
    return {
      ...failAt('acceptance_mismatch', `acceptance check ${first.id} re-computes to ${first.verdict} (${first.evidence}), the ledger recorded ${recordedVerdict(first)}`, at(acceptanceEvent)),
      issues: differing.map((check) => `${check.id}: recorded ${recordedVerdict(check)}, re-computed ${check.verdict} (${check.evidence})`),
    };
  }
  if (recorded.length !== checks.length) {
    return failAt('acceptance_mismatch', `the ledger recorded ${recorded.length} acceptance checks, the evidence gives ${checks.length}`, at(acceptanceEvent));
  }
  if (acceptance.accepted !== accepted) {
    return failAt('acceptance_mismatch', `the ledger recorded accepted=${acceptance.accepted}, the evidence gives ${accepted}`, at(acceptanceEvent));
  }
  return ok({ decided: true, accepted, checks }) as Outcome<RecheckReport>;
};

/**
 * Each call's recorded `arguments.original` must be the input of the tool_use
 * block with its id and name in a recorded model response file.
 */
function checkArguments(
  events: readonly LedgerEvent[],
  calls: readonly { event: LedgerEvent; call: v.InferOutput<typeof CallShape> }[],
  readFile: ReadRecorded,
): VerifyFailure | undefined {
  // A list per id: a response that repeats an id is refused elsewhere, and must not hide a match here.
  const uses = new Map<string, { name: string; input: string | undefined }[]>();
  for (const event of events.filter((e) => e.type === 'response')) {
    for (const ref of (event.files ?? []).filter((f) => f.role === 'model_response')) {
      const bytes = readFile(ref.path);
      if (!bytes.ok) return failAt(bytes.kind, bytes.message, at(event));
      const parsed = v.safeParse(ResponseFileShape, parseJson(bytes.value));
      if (!parsed.success) return failAt('bad_response_file', `${ref.path} is not a model response (JSON with a content array)`, { ...at(event), file: ref.path });
      for (const block of parsed.output.content) {
        const use = v.safeParse(ToolUseShape, block);
        if (use.success) uses.set(use.output.id, [...(uses.get(use.output.id) ?? []), { name: use.output.name, input: canonicalOf(use.output.input) }]);
      }
    }
  }
  for (const { event, call } of calls) {
    const recorded = canonicalOf(call.arguments.original);
    const asked = uses.get(call.tool_call_id) ?? [];
    if (!asked.some((use) => use.name === call.name && use.input !== undefined && use.input === recorded)) {
      return failAt(
        'arguments_mismatch',
        `call ${call.tool_call_id} (${call.name}) recorded a name or arguments that no recorded model response asked for under that id`,
        at(event),
      );
    }
  }
  return undefined;
}

/** Parses recorded JSON, depth-checked first; undefined when it is not JSON. */
function parseJson(bytes: Uint8Array): unknown {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return jsonTooDeep(text, LIMITS.recordJsonDepth) ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Canonical JSON, or undefined for what it refuses (undefined, a non-finite number). */
function canonicalOf(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}
