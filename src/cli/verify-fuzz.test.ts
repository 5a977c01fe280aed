/**
 * Fuzzing `verify` over a real run dir (issue 11), seeded so every run is the
 * same: 1,000 random mutations (bytes flipped, ledger lines dropped, duplicated
 * or reordered, files truncated, removed, or replaced by a folder or a FIFO)
 * must give 0 throws and 0 "verifies" (and `caplab report`'s page of each, its
 * verdict verify's, never a throw). Re-chained mutations (ledger and seal
 * recomputed after the edit) that leave two recorded facts inconsistent must
 * not verify, and none may verify against the original head.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { recheckAcceptance } from '../harness/index.ts';
import { canonicalHash } from '../contract/index.ts';
import { verify } from '../ledger/index.ts';
import { readFound, renderReport } from '../report/index.ts';
import { copyRun, demoRunDir, readEvents, rechain, refOf, type Event } from './verify-test-kit.ts';
import { excerptTask } from '../excerpt/index.ts';

const temp = mkdtempSync(join(tmpdir(), 'caplab-verify-fuzz-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let work = '';
let original = new Map<string, Buffer>();
let head = '';
beforeAll(async () => {
  work = copyRun(await demoRunDir(temp), temp);
  const files = readdirSync(work, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(work, join(e.parentPath, e.name)));
  original = new Map(files.map((f) => [f, readFileSync(join(work, f))]));
  head = JSON.parse(original.get('ledger.head')!.toString()).head;
});

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Puts files back as they were (a folder or FIFO in a file's place is removed first): all, or only those named. */
function restore(only?: readonly string[]): void {
  for (const file of only ?? original.keys()) {
    const path = join(work, file);
    rmSync(path, { recursive: true, force: true });
    writeFileSync(path, original.get(file)!);
  }
}

type Verdict = 'verifies' | 'fails' | 'throws';
function verdictOf(expectedHead?: string): { verdict: Verdict; kind?: string } {
  try {
    const report = verify(work, { recheck: recheckAcceptance(excerptTask), ...(expectedHead ? { expectedHead } : {}) });
    // caplab report draws every mutated run dir too, never throwing, its verdict verify's (issue 31).
    const page = renderReport({ dir: work, verdict: report, run: readFound(work) });
    if (!page.includes(`data-verdict="${report.ok ? 'verifies' : 'fails'}"`)) return { verdict: 'throws', kind: 'the report shows another verdict than verify' };
    return report.ok ? { verdict: 'verifies' } : { verdict: 'fails', kind: report.kind };
  } catch (error) {
    return { verdict: 'throws', kind: String(error) };
  }
}

const lines = (bytes: Buffer) => bytes.toString('utf8').trimEnd().split('\n');
const writeLines = (rows: string[]) => writeFileSync(join(work, 'ledger.jsonl'), rows.map((l) => `${l}\n`).join(''));

// 1,000 mutations in four seeded chunks of 250, so no single test runs long on a loaded machine.
for (const chunk of [0, 1, 2, 3]) test(`seeded random mutations ${chunk * 250 + 1}–${(chunk + 1) * 250} of 1,000: 0 throws, 0 verifies`, () => {
  const rand = prng(20261130 + chunk);
  const files = [...original.keys()].sort();
  const tally: Record<Verdict, number> = { verifies: 0, fails: 0, throws: 0 };
  const bad: string[] = [];
  let fifos = 0;
  for (let i = 0; i < 250; i++) {
    const file = files[rand(files.length)]!;
    const path = join(work, file);
    const bytes = Buffer.from(original.get(file)!);
    const ledger = lines(original.get('ledger.jsonl')!);
    const op = rand(8);
    let what: string;
    if (op <= 1) {
      const flips = 1 + rand(3);
      for (let f = 0; f < flips; f++) bytes[rand(bytes.length)]! ^= 1 + rand(255);
      // Two flips can cancel out; only a real change counts as a mutation.
      if (bytes.equals(original.get(file)!)) bytes[0]! ^= 0x20;
      writeFileSync(path, bytes);
      what = `flip ${file}`;
    } else if (op === 2) {
      ledger.splice(rand(ledger.length), 1);
      writeLines(ledger);
      what = 'drop line';
    } else if (op === 3) {
      const at = rand(ledger.length);
      ledger.splice(at, 0, ledger[at]!);
      writeLines(ledger);
      what = 'duplicate line';
    } else if (op === 4) {
      const a = rand(ledger.length);
      const b = (a + 1 + rand(ledger.length - 1)) % ledger.length;
      [ledger[a], ledger[b]] = [ledger[b]!, ledger[a]!];
      writeLines(ledger);
      what = 'swap lines';
    } else if (op === 5) {
      writeFileSync(path, bytes.subarray(0, rand(bytes.length)));
      what = `truncate ${file}`;
    } else if (op === 6) {
      unlinkSync(path);
      mkdirSync(path);
      what = `folder for ${file}`;
    } else if (fifos < 6) {
      unlinkSync(path);
      if (Bun.spawnSync(['mkfifo', path]).exitCode !== 0) throw new Error('mkfifo failed');
      fifos++;
      what = `FIFO for ${file}`;
    } else {
      unlinkSync(path);
      what = `remove ${file}`;
    }
    const { verdict, kind } = verdictOf();
    tally[verdict]++;
    if (verdict !== 'fails') bad.push(`#${i} ${what}: ${verdict} ${kind ?? ''}`);
    restore([file, 'ledger.jsonl']);
  }
  expect(bad).toEqual([]);
  expect(tally).toEqual({ verifies: 0, fails: 250, throws: 0 });
  expect(fifos).toBeGreaterThan(0);
  expect(verdictOf(head).verdict).toBe('verifies');
});

