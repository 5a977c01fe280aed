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
  const card = receipt ? readOptional(readFile, receipt.path) : undefined;
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
  const recorded = (Array.isArray(acceptance['checks']) ? acceptance['checks'] : []) as readonly (AcceptanceCheck | undefined)[];
  const accepted = isAccepted(checks);
  // Every differing check becomes one issue; the message names the first whose verdict differs
  // (a forged defect), before any that differs only in its evidence text.
  const differing = checks.filter((check, i) => canonicalJson(check) !== canonicalJson(recorded[i] ?? null));
  if (differing.length > 0) {
    const recordedVerdict = (check: AcceptanceCheck) => JSON.stringify(recorded[checks.indexOf(check)]?.verdict);
    const first = differing.find((check) => JSON.stringify(check.verdict) !== recordedVerdict(check)) ?? differing[0]!;
    return {
      ...failAt('acceptance_mismatch', `acceptance check ${first.id} re-computes to ${first.verdict} (${first.evidence}), the ledger recorded ${recordedVerdict(first)}`, at(acceptance)),
      issues: differing.map((check) => `${check.id}: recorded ${recordedVerdict(check)}, re-computed ${check.verdict} (${check.evidence})`),
    };
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

