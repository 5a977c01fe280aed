/**
 * The forged-evidence table of excerpt/acceptance.test.ts, through `verify`
 * on a real run dir: each row forges one defect into the recorded bytes of an
 * accepted local demo run, re-chains the ledger and its seal (so the hash
 * chain cannot be what catches it), and `verify` with the acceptance recheck
 * must name exactly the check that the defect breaks — or, where a
 * cross-check of the record comes first (the card is not what its create call
 * renders to, a payload's tool_results are not the calls' answers), that
 * cross-check's kind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalHash, sha256Hex, type FailureKind } from '../contract/index.ts';
import { EXCERPT_SCENARIOS, excerptTask, fixtureSnapshot, parseCard, renderCard } from '../excerpt/index.ts';
import { verify } from '../ledger/index.ts';
import { rechain, type EditableEvent } from '../ledger/test-kit.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import { testHost } from './testing/test-host.ts';

const root = mkdtempSync(join(tmpdir(), 'caplab-forge-'));
const honestDir = join(root, 'honest');
const snapshot = fixtureSnapshot();
const [alpha, beta] = snapshot.sources as [(typeof snapshot.sources)[number], (typeof snapshot.sources)[number]];

beforeAll(async () => {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  const outcome = await runTask({
    task: excerptTask,
    model: scriptedModel(scenario.value),
    runId: 'forge',
    runDir: honestDir,
    ...testHost(),
  });
  if (!outcome.ok || !outcome.value.loop.accepted) throw new Error('fixture: the honest run was not accepted');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

type Event = EditableEvent;
const acceptanceOf = (events: Event[]) => events.find((e) => e['type'] === 'acceptance')!;
const receiptOf = (events: Event[]) => acceptanceOf(events)['receipt'] as Record<string, unknown>;
/** Patches the receipt and, as a careful forger would, the acceptance's card summary that repeats it. */
function setReceipt(events: Event[], patch: Record<string, unknown>): Event[] {
  const receipt = Object.assign(receiptOf(events), patch);
  acceptanceOf(events)['card'] = { path: receipt['path'], sha256: receipt['sha256'] };
  // …and the hash of the data the create call returned, which verify ties the receipt to.
  const create = events.find((e) => e['type'] === 'call' && e['name'] === 'create_card')!;
  (create['outcome'] as Record<string, unknown>)['data_sha256'] = canonicalHash(receipt);
  (create['outcome'] as Record<string, unknown>)['object_version'] = receipt['sha256'];
  return events;
}

/** Rewrites the card, and (as a careful forger would) the receipt in the acceptance event to match it. */
function forgeCard(dir: string, change: (card: NonNullable<ReturnType<typeof parseCard>>) => NonNullable<ReturnType<typeof parseCard>>): void {
  const path = join(dir, 'card/excerpt-card.md');
  const bytes = new TextEncoder().encode(renderCard(change(parseCard(readFileSync(path, 'utf8'))!)));
  writeFileSync(path, bytes);
  rechain(dir, (events) => setReceipt(events, { sha256: sha256Hex(bytes), bytes: bytes.byteLength }));
}

/** Rewrites the producing request's payload: `change` gets the last user message's tool_result blocks. */
function forgePayload(dir: string, change: (payload: { system: unknown[]; messages: { role: string; content: unknown }[] }) => void): void {
  const events = JSON.parse(`[${readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n').join(',')}]`) as Event[];
  const producing = acceptanceOf(events)['producing_request'];
  const request = events.find((e) => e['type'] === 'request' && e['request_id'] === producing)!;
  const path = join(dir, (request['files'] as { path: string }[])[0]!.path);
  const payload = JSON.parse(readFileSync(path, 'utf8'));
  change(payload);
  writeFileSync(path, `${JSON.stringify(payload, null, 2)}\n`);
  rechain(dir);
}

type Block = { type: string; content?: { type: string; text: string }[]; is_error?: unknown };
const results = (payload: { messages: { role: string; content: unknown }[] }) => payload.messages.at(-1)!.content as Block[];
const betaResult = (payload: { messages: { role: string; content: unknown }[] }) =>
  results(payload).find((b) => b.type === 'tool_result' && b.content?.[0]?.text === beta.text)!;