/** Re-chained edits that each leave two recorded facts inconsistent. */
const forgeries: [name: string, edit: (rand: (n: number) => number) => void][] = [
  ['card bytes changed, its references updated', (rand) => {
    const card = Buffer.from(original.get('card/excerpt-card.md')!);
    card[rand(card.length)]! ^= 1 + rand(255);
    writeFileSync(join(work, 'card/excerpt-card.md'), card);
    const ref = refOf(work, 'card/excerpt-card.md');
    rechain(work, (es) => es.map((e) => (e.type === 'acceptance' ? { ...e, files: (e['files'] as object[]).map((f) => ({ ...f, ...ref })) } : e)));
  }],
  ['a receipt field changed', (rand) => {
    const field = (['sha256', 'bytes', 'action_id', 'path'] as const)[rand(4)]!;
    const value = { sha256: 'a'.repeat(64), bytes: 1 + rand(9999), action_id: `act-${90 + rand(9)}`, path: 'card/other.md' }[field];
    rechain(work, (es) => es.map((e) => (e.type === 'acceptance' ? { ...e, receipt: { ...(e['receipt'] as object), [field]: value } } : e)));
  }],
  ['recorded arguments of a call changed', (rand) => {
    const calls = readEvents(work).filter((e) => e.type === 'call');
    const target = calls[rand(calls.length)]!['tool_call_id'];
    rechain(work, (es) => es.map((e) => (e['tool_call_id'] === target ? { ...e, arguments: { ...(e['arguments'] as object), original: { forged: rand(1000) } } } : e)));
  }],
  ['a response file changed (a tool_use input), its reference updated', (rand) => {
    const responses = [...original.keys()].filter((f) => f.endsWith('-response.json') && original.get(f)!.includes('"tool_use"'));
    const file = responses[rand(responses.length)]!;
    const doc = JSON.parse(original.get(file)!.toString());
    const use = doc.content.find((b: { type: string }) => b.type === 'tool_use');
    use.input = { ...use.input, forged: rand(1000) };
    writeFileSync(join(work, file), `${JSON.stringify(doc, null, 2)}\n`);
    const ref = refOf(work, file);
    rechain(work, (es) => es.map((e) => (e.type === 'response' ? { ...e, files: (e['files'] as { path: string }[]).map((f) => (f.path === file ? { ...f, ...ref } : f)) } : e)));
  }],
  ['an acceptance verdict changed', (rand) => {
    rechain(work, (es) => es.map((e) => {
      if (e.type !== 'acceptance') return e;
      const checks = (e['checks'] as { verdict: string }[]).map((c) => ({ ...c }));
      if (rand(2) === 0) return { ...e, accepted: false };
      checks[rand(checks.length - 1)]!.verdict = 'fail';
      return { ...e, checks };
    }));
  }],
  ['run_end contradicts acceptance', () => rechain(work, (es) => es.map((e) => (e.type === 'run_end' ? { ...e, accepted: false } : e)))],
  ['the create_card call removed', () => rechain(work, (es: Event[]) => es.filter((e) => !(e.type === 'call' && e['name'] === 'create_card')))],
];

