/**
 * Acceptance from forged evidence (issue 10): each row forges exactly one
 * defect into otherwise honest evidence, and exactly the check that guards
 * against it must fail — so making any check always pass turns a row red.
 */
import { describe, expect, test } from 'bun:test';
import { sha256Hex } from '../contract/index.ts';
import { isAccepted, type Verdict } from '../harness/index.ts';
import { acceptanceChecks, type AcceptanceEvidence } from './acceptance.ts';
import { CARD_PATH, renderCard, type CardContent } from './card.ts';
import type { CardReceipt } from './contracts.ts';
import { disclosedSources } from './disclosure.ts';
import { fixtureSnapshot } from './sources.ts';

const snapshot = fixtureSnapshot();
const [alpha, beta] = snapshot.sources as [(typeof snapshot.sources)[number], (typeof snapshot.sources)[number]];
const QUOTE = { alpha: 'A claim that cannot be checked against the casks is only a story.', beta: '记下发生了什么，而不是希望发生了什么。' };

const honestCard: CardContent = {
  runId: 'run-1',
  actionId: 'act-03',
  snapshotId: snapshot.id,
  excerpts: [
    { sourceId: 'alpha', sourceSha256: alpha.sha256, quote: QUOTE.alpha },
    { sourceId: 'beta', sourceSha256: beta.sha256, quote: QUOTE.beta },
  ],
};

type Block = Record<string, unknown>;
const result = (text: string, id: string, extra: Block = {}): Block => ({ type: 'tool_result', tool_use_id: id, is_error: false, content: [{ type: 'text', text }], ...extra });
const readUse = (id: string, sourceId: string): Block => ({ type: 'tool_use', id, name: 'read_source', input: { source_id: sourceId } });

/** A request payload shaped as the harness writes it: system text, the task, the reads, their results. */
function payload(results: readonly Block[], more: { system?: Block[]; messages?: Block[] } = {}): Uint8Array {
  const body = {
    model: 'scripted:test',
    system: [{ type: 'text', text: 'You are running inside caplab.' }, ...(more.system ?? [])],
    messages: [
      { role: 'user', content: 'Make an excerpt card.' },
      { role: 'assistant', content: [readUse('toolu_01', 'alpha'), readUse('toolu_02', 'beta')] },
      { role: 'user', content: results },
      ...(more.messages ?? []),
    ],
  };
  return new TextEncoder().encode(JSON.stringify(body, null, 2));
}

/** The reads recorded before the producing request: toolu_01 read alpha, toolu_02 read beta. */
const READS = new Map([['toolu_01', ['alpha']], ['toolu_02', ['beta']]]);
/** The producing request as acceptance reads it: the payload and what disclosure computed. */
const producing = (bytes: Uint8Array) => ({ payload: bytes, disclosed: disclosedSources(bytes, snapshot, READS) });

const honestPayload = payload([result(alpha.text, 'toolu_01'), result(beta.text, 'toolu_02')]);
const alphaOnly = (more: { system?: Block[]; messages?: Block[] } = {}, results: Block[] = []) => payload([result(alpha.text, 'toolu_01'), ...results], more);

function receiptFor(bytes: Uint8Array, card: CardContent): CardReceipt {
  return {
    action_id: card.actionId,
    path: CARD_PATH,
    sha256: sha256Hex(bytes),
    bytes: bytes.byteLength,
    sources: card.excerpts.map((e) => ({ source_id: e.sourceId as 'alpha' | 'beta', sha256: e.sourceSha256 })),
  };
}

/** Honest evidence for a card: the receipt matches the bytes, one create, both sources disclosed. */
function evidenceFor(card: CardContent, over: Partial<AcceptanceEvidence> = {}): AcceptanceEvidence {
  const bytes = new TextEncoder().encode(renderCard(card));
  return { snapshot, receipt: receiptFor(bytes, card), card: bytes, producing: producing(honestPayload), successfulCreates: 1, ...over };
}

const honest = evidenceFor(honestCard);
const withExcerpt = (i: number, change: Partial<CardContent['excerpts'][number]>): CardContent => ({
  ...honestCard,
  excerpts: honestCard.excerpts.map((e, j) => (i === j ? { ...e, ...change } : e)),
});

interface Forgery {
  readonly defect: string;
  /** The one check that must fail. */
  readonly fails: string;
  readonly evidence: AcceptanceEvidence;
  /** For disclosure rows: the text that must still be somewhere in the payload (so the row forges what it says). */
  readonly presentElsewhere?: string;
}