const dropBeta = (payload: { messages: { role: string; content: unknown }[] }) => {
  const all = results(payload);
  all.splice(all.indexOf(betaResult(payload)), 1);
};

interface Forgery {
  readonly defect: string;
  readonly fails: string;
  /** A cross-check verify makes before re-computing the checks, when it catches the defect first. */
  readonly caughtAs?: { readonly kind: FailureKind; readonly at: 'acceptance' | 'call' | 'request' };
  readonly forge: (dir: string) => void;
}

const FORGERIES: readonly Forgery[] = [
  {
    defect: 'card bytes changed after the receipt',
    fails: 'card_hash',
    // The card is no longer what the create call's arguments render to.
    caughtAs: { kind: 'card_mismatch', at: 'acceptance' },
    forge: (dir) => {
      const path = join(dir, 'card/excerpt-card.md');
      writeFileSync(path, readFileSync(path, 'utf8').replace('run: forge\n', 'run: other\n'));
      rechain(dir);
    },
  },
  {
    defect: 'a receipt no create call returned (the summary kept consistent, the call not)',
    fails: 'card_hash',
    caughtAs: { kind: 'receipt_mismatch', at: 'acceptance' },
    forge: (dir) =>
      rechain(dir, (events) => {
        const receipt = Object.assign(receiptOf(events), { sha256: sha256Hex('another card') });
        acceptanceOf(events)['card'] = { path: receipt['path'], sha256: receipt['sha256'] };
        return events;
      }),
  },
  { defect: 'receipt hash wrong', fails: 'card_hash', forge: (dir) => rechain(dir, (events) => setReceipt(events, { sha256: sha256Hex('another card') })) },
  // verify ties the receipt's size to the card file before it re-computes the checks.
  { defect: 'receipt size wrong', fails: 'card_hash', caughtAs: { kind: 'receipt_mismatch', at: 'acceptance' }, forge: (dir) => rechain(dir, (events) => setReceipt(events, { bytes: 1 })) },
  {
    defect: 'quote not verbatim',
    caughtAs: { kind: 'card_mismatch', at: 'acceptance' },
    fails: 'quotes_verbatim',
    forge: (dir) => forgeCard(dir, (card) => ({ ...card, excerpts: card.excerpts.map((e, i) => (i === 0 ? { ...e, quote: `${e.quote} (sic)` } : e)) })),
  },
  {
    defect: 'quote from the other source',
    caughtAs: { kind: 'card_mismatch', at: 'acceptance' },
    fails: 'quotes_verbatim',
    forge: (dir) => forgeCard(dir, (card) => ({ ...card, excerpts: card.excerpts.map((e, i) => (i === 0 ? { ...e, quote: 'A tally records what happened' } : e)) })),
  },
  {
    defect: 'wrong source hash in the card',
    caughtAs: { kind: 'card_mismatch', at: 'acceptance' },
    fails: 'snapshot_bound',
    forge: (dir) => forgeCard(dir, (card) => ({ ...card, excerpts: card.excerpts.map((e, i) => (i === 1 ? { ...e, sourceSha256: alpha.sha256 } : e)) })),
  },
  { defect: 'wrong snapshot id in the card', fails: 'snapshot_bound', caughtAs: { kind: 'card_mismatch', at: 'acceptance' }, forge: (dir) => forgeCard(dir, (card) => ({ ...card, snapshotId: 'snap-0000000000000000' })) },
  { defect: 'order swapped', fails: 'source_order', caughtAs: { kind: 'card_mismatch', at: 'acceptance' }, forge: (dir) => forgeCard(dir, (card) => ({ ...card, excerpts: [...card.excerpts].reverse() })) },
  { defect: 'a source missing from the producing payload', fails: 'sources_disclosed', caughtAs: { kind: 'result_mismatch', at: 'request' }, forge: (dir) => forgePayload(dir, dropBeta) },
  {
    defect: 'source text only in a system block',
    caughtAs: { kind: 'result_mismatch', at: 'request' },
    fails: 'sources_disclosed',
    forge: (dir) => forgePayload(dir, (payload) => (dropBeta(payload), payload.system.push({ type: 'text', text: beta.text }))),
  },
  { defect: 'source text only in an is_error tool_result', fails: 'sources_disclosed', caughtAs: { kind: 'result_mismatch', at: 'request' }, forge: (dir) => forgePayload(dir, (payload) => void (betaResult(payload).is_error = true)) },
  {
    defect: 'source text only in a user message',
    caughtAs: { kind: 'result_mismatch', at: 'request' },
    fails: 'sources_disclosed',
    forge: (dir) => forgePayload(dir, (payload) => (dropBeta(payload), payload.messages.push({ role: 'user', content: [{ type: 'text', text: beta.text }] }))),
  },
  {
    defect: 'two successful creates',
    fails: 'target_fresh',
    // The second create has no tool_use in any recorded response: verify's argument cross-check sees it first.
    caughtAs: { kind: 'arguments_mismatch', at: 'call' },
    forge: (dir) =>
      rechain(dir, (events) => {
        const create = events.findIndex((e) => e['type'] === 'call' && e['name'] === 'create_card');
        events.splice(create + 1, 0, { ...events[create], tool_call_id: 'toolu_99', action_id: 'act-99' });
        return events;
      }),
  },
  { defect: 'card action id differs from the receipt action id', fails: 'target_fresh', forge: (dir) => rechain(dir, (events) => setReceipt(events, { action_id: 'act-99' })) },
];