for (const chunk of [0, 1]) test(`re-chained inconsistent mutations never verify; none verifies against the original head (${chunk + 1}/2)`, () => {
  const rand = prng(7 + chunk);
  const bad: string[] = [];
  for (let i = 0; i < 70; i++) {
    const [name, edit] = forgeries[i % forgeries.length]!;
    edit(rand);
    const alone = verdictOf();
    const anchored = verdictOf(head);
    if (alone.verdict !== 'fails' || anchored.verdict !== 'fails') bad.push(`#${i} ${name}: ${alone.verdict} ${alone.kind ?? ''} / with head: ${anchored.verdict}`);
    restore();
  }
  expect(bad).toEqual([]);
});

test('a consistent re-forgery verifies alone and is caught only with the original head', () => {
  rechain(work, (es) => es.map((e) => (e.type === 'run_start' ? { ...e, at: '1999-12-31T23:59:59.000Z' } : e)));
  try {
    expect(verdictOf().verdict).toBe('verifies');
    expect(verdictOf(head)).toEqual({ verdict: 'fails', kind: 'head_mismatch' });
  } finally {
    restore();
  }
});

/** Re-chained forgeries of the record's own story (issue W1): each names the kind that catches it. */
const storyForgeries: [name: string, kind: string, edit: () => void][] = [
  ['a call event dropped', 'call_missing', () => rechain(work, (es) => es.filter((e) => e['tool_call_id'] !== 'toolu_02'))],
  ['a call event added (a copy of one)', 'call_unasked', () => rechain(work, (es) => es.flatMap((e) => (e['tool_call_id'] === 'toolu_01' ? [e, { ...e }] : [e])))],
  ['two calls of one response swapped', 'call_unasked', () => rechain(work, (es) => {
    const [a, b] = [es.findIndex((e) => e['tool_call_id'] === 'toolu_01'), es.findIndex((e) => e['tool_call_id'] === 'toolu_02')];
    const swapped = [...es];
    [swapped[a], swapped[b]] = [es[b]!, es[a]!];
    return swapped;
  })],
  ['a call event moved to another request', 'call_missing', () => rechain(work, (es) => {
    const moved = { ...es.find((e) => e['tool_call_id'] === 'toolu_02')!, request_id: 'req-02' };
    const rest = es.filter((e) => e['tool_call_id'] !== 'toolu_02');
    const create = rest.findIndex((e) => e['tool_call_id'] === 'toolu_03');
    return [...rest.slice(0, create + 1), moved, ...rest.slice(create + 1)];
  })],
  ['a tool_result edited in a payload, its reference updated', 'result_mismatch', () => {
    const file = 'requests/02-request.json';
    const doc = JSON.parse(original.get(file)!.toString());
    doc.messages.at(-1).content[1].content[0].text += ' ';
    writeFileSync(join(work, file), `${JSON.stringify(doc, null, 2)}\n`);
    const ref = refOf(work, file);
    rechain(work, (es) => es.map((e) => (e.type === 'request' && e['request_id'] === 'req-02' ? { ...e, payload: { ...(e['payload'] as object), ...ref }, files: (e['files'] as object[]).map((f) => ({ ...f, ...ref })) } : e)));
  }],
  ['disclosed_sources edited', 'disclosure_mismatch', () => rechain(work, (es) => es.map((e) => (e['request_id'] === 'req-02' && e.type === 'request' ? { ...e, disclosed_sources: ['alpha'] } : e)))],
  ['run_end counts changed', 'count_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'run_end' ? { ...e, tool_calls: 4 } : e)))],
  ['a rewritten input no hook returned', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_02' ? { ...e, arguments: { ...(e['arguments'] as object), rewritten: { source_id: 'beta', forged: true } } } : e)))],
  ['a call made a success under its recorded deny', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_03' ? { ...e, permission: { decision: 'deny', by: 'rule', reason: 'forged' } } : e)))],
  ['a success that never entered its handler', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_01' ? { ...e, handler_entered: false, via: 'not_executed' } : e)))],
  ['two calls sharing an action id', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_02' ? { ...e, action_id: 'act-01' } : e)))],
  ['a converted input its binding does not make', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_01' ? { ...e, arguments: { ...(e['arguments'] as object), converted: { source_id: 'alpha', forged: true } } } : e)))],
  ['a call naming a binding run_start does not record', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_01' ? { ...e, binding_id: 'f'.repeat(64) } : e)))],
  ['a local call said to have run over MCP', 'call_inconsistent', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_01' ? { ...e, via: 'mcp' } : e)))],
  ['a binding in run_start edited', 'binding_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'run_start' ? { ...e, bindings: (e['bindings'] as { version?: string }[]).map((b, i) => (i === 0 ? { ...b, implementation: { kind: 'local', version: 'forged/1' } } : b)) } : e)))],
  ['run_start’s source list edited (a size)', 'snapshot_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'run_start' ? { ...e, snapshot: { ...(e['snapshot'] as { sources: object[] }), sources: (e['snapshot'] as { sources: object[] }).sources.map((src, i) => (i === 0 ? { ...src, bytes: 1 } : src)) } } : e)))],
  ['a read’s object version naming the other source', 'read_mismatch', () => rechain(work, (es) => {
    const beta = (es.find((e) => e['tool_call_id'] === 'toolu_02')!['outcome'] as { object_version: string }).object_version;
    return es.map((e) => (e['tool_call_id'] === 'toolu_01' ? { ...e, outcome: { ...(e['outcome'] as object), object_version: beta } } : e));
  })],
  ['a response event whose stop reason is not its file’s', 'response_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'response' && e['request_id'] === 'req-01' ? { ...e, stop_reason: 'end_turn' } : e)))],
  ['a response event naming another request', 'misplaced_event', () => rechain(work, (es) => es.map((e) => (e.type === 'response' && e['request_id'] === 'req-02' ? { ...e, request_id: 'req-01' } : e)))],
  ['run_end exit code changed', 'count_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'run_end' ? { ...e, exit_code: 4 } : e)))],
  ['a create given a read’s id (reused, never refused)', 'call_inconsistent', () => {
    for (const file of ['requests/02-response.json', 'requests/03-request.json']) writeFileSync(join(work, file), original.get(file)!.toString().replaceAll('toolu_03', 'toolu_01'));
    const refs = Object.fromEntries(['requests/02-response.json', 'requests/03-request.json'].map((f) => [f, refOf(work, f)]));
    rechain(work, (es) => es.map((e) => {
      const files = (e['files'] as { path: string }[] | undefined)?.map((f) => (refs[f.path] ? { ...f, ...refs[f.path] } : f));
      const moved = e['tool_call_id'] === 'toolu_03' ? { ...e, tool_call_id: 'toolu_01' } : e;
      const payload = e.type === 'request' && refs[(e['payload'] as { path: string }).path] ? { payload: { ...(e['payload'] as object), ...refs[(e['payload'] as { path: string }).path] } } : {};
      return files ? { ...moved, files, ...payload } : moved;
    }));
  }],
  ['the create call’s object version changed', 'receipt_mismatch', () => rechain(work, (es) => es.map((e) => (e['tool_call_id'] === 'toolu_03' ? { ...e, outcome: { ...(e['outcome'] as object), object_version: 'f'.repeat(64) } } : e)))],
  ['producing_request renamed', 'producing_mismatch', () => rechain(work, (es) => es.map((e) => (e.type === 'acceptance' ? { ...e, producing_request: 'req-03' } : e)))],
  ['a card quote changed, its receipt re-hashed', 'card_mismatch', () => {
    const path = join(work, 'card/excerpt-card.md');
    writeFileSync(path, original.get('card/excerpt-card.md')!.toString().replace('only a story.', 'only a tale.'));
    const ref = refOf(work, 'card/excerpt-card.md');
    rechain(work, (es) => {
      const acceptance = es.find((e) => e.type === 'acceptance')!;
      const receipt = { ...(acceptance['receipt'] as object), ...ref };
      const create = es.find((e) => e['tool_call_id'] === 'toolu_03')!;
      create['outcome'] = { ...(create['outcome'] as object), data_sha256: canonicalHash(receipt), object_version: ref.sha256 };
      acceptance['receipt'] = receipt;
      acceptance['card'] = { path: 'card/excerpt-card.md', sha256: ref.sha256 };
      acceptance['files'] = (acceptance['files'] as object[]).map((f) => ({ ...f, ...ref }));
      return es;
    });
  }],
];

test('re-chained forgeries of the record’s story never verify, each named by its kind', () => {
  const seen: string[] = [];
  for (const [name, , edit] of storyForgeries) {
    edit();
    seen.push(`${name}: ${verdictOf().kind}`);
    restore();
  }
  expect(seen).toEqual(storyForgeries.map(([name, kind]) => `${name}: ${kind}`));
  expect(verdictOf(head).verdict).toBe('verifies');
});
