import { canonicalJson, ok, type Outcome } from '../contract/index.ts';
import { acceptanceChecks, isAccepted, takeSnapshot, type AcceptanceCheck, type CardReceipt } from '../excerpt/index.ts';
import type { LedgerEvent, ReadRecorded, Recheck } from '../ledger/index.ts';
import { failAt, LEDGER_FILE } from '../ledger/index.ts';

export interface RecheckReport {
  readonly accepted: boolean;
  readonly checks: readonly AcceptanceCheck[];
}

const at = (event: LedgerEvent) => ({ file: LEDGER_FILE, line: event.seq + 1, seq: event.seq, type: event.type });

/**
 * Re-decides acceptance from the recorded bytes alone: the snapshot files of
 * run_start, the card file, the producing request's payload, and the recorded
 * call outcomes. The recorded checks must equal the re-computed ones exactly.
 */
export const recheckAcceptance: Recheck<RecheckReport> = (events, readFile) => {
  const start = events.find((e) => e.type === 'run_start');
  const acceptance = events.find((e) => e.type === 'acceptance');
  if (!start || !acceptance) return failAt('missing_event', 'the ledger has no run_start or no acceptance event', { file: LEDGER_FILE });

  const sources = (start.files ?? []).filter((f) => f.role === 'snapshot_source');
  const files: { id: string; bytes: Uint8Array }[] = [];
  for (const file of sources) {
    const bytes = readFile(file.path);
    if (!bytes.ok) return failAt(bytes.kind, bytes.message, at(start));
    files.push({ id: file.path.replace(/^snapshot\//, '').replace(/\.md$/, ''), bytes: bytes.value });
  }
  const snapshot = takeSnapshot(files);
  const recordedSnapshot = (start['snapshot'] as { id?: string } | undefined)?.id;
  if (snapshot.id !== recordedSnapshot) {
    return failAt('snapshot_mismatch', `snapshot files hash to ${snapshot.id}, run_start recorded ${String(recordedSnapshot)}`, at(start));
  }

  const receipt = (acceptance['receipt'] ?? undefined) as CardReceipt | undefined;
  const producingId = acceptance['producing_request'] as string | null;
  const producing = producingId ? events.find((e) => e.type === 'request' && e['request_id'] === producingId) : undefined;
  const payloadRef = producing?.files?.find((f) => f.role === 'request_payload');
  const payload = payloadRef ? readFile(payloadRef.path) : undefined;
  if (payload && !payload.ok) return failAt(payload.kind, payload.message, at(producing!));
  // The card the acceptance vouched for, as the run saw it: with a receipt, or on disk after an unknown outcome.
  const cardRef = acceptance.files?.find((f) => f.role === 'card');
  const card = cardRef ? readOptional(readFile, cardRef.path) : undefined;
  const successfulCreates = events.filter(
    (e) => e.type === 'call' && e['name'] === 'create_card' && (e['outcome'] as { ok?: boolean } | undefined)?.ok === true,
  ).length;

  const refusedCreates = events.flatMap((e) => {
    const outcome = e['outcome'] as { ok?: boolean; class?: string; kind?: string } | undefined;
    return e.type === 'call' && e['name'] === 'create_card' && outcome?.ok === false ? [`${String(e['tool_call_id'])}: ${outcome.class}/${outcome.kind}`] : [];
  });
  const checks = acceptanceChecks({
    snapshot,
    ...(receipt ? { receipt } : {}),
    ...(card ? { card } : {}),
    ...(payload?.ok ? { producingPayload: payload.value } : {}),
    successfulCreates,
    refusedCreates,
  });
  const recorded = acceptance['checks'] as readonly AcceptanceCheck[];
  const accepted = isAccepted(checks);
  for (const [i, check] of checks.entries()) {
    if (canonicalJson(check) !== canonicalJson(recorded?.[i])) {
      return failAt('acceptance_mismatch', `acceptance check ${check.id} re-computes to ${check.verdict} (${check.evidence}), the ledger recorded ${JSON.stringify(recorded?.[i]?.verdict)}`, at(acceptance));
    }
  }
  if (recorded.length !== checks.length || acceptance['accepted'] !== accepted) {
    return failAt('acceptance_mismatch', `the ledger recorded accepted=${String(acceptance['accepted'])}, the evidence gives ${accepted}`, at(acceptance));
  }
  return ok({ accepted, checks }) as Outcome<RecheckReport>;
};

function readOptional(readFile: ReadRecorded, path: string): Uint8Array | undefined {
  const bytes = readFile(path);
  return bytes.ok ? bytes.value : undefined;
}