let copies = 0;
function forged(forge: (dir: string) => void) {
  const dir = join(root, `copy-${++copies}`);
  cpSync(honestDir, dir, { recursive: true });
  forge(dir);
  return verify(dir, { recheck: recheckAcceptance(excerptTask) });
}

/** Check ids the recheck re-computed to fail, from its one-issue-per-differing-check list. */
const failing = (issues: readonly string[] | undefined) => (issues ?? []).filter((i) => i.includes(', re-computed fail ')).map((i) => i.split(':')[0]);

test('the honest run verifies with every check passing, also after a re-chain that changes nothing', () => {
  for (const forge of [() => {}, (dir: string) => rechain(dir)]) {
    const report = forged(forge);
    if (!report.ok) throw new Error(`${report.kind}: ${report.message}`);
    expect(report.value.recheck?.accepted).toBe(true);
  }
});

describe('verify names exactly the check each forged defect breaks, after the ledger is re-chained', () => {
  for (const forgery of FORGERIES) {
    test(`${forgery.defect} → ${forgery.fails}`, () => {
      const report = forged(forgery.forge);
      if (report.ok) throw new Error(`the forged run verified: ${JSON.stringify(report.value.recheck)}`);
      if (forgery.caughtAs) {
        expect({ kind: report.kind, at: report.at.type }).toEqual(forgery.caughtAs);
        return;
      }
      expect({ kind: report.kind, at: report.at.type, failing: failing(report.issues) }).toEqual({ kind: 'acceptance_mismatch', at: 'acceptance', failing: [forgery.fails] });
      expect(report.message).toContain(`acceptance check ${forgery.fails} re-computes to fail`);
    });
  }
});

test('of several differing checks, the message names the first whose verdict differs, not one that differs only in its evidence', () => {
  const report = forged((dir) =>
    rechain(dir, (events) => {
      const acceptance = acceptanceOf(events);
      const checks = (acceptance['checks'] as Record<string, unknown>[]).map((c) => ({ ...c }));
      checks[0]!['evidence'] = 'forged evidence, same verdict';
      checks[6]!['verdict'] = 'fail';
      acceptance['checks'] = checks;
      acceptance['accepted'] = false;
      const end = events.find((e) => e['type'] === 'run_end')!;
      Object.assign(end, { accepted: false, exit_code: 1, summary: 'not accepted: sources_disclosed failed' });
      return events;
    }),
  );
  if (report.ok) throw new Error('the forged run verified');
  expect([report.kind, report.message]).toEqual(['acceptance_mismatch', expect.stringContaining(`acceptance check ${(FORGED_ORDER[6])} re-computes to pass`)]);
  expect(report.issues?.length).toBe(2);
});

const FORGED_ORDER = ['card_exists', 'card_hash', 'card_layout', 'quotes_verbatim', 'snapshot_bound', 'source_order', 'sources_disclosed', 'target_fresh', 'most_representative'];
