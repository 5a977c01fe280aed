import { sha256Hex } from '../contract/index.ts';
import type { AcceptanceCheck } from '../harness/index.ts';
import type { Snapshot } from './snapshot.ts';
import { parseCard } from './card.ts';
import type { CardReceipt } from './contracts.ts';
import { SOURCE_IDS } from './sources.ts';

/** The bytes acceptance is decided from, live (evidence.ts `liveAcceptance`) or recorded (`recordedAcceptance`, for `caplab verify`). */
export interface AcceptanceEvidence {
  readonly snapshot: Snapshot;
  /** The receipt of the one successful create_card, if any. */
  readonly receipt?: CardReceipt;
  /** The card bytes on disk at the receipt's path (undefined if absent). */
  readonly card?: Uint8Array;
  /**
   * The request that produced the successful create: its payload bytes, and the
   * sources the task computed they disclosed (`disclosedSources`, its request
   * field; verify re-computes them before acceptance is re-checked).
   */
  readonly producing?: { readonly payload: Uint8Array; readonly disclosed: readonly string[] };
  /** How many create_card calls succeeded in the run (fresh target ⇒ exactly one). */
  readonly successfulCreates: number;
  /** Refused or failed create_card calls, as "tool_call_id: class/kind", so the table says why there is no card. */
  readonly refusedCreates?: readonly string[];
}

const short = (hash: string) => hash.slice(0, 12);

/**
 * Decides acceptance from evidence alone (SPEC F-TASK). Checks never pass on
 * a missing object; criteria no program can check are reported as such.
 */
export function acceptanceChecks(evidence: AcceptanceEvidence): AcceptanceCheck[] {
  const { receipt, card, snapshot } = evidence;
  const checks: AcceptanceCheck[] = [];
  const add = (id: string, object: string, condition: string, pass: boolean, proof: string) =>
    checks.push({ id, object, condition, evidence: proof, verdict: pass ? 'pass' : 'fail' });

  const cardObject = receipt ? receipt.path : 'card (no create_card receipt)';
  add('card_exists', cardObject, 'a card was created and is on disk', !!receipt && !!card, receipt ? (card ? `${card.byteLength} bytes on disk` : 'receipt names a file that is absent') : `no successful create_card${refused(evidence)}`);
  const actual = card ? sha256Hex(card) : undefined;
  const hashed = !!receipt && !!card && actual === receipt.sha256 && card.byteLength === receipt.bytes;
  add('card_hash', cardObject, 'sha256 and size of the card bytes equal the receipt', hashed, receipt ? `receipt ${short(receipt.sha256)} ${receipt.bytes} bytes, disk ${actual ? `${short(actual)} ${card!.byteLength} bytes` : 'absent'}` : 'no receipt');

  const text = card ? decode(card) : undefined;
  const parsed = text === undefined ? undefined : parseCard(text);
  add('card_layout', cardObject, 'the card has the fixed layout (re-rendering reproduces it byte for byte)', !!parsed, parsed ? `${parsed.excerpts.length} excerpt blocks` : 'layout does not parse');

  const excerpts = parsed?.excerpts ?? [];
  const verbatim = excerpts.length > 0 && excerpts.every((e) => snapshot.sources.find((s) => s.id === e.sourceId)?.text.includes(e.quote) === true);
  add('quotes_verbatim', 'card quotes', 'every quote is a verbatim substring of its source in the bound snapshot', verbatim, `${excerpts.length} quote(s) against snapshot ${snapshot.id}`);
  const bound = parsed?.snapshotId === snapshot.id && excerpts.length > 0 && excerpts.every((e) => snapshot.sources.find((s) => s.id === e.sourceId)?.sha256 === e.sourceSha256);
  const hashes = excerpts.map((e) => `${e.sourceId}:${short(e.sourceSha256)}`).join(', ') || 'no excerpts';
  add('snapshot_bound', 'card snapshot and source hashes', 'the card names the host snapshot and each quoted source hash equals its snapshot hash', bound, `card snapshot ${parsed?.snapshotId ?? '?'}; ${hashes}`);

  const order = excerpts.map((e) => e.sourceId);
  add('source_order', 'card excerpts', `one excerpt per source, in the order ${SOURCE_IDS.join(', ')}`, order.join(',') === SOURCE_IDS.join(','), order.join(', ') || 'none');

  const disclosed = evidence.producing?.disclosed ?? [];
  const allDisclosed = order.length > 0 && order.every((id) => disclosed.includes(id));
  add('sources_disclosed', 'producing request payload', 'every quoted source was in the request that produced the create', allDisclosed, evidence.producing ? `payload ${short(sha256Hex(evidence.producing.payload))} disclosed: ${disclosed.join(', ') || 'none'}` : 'no producing request');

  const fresh = !!receipt && evidence.successfulCreates === 1 && parsed?.actionId === receipt.action_id;
  add('target_fresh', cardObject, 'the card was created new by this action (exclusive create, exactly one create)', fresh, receipt ? `card action ${parsed?.actionId ?? '?'}, receipt action ${receipt.action_id}, creates ${evidence.successfulCreates}` : 'no receipt');

  checks.push({
    id: 'most_representative',
    object: 'quote choice',
    condition: 'each quote is the most representative passage of its source',
    evidence: 'no program-checkable criterion exists for "representative"',
    verdict: 'not_verifiable',
  });
  return checks;
}

function refused(evidence: AcceptanceEvidence): string {
  return evidence.refusedCreates && evidence.refusedCreates.length > 0 ? ` (refused: ${evidence.refusedCreates.join('; ')})` : '';
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
