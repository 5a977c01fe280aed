import * as v from 'valibot';
import { canonicalHash, ok } from '../contract/index.ts';
import { canonicalOf, effectiveInput, eventAt, isVerifyFailure, shapedEvent, type AcceptanceRecord, type LiveRun, type RecordedCallEvent, type RecordedRun, type Task } from '../harness/index.ts';
import { failAt, type LedgerEvent, type VerifyFailure } from '../ledger/index.ts';
import { acceptanceChecks } from './acceptance.ts';
import { CARD_PATH, renderCard } from './card.ts';
import { CardReceipt, CreateCardInput } from './contracts.ts';
import { checkDisclosures, recordedSnapshot } from './recorded-fields.ts';
import { excerptRun } from './run-state.ts';
import type { Snapshot } from './snapshot.ts';

/** The file role of the card in the acceptance event. */
const CARD_ROLE = 'card';

/**
 * Acceptance after the loop, from what the host observed: the receipt of the
 * first successful create_card, the card bytes on disk, the payload of the
 * request whose response proposed that create, and every create's outcome.
 */
export function liveAcceptance(run: LiveRun): AcceptanceRecord {
  const held = excerptRun(run.run);
  const creates = run.calls.filter((c) => c.name === 'create_card' && c.outcome.ok);
  const receipt = creates[0]?.outcome.ok ? (creates[0].outcome.value.data as CardReceipt) : undefined;
  const producing = creates[0] ? run.requestOf(creates[0].toolCallId) : undefined;
  const card = run.readFile(receipt?.path ?? CARD_PATH);
  const checks = acceptanceChecks({
    snapshot: held.snapshot,
    ...(receipt ? { receipt } : {}),
    ...(card ? { card } : {}),
    ...(producing ? { producing: { payload: producing.payload, disclosed: held.disclosedBy(producing.id) } } : {}),
    successfulCreates: creates.length,
    refusedCreates: run.calls.flatMap((c) => (c.name === 'create_card' && !c.outcome.ok ? [`${c.toolCallId}: ${c.outcome.class}/${c.outcome.kind}`] : [])),
  });
  // A card on disk is vouched for even without a receipt: a create whose outcome is unknown
  // (a handler timeout after the write) leaves one, and the record must still account for it.
  const cardRef = run.fileRef(receipt?.path ?? CARD_PATH, CARD_ROLE);
  return {
    checks,
    files: cardRef ? [cardRef] : [],
    fields: {
      receipt: receipt ?? null,
      producing_request: producing?.id ?? null,
      card: receipt ? { path: receipt.path, sha256: receipt.sha256 } : null,
    },
    ...(receipt ? { artifact: { path: receipt.path, sha256: receipt.sha256, bytes: receipt.bytes } } : {}),
  };
}

// The fields of the events this task reads, checked before any is used.
const ReceiptShape = v.looseObject({ receipt: v.nullable(CardReceipt), producing_request: v.nullable(v.string()) });
const StartShape = v.looseObject({ run_id: v.string() });
const RequestShape = v.looseObject({ request_id: v.string(), disclosed_sources: v.array(v.string()) });

/**
 * The task's own fields of the record re-checked — run_start's sources are
 * the snapshot files (`snapshot_mismatch`), each request's
 * `disclosed_sources` is what disclosure re-computes (`disclosure_mismatch`)
 * — and, once the run was decided, the same acceptance from the recorded
 * bytes alone (`caplab verify`): the receipt the acceptance event recorded, tied to the data the first successful
 * create_card call returned (and to its object version); the producing request
 * that call names, and what the harness re-computed it disclosed; the card
 * file, which must be what that call's arguments render to under the run's
 * id, the call's action id and the snapshot; and the recorded call outcomes.
 * A record whose receipt, card, summary and calls do not tell one story is
 * refused by name.
 */
export function recordedAcceptance(run: RecordedRun): ReturnType<Task['acceptance']['recorded']> {
  const snapshot = recordedSnapshot(run);
  if (isVerifyFailure(snapshot)) return snapshot;
  const undisclosed = checkDisclosures(run, snapshot);
  if (undisclosed) return undisclosed;
  return run.acceptance ? decidedAcceptance(run, run.acceptance, snapshot) : ok([]);
}

