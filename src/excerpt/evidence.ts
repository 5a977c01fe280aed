import * as v from 'valibot';
import { canonicalHash, ok } from '../contract/index.ts';
import { canonicalOf, eventAt, isVerifyFailure, shapedEvent, type AcceptanceRecord, type LiveRun, type RecordedRun, type Task } from '../harness/index.ts';
import { failAt } from '../ledger/index.ts';
import { acceptanceChecks } from './acceptance.ts';
import { CARD_PATH } from './card.ts';
import { CardReceipt } from './contracts.ts';

/** The file role of the card in the acceptance event. */
const CARD_ROLE = 'card';

/**
 * Acceptance after the loop, from what the host observed: the receipt of the
 * first successful create_card, the card bytes on disk, the payload of the
 * request whose response proposed that create, and every create's outcome.
 */
export function liveAcceptance(run: LiveRun): AcceptanceRecord {
  const creates = run.calls.filter((c) => c.name === 'create_card' && c.outcome.ok);
  const receipt = creates[0]?.outcome.ok ? (creates[0].outcome.value.data as CardReceipt) : undefined;
  const producing = creates[0] ? run.requestOf(creates[0].toolCallId) : undefined;
  const card = run.readFile(receipt?.path ?? CARD_PATH);
  const checks = acceptanceChecks({
    snapshot: run.snapshot,
    ...(receipt ? { receipt } : {}),
    ...(card ? { card } : {}),
    ...(producing ? { producingPayload: producing.payload } : {}),
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

// The fields of the acceptance event this task reads, checked before any is used.
const ReceiptShape = v.looseObject({ receipt: v.nullable(CardReceipt), producing_request: v.nullable(v.string()) });

/**
 * The same acceptance from the recorded bytes alone (`caplab verify`): the
 * receipt the acceptance event recorded, tied to the data a successful
 * create_card call returned; the card file it vouches for; the producing
 * request's payload file; and the recorded call outcomes. A record whose
 * receipt, card summary and card file do not tell one story is refused by name.
 */
export function recordedAcceptance(run: RecordedRun): ReturnType<Task['acceptance']['recorded']> {
  const { events, acceptance: acceptanceEvent, readFile } = run;
  const acceptance = shapedEvent(ReceiptShape, acceptanceEvent);
  if (isVerifyFailure(acceptance)) return acceptance;
  const at = eventAt(acceptanceEvent);
  const receipt = acceptance.receipt ?? undefined;
  const producingId = acceptance.producing_request;
  const producing = producingId ? events.find((e) => e.type === 'request' && e['request_id'] === producingId) : undefined;
  const payloadRef = producing?.files?.find((f) => f.role === 'request_payload');
  const payload = payloadRef ? readFile(payloadRef.path) : undefined;
  if (payload && !payload.ok) return failAt(payload.kind, payload.message, eventAt(producing!));
  // The card the acceptance vouched for: with a receipt, or found on disk after an unknown outcome
  // (a create whose handler timed out after its write); with a receipt, it must be the receipt's file.
  const cardRef = acceptanceEvent.files?.find((f) => f.role === CARD_ROLE);
  if (receipt && cardRef?.path !== receipt.path) {
    return failAt('receipt_mismatch', `the acceptance vouches for ${cardRef?.path ?? 'no card'}, the receipt names ${receipt.path}`, at);
  }
  const card = cardRef ? readFile(cardRef.path) : undefined;
  const creates = run.calls.filter((call) => call.name === 'create_card');
  // The receipt must be the data a successful create call returned (its canonical hash), not one written in later.
  const returned = creates.flatMap((call) => (call.outcome.ok && typeof call.outcome['data_sha256'] === 'string' ? [call.outcome['data_sha256']] : []));
  if (receipt && !returned.includes(canonicalHash(receipt))) {
    return failAt('receipt_mismatch', 'the receipt in the acceptance event is not the data any successful create_card call returned', at);
  }
  // The receipt, the acceptance's card summary and the card file must tell one story (sha256 is checked by card_hash).
  const summary = acceptanceEvent['card'];
  if (receipt && card?.ok && card.value.byteLength !== receipt.bytes) {
    return failAt('receipt_mismatch', `the receipt records ${receipt.bytes} bytes, ${receipt.path} has ${card.value.byteLength}`, at);
  }
  if (canonicalOf(summary) !== canonicalOf(receipt ? { path: receipt.path, sha256: receipt.sha256 } : null)) {
    return failAt('receipt_mismatch', 'the acceptance event\'s card summary does not repeat the receipt\'s path and sha256', at);
  }
  return ok(
    acceptanceChecks({
      snapshot: run.snapshot,
      ...(receipt ? { receipt } : {}),
      ...(card?.ok ? { card: card.value } : {}),
      ...(payload?.ok ? { producingPayload: payload.value } : {}),
      successfulCreates: creates.filter((call) => call.outcome.ok).length,
      refusedCreates: creates.flatMap((call) => (call.outcome.ok ? [] : [`${call.tool_call_id}: ${call.outcome.class}/${call.outcome.kind}`])),
    }),
  );
}
