/**
 * `caplab verify` is total (issue 11): each finding below crashed it, or made
 * it accept what it must refuse, before the fix. Every case yields a verdict,
 * exit 0/1, and exactly one JSON document with --json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEDGER_FORMAT } from '../ledger/index.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { copyRun, demoRunDir, readEvents, rechain, verifyJson, type Event } from './verify-test-kit.ts';

const temp = mkdtempSync(join(tmpdir(), 'caplab-verify-total-'));
let run = '';
beforeAll(async () => {
  run = await demoRunDir(temp);
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const editLine = (dir: string, edit: (text: string) => string) => {
  const path = join(dir, 'ledger.jsonl');
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
};
const mapType = (type: string, edit: (event: Event) => Event) => (events: Event[]) => events.map((e) => (e.type === type ? edit(e) : e));
const fifo = (path: string) => {
  const made = Bun.spawnSync(['mkfifo', path]);
  if (made.exitCode !== 0) throw new Error('mkfifo failed');
};

const cases: [name: string, mutate: (dir: string) => void, kind: string][] = [
  ['a non-finite number (1e999) in a ledger line', (d) => editLine(d, (t) => t.replace('{"at"', '{"x":1e999,"at"')), 'not_canonical'],
  ['100,000 nested arrays in a ledger line', (d) => editLine(d, (t) => t.replace('{"at"', `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)},"at"`)), 'too_deep'],
  ['re-chained: acceptance checks null', (d) => rechain(d, mapType('acceptance', (e) => ({ ...e, checks: null }))), 'bad_event'],
  ['re-chained: acceptance checks short', (d) => rechain(d, mapType('acceptance', (e) => ({ ...e, checks: (e['checks'] as unknown[]).slice(0, 2) }))), 'acceptance_mismatch'],
  ['re-chained: receipt is a string', (d) => rechain(d, mapType('acceptance', (e) => ({ ...e, receipt: 'card' }))), 'bad_event'],
  ['re-chained: receipt of the wrong shape', (d) => rechain(d, mapType('acceptance', (e) => ({ ...e, receipt: { path: 7 } }))), 'bad_event'],
  ['re-chained: run_end dropped', (d) => rechain(d, (es) => es.filter((e) => e.type !== 'run_end')), 'missing_event'],
  ['re-chained: run_end contradicts the acceptance', (d) => rechain(d, mapType('run_end', (e) => ({ ...e, accepted: false, exit_code: 1 }))), 'inconsistent_end'],
  ['re-chained: run_end exit 0 for a run it says was not accepted', (d) => rechain(d, mapType('run_end', (e) => ({ ...e, ending: 'failed', accepted: false, cause: 'x' }))), 'inconsistent_end'],
  ['re-chained: a second acceptance', (d) => rechain(d, (es) => es.flatMap((e) => (e.type === 'acceptance' ? [e, { ...e }] : [e]))), 'duplicate_event'],
  ['re-chained: a second run_start', (d) => rechain(d, (es) => [es[0]!, ...es]), 'duplicate_event'],
  ['re-chained: run_end with an unknown ending', (d) => rechain(d, mapType('run_end', (e) => ({ ...e, ending: 'fine' }))), 'bad_event'],
  ['re-chained: a call whose arguments no response asked for', (d) => rechain(d, mapType('call', (e) => ({ ...e, arguments: { original: { source_id: 'beta' } } }))), 'arguments_mismatch'],
  ['an unknown record format', (d) => writeFileSync(join(d, 'ledger.head'), readFileSync(join(d, 'ledger.head'), 'utf8').replace(LEDGER_FORMAT, 'caplab.ledger/99')), 'unknown_format'],
  ['a seal over the size limit', (d) => writeFileSync(join(d, 'ledger.head'), 'x'.repeat(5000)), 'too_large'],
  ['a folder in place of the seal', (d) => (unlinkSync(join(d, 'ledger.head')), mkdirSync(join(d, 'ledger.head'))), 'unsealed'],
  ['a folder in place of the ledger', (d) => (unlinkSync(join(d, 'ledger.jsonl')), mkdirSync(join(d, 'ledger.jsonl'))), 'missing_ledger'],
  ['a dangling symlink in place of the ledger', (d) => (unlinkSync(join(d, 'ledger.jsonl')), symlinkSync('/nonexistent/ledger', join(d, 'ledger.jsonl'))), 'unexpected_entry'],
  ['a FIFO in place of the card', (d) => (unlinkSync(join(d, 'card/excerpt-card.md')), fifo(join(d, 'card/excerpt-card.md'))), 'unexpected_entry'],
  ['a folder in place of a response file', (d) => (unlinkSync(join(d, 'requests/01-response.json')), mkdirSync(join(d, 'requests/01-response.json'))), 'missing_file'],
];

describe('every finding yields a verdict, exit 1, one JSON document', () => {
  for (const [name, mutate, kind] of cases) {
    test(name, async () => {
      const dir = copyRun(run, temp);
      mutate(dir);
      const { code, doc } = await verifyJson(dir);
      expect([code, doc.verified, doc.error?.kind]).toEqual([1, false, kind]);
      const io = testIo('/');
      expect(await cli(['verify', dir], io)).toBe(1);
      expect(io.out()).toContain(`does not verify: evidence/${kind}`);
    });
  }
});

describe('an intact run verifies and says how it ended', () => {
  test('completed: names the record format and the ending, human and --json', async () => {
    const { code, doc } = await verifyJson(run);
    expect([code, doc['format'], doc['end']]).toEqual([0, LEDGER_FORMAT, { ending: 'completed', accepted: true, exitCode: 0 }]);
    const io = testIo('/');
    expect(await cli(['verify', run], io)).toBe(0);
    expect(io.out()).toContain(`format  ${LEDGER_FORMAT}`);
    expect(io.out()).toContain('ended   completed, accepted, exit 0');
  });

  for (const ending of ['interrupted', 'failed'] as const) {
    test(`${ending} before acceptance: exit 0, and the ending and cause are named`, async () => {
      const dir = copyRun(run, temp);
      rechain(dir, (events) => {
        const kept = events.filter((e) => e.type !== 'acceptance' && e.type !== 'run_end');
        // The card a tool left behind is vouched for by the run_end, as runTask records it.
        const card = events.find((e) => e.type === 'acceptance')!['files'];
        return [...kept, { type: 'run_end', at: events.at(-1)!['at'], accepted: false, exit_code: 1, ending, cause: `${ending} by test`, files: card, format: LEDGER_FORMAT }];
      });
      const io = testIo('/');
      expect(await cli(['verify', dir], io)).toBe(0);
      expect(io.out()).toContain(`ended   ${ending} (${ending} by test), not accepted, exit 1`);
      expect(io.out()).toContain('verdict none');
      const { doc } = await verifyJson(dir);
      expect(doc['end']).toEqual({ ending, accepted: false, exitCode: 1, cause: `${ending} by test` });
    });
  }
});

describe('--head HASH', () => {
  const headOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).head as string;

  test('the right head verifies; another head does not', async () => {
    expect((await verifyJson(run, '--head', headOf(run))).code).toBe(0);
    const other = await verifyJson(run, '--head', 'f'.repeat(64));
    expect([other.code, other.doc.error?.kind]).toEqual([1, 'head_mismatch']);
  });

  test('a fully re-forged, consistent record verifies alone and is caught only against the head kept elsewhere', async () => {
    const dir = copyRun(run, temp);
    const original = headOf(dir);
    rechain(dir, (events) => events.map((e) => (e.type === 'run_start' ? { ...e, at: '1999-12-31T23:59:59.000Z' } : e)));
    expect((await verifyJson(dir)).code).toBe(0);
    const caught = await verifyJson(dir, '--head', original);
    expect([caught.code, caught.doc.error?.kind]).toEqual([1, 'head_mismatch']);
  });

  test('a malformed head is a usage error (exit 2)', async () => {
    const io = testIo('/');
    expect(await cli(['verify', run, '--head', 'abc'], io)).toBe(2);
    expect(readEvents(run).at(-1)?.type).toBe('run_end');
  });
});