const FORGERIES: readonly Forgery[] = [
  { defect: 'card bytes changed after the receipt', fails: 'card_hash', evidence: { ...honest, card: new TextEncoder().encode(renderCard({ ...honestCard, runId: 'run-2' })) } },
  { defect: 'receipt hash wrong', fails: 'card_hash', evidence: { ...honest, receipt: { ...honest.receipt!, sha256: sha256Hex('some other card') } } },
  { defect: 'receipt size wrong', fails: 'card_hash', evidence: { ...honest, receipt: { ...honest.receipt!, bytes: honest.receipt!.bytes + 1 } } },
  { defect: 'quote not verbatim', fails: 'quotes_verbatim', evidence: evidenceFor(withExcerpt(0, { quote: 'A claim that cannot be checked against the casks is only a tale.' })) },
  { defect: 'quote from the other source', fails: 'quotes_verbatim', evidence: evidenceFor(withExcerpt(0, { quote: 'A tally records what happened' })) },
  { defect: 'wrong source hash in the card', fails: 'snapshot_bound', evidence: evidenceFor(withExcerpt(1, { sourceSha256: alpha.sha256 })) },
  { defect: 'wrong snapshot id in the card', fails: 'snapshot_bound', evidence: evidenceFor({ ...honestCard, snapshotId: 'snap-0000000000000000' }) },
  { defect: 'order swapped', fails: 'source_order', evidence: evidenceFor({ ...honestCard, excerpts: [honestCard.excerpts[1]!, honestCard.excerpts[0]!] }) },
  { defect: 'no producing request payload', fails: 'sources_disclosed', evidence: (({ producing: _dropped, ...rest }) => rest)(honest) },
  { defect: 'a source missing from the producing payload', fails: 'sources_disclosed', evidence: { ...honest, producing: producing(alphaOnly()) } },
  {
    defect: 'source text only in a system block',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({ system: [{ type: 'text', text: beta.text }] })) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in an is_error tool_result',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({}, [result(beta.text, 'toolu_02', { is_error: true })])) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in a tool_result whose is_error is not a boolean',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({}, [result(beta.text, 'toolu_02', { is_error: 'true' })])) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in a user text block',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({}, [{ type: 'text', text: beta.text }])) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only as a user message string',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({ messages: [{ role: 'user', content: beta.text }] })) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in a tool_result inside an assistant message',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({ messages: [{ role: 'assistant', content: [result(beta.text, 'toolu_02')] }] })) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in a tool_use input',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({ messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_09', name: 'echo', input: { text: beta.text } }] }] })) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text split across two tool_results',
    fails: 'sources_disclosed',
    evidence: {
      ...honest,
      producing: producing(alphaOnly({}, [result(beta.text.slice(0, 40), 'toolu_02'), result(beta.text.slice(40), 'toolu_03')])),
    },
  },
  {
    defect: 'source text only in a hook block of a read of the other source',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(payload([result(alpha.text, 'toolu_01'), { ...result('beta read', 'toolu_02'), content: [{ type: 'text', text: 'x' }, { type: 'text', text: beta.text }] }])) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'source text only in the read result of the other source',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(payload([result(`${alpha.text}\n${beta.text}`, 'toolu_01')])) },
    presentElsewhere: beta.text,
  },
  {
    defect: 'a read result holding all of its source but the last character',
    fails: 'sources_disclosed',
    evidence: { ...honest, producing: producing(alphaOnly({}, [result(beta.text.slice(0, -1), 'toolu_02')])) },
  },
  { defect: 'two successful creates', fails: 'target_fresh', evidence: { ...honest, successfulCreates: 2 } },
  { defect: 'card action id differs from the receipt action id', fails: 'target_fresh', evidence: { ...honest, receipt: { ...honest.receipt!, action_id: 'act-99' } } },
];

const verdicts = (evidence: AcceptanceEvidence) => Object.fromEntries(acceptanceChecks(evidence).map((c) => [c.id, c.verdict]));
const ALL_PASS: Readonly<Record<string, Verdict>> = {
  card_exists: 'pass',
  card_hash: 'pass',
  card_layout: 'pass',
  quotes_verbatim: 'pass',
  snapshot_bound: 'pass',
  source_order: 'pass',
  sources_disclosed: 'pass',
  target_fresh: 'pass',
  most_representative: 'not_verifiable',
};

/** Every string anywhere in a JSON payload (keys excluded). */
function stringsOf(bytes: Uint8Array): string[] {
  const found: string[] = [];
  JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), (_key, value: unknown) => (typeof value === 'string' && found.push(value), value));
  return found;
}

test('honest evidence passes every verifiable check and is accepted', () => {
  expect(verdicts(honest)).toEqual(ALL_PASS);
  expect(isAccepted(acceptanceChecks(honest))).toBe(true);
  // The tool_result content may also be a plain string.
  const stringContent = payload([result(alpha.text, 'toolu_01'), { type: 'tool_result', tool_use_id: 'toolu_02', content: beta.text }]);
  expect(verdicts({ ...honest, producing: producing(stringContent) })).toEqual(ALL_PASS);
});

describe('each forged defect fails exactly its check, and the run is not accepted', () => {
  for (const forgery of FORGERIES) {
    test(`${forgery.defect} → ${forgery.fails}`, () => {
      if (forgery.presentElsewhere !== undefined) {
        expect(stringsOf(forgery.evidence.producing!.payload).some((s) => s.includes(forgery.presentElsewhere!))).toBe(true);
      }
      expect(verdicts(forgery.evidence)).toEqual({ ...ALL_PASS, [forgery.fails]: 'fail' });
      expect(isAccepted(acceptanceChecks(forgery.evidence))).toBe(false);
    });
  }

  test('the table forges a defect for every check that one defect alone can fail', () => {
    const single = Object.keys(ALL_PASS).filter((id) => !['card_exists', 'card_layout', 'most_representative'].includes(id));
    expect([...new Set(FORGERIES.map((f) => f.fails))].sort()).toEqual(single.sort());
  });
});

test('checks never pass on a missing object: no card, or a card that does not parse, fails everything that reads it', () => {
  const { card: _card, ...noCard } = honest;
  expect(verdicts(noCard)).toEqual({ ...Object.fromEntries(Object.keys(ALL_PASS).map((id) => [id, 'fail'])), most_representative: 'not_verifiable' });
  const broken = new TextEncoder().encode(`${renderCard(honestCard)}trailing words\n`);
  const { card_exists, card_hash, ...rest } = verdicts({ ...honest, card: broken, receipt: receiptFor(broken, honestCard) });
  expect({ card_exists, card_hash }).toEqual({ card_exists: 'pass', card_hash: 'pass' });
  expect(rest).toEqual({ ...Object.fromEntries(Object.keys(rest).map((id) => [id, 'fail'])), most_representative: 'not_verifiable' });
});