/** The acceptance of a decided run re-computed from the record (see `recordedAcceptance`). */
function decidedAcceptance(run: RecordedRun, acceptanceEvent: LedgerEvent, snapshot: Snapshot): ReturnType<Task['acceptance']['recorded']> {
  const { events, readFile } = run;
  const acceptance = shapedEvent(ReceiptShape, acceptanceEvent);
  if (isVerifyFailure(acceptance)) return acceptance;
  const at = eventAt(acceptanceEvent);
  const receipt = acceptance.receipt ?? undefined;
  const misread = run.calls.find((call) => call.name === 'read_source' && call.outcome.ok && call.outcome.object_version !== sourceOf(snapshot, call)?.sha256);
  if (misread) return failAt('read_mismatch', `read ${misread.tool_call_id} reports object version ${JSON.stringify(misread.outcome.ok ? misread.outcome.object_version : null)}, not the sha256 of the source it read`, at);
  const creates = run.calls.filter((call) => call.name === 'create_card');
  const created = creates.find((call) => call.outcome.ok);
  const producingId = created?.request_id ?? null;
  if (acceptance.producing_request !== producingId) {
    return failAt('producing_mismatch', `the acceptance names producing request ${JSON.stringify(acceptance.producing_request)}, the first successful create_card call was asked for by ${JSON.stringify(producingId)}`, at);
  }
  const producing = producingId === null ? undefined : requestEvent(events, producingId);
  if (isVerifyFailure(producing)) return producing;
  const payloadRef = producing?.event.files?.find((f) => f.role === 'request_payload');
  const payload = payloadRef ? readFile(payloadRef.path) : undefined;
  if (payload && !payload.ok) return failAt(payload.kind, payload.message, eventAt(producing!.event));
  // The card the acceptance vouched for: with a receipt, or found on disk after an unknown outcome
  // (a create whose handler timed out after its write); with a receipt, it must be the receipt's file.
  const cardRef = acceptanceEvent.files?.find((f) => f.role === CARD_ROLE);
  if (receipt && cardRef?.path !== receipt.path) {
    return failAt('receipt_mismatch', `the acceptance vouches for ${cardRef?.path ?? 'no card'}, the receipt names ${receipt.path}`, at);
  }
  const card = cardRef ? readFile(cardRef.path) : undefined;
  // The receipt must be the data the first successful create returned (its canonical hash), not one written in later.
  if (receipt && (!created?.outcome.ok || created.outcome.data_sha256 !== canonicalHash(receipt) || created.outcome.object_version !== receipt.sha256)) {
    return failAt('receipt_mismatch', 'the receipt in the acceptance event is not the data and object version the first successful create_card call returned', at);
  }
  // The receipt, the acceptance's card summary and the card file must tell one story (sha256 is checked by card_hash).
  const summary = acceptanceEvent['card'];
  if (receipt && card?.ok && card.value.byteLength !== receipt.bytes) {
    return failAt('receipt_mismatch', `the receipt records ${receipt.bytes} bytes, ${receipt.path} has ${card.value.byteLength}`, at);
  }
  if (canonicalOf(summary) !== canonicalOf(receipt ? { path: receipt.path, sha256: receipt.sha256 } : null)) {
    return failAt('receipt_mismatch', 'the acceptance event\'s card summary does not repeat the receipt\'s path and sha256', at);
  }
  if (receipt && created && card?.ok) {
    const rendered = renderedCard(events, created, snapshot);
    if (isVerifyFailure(rendered)) return rendered;
    if (!sameBytes(rendered, card.value)) {
      return failAt('card_mismatch', `${receipt.path} is not the card call ${created.tool_call_id}'s arguments render to (run id, action ${created.action_id}, snapshot ${snapshot.id})`, at);
    }
  }
  return ok(
    acceptanceChecks({
      snapshot,
      ...(receipt ? { receipt } : {}),
      ...(card?.ok ? { card: card.value } : {}),
      ...(payload?.ok && producing ? { producing: { payload: payload.value, disclosed: producing.shape.disclosed_sources } } : {}),
      successfulCreates: creates.filter((call) => call.outcome.ok).length,
      refusedCreates: creates.flatMap((call) => (call.outcome.ok ? [] : [`${call.tool_call_id}: ${call.outcome.class}/${call.outcome.kind}`])),
    }),
  );
}

/** The request event with this id, shape-checked (its `disclosed_sources` the harness re-computed). */
function requestEvent(events: readonly LedgerEvent[], id: string): { event: LedgerEvent; shape: v.InferOutput<typeof RequestShape> } | VerifyFailure | undefined {
  const event = events.find((e) => e.type === 'request' && e['request_id'] === id);
  if (!event) return undefined;
  const shape = shapedEvent(RequestShape, event);
  return isVerifyFailure(shape) ? shape : { event, shape };
}

/**
 * The card bytes a create_card call's input renders to: the card's every byte
 * is the program's, so the call, the run id and the snapshot determine it.
 * A successful call whose recorded input is no create_card input contradicts itself.
 */
function renderedCard(events: readonly LedgerEvent[], call: RecordedCallEvent, snapshot: Snapshot): Uint8Array | VerifyFailure {
  const startEvent = events.find((e) => e.type === 'run_start')!;
  const start = shapedEvent(StartShape, startEvent);
  if (isVerifyFailure(start)) return start;
  const input = v.safeParse(CreateCardInput, effectiveInput(call.arguments));
  if (!input.success) return failAt('card_mismatch', `call ${call.tool_call_id} succeeded, but its recorded input is not a create_card input`, eventAt(events.find((e) => e.type === 'call' && e['action_id'] === call.action_id) ?? startEvent));
  const excerpts = input.output.excerpts.map((e) => ({ sourceId: e.source_id, sourceSha256: snapshot.sources.find((s) => s.id === e.source_id)?.sha256 ?? '', quote: e.quote }));
  return new TextEncoder().encode(renderCard({ runId: start.run_id, actionId: call.action_id, snapshotId: snapshot.id, excerpts }));
}

/** The snapshot source a read_source call read (its input as the handler received it). */
function sourceOf(snapshot: Snapshot, call: RecordedCallEvent) {
  const id = (effectiveInput(call.arguments) as { source_id?: unknown } | null)?.source_id;
  return snapshot.sources.find((s) => s.id === id);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);
}
