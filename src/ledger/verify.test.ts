import { describe, expect, test } from 'bun:test';
import { readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, fail, ok, sha256Hex, type FailureKind } from '../contract/index.ts';
import { encodeSeal, GENESIS, LEDGER_FORMAT } from './format.ts';
import { renderVerifyText } from './render.ts';
import { tempDir, writeSampleRun } from './testing/sample-run.ts';
import { verify } from './verify.ts';

function sample(): string {
  return writeSampleRun(join(tempDir(), 'run')).dir;
}

function ledgerLines(dir: string): string[] {
  return readFileSync(join(dir, 'ledger.jsonl'), 'utf8').split('\n').slice(0, -1);
}

/**
 * Rewrites the ledger from edited events the way a careful forger would:
 * canonical lines, seq and prev recomputed, a fresh seal. Returns the new head.
 */
function forge(dir: string, edit: (events: Record<string, unknown>[]) => Record<string, unknown>[]): string {
  let prev = GENESIS;
  const lines = edit(ledgerLines(dir).map((line) => JSON.parse(line))).map((event, seq) => {
    const line = canonicalJson({ ...event, seq, prev });
    prev = sha256Hex(line);
    return line;
  });
  writeFileSync(join(dir, 'ledger.jsonl'), lines.map((line) => `${line}\n`).join(''));
  writeFileSync(join(dir, 'ledger.head'), encodeSeal({ count: lines.length, format: LEDGER_FORMAT, head: prev }));
  return prev;
}

function expectFailure(dir: string, kind: FailureKind, at: Record<string, unknown>): void {
  const report = verify(dir);
  expect(report.ok).toBe(false);
  if (report.ok) return;
  expect(report.class).toBe('evidence');
  expect(report.kind).toBe(kind);
  expect(report.at).toMatchObject(at);
  expect(renderVerifyText(report)).toContain(`✗ run record does not verify: evidence/${kind}`);
}

describe('verify an untouched run dir', () => {
  test('passes and reports the head hash and counts', () => {
    const run = writeSampleRun(join(tempDir(), 'run'));
    const report = verify(run.dir);
    if (!report.ok) throw new Error(renderVerifyText(report));
    expect(report.value).toEqual({
      dir: run.dir,
      format: LEDGER_FORMAT,
      head: run.head,
      events: 5,
      files: 5,
      types: { acceptance: 1, request: 1, response: 1, run_end: 1, run_start: 1 },
      end: { ending: 'completed', accepted: true, exitCode: 0 },
      rechecked: false,
    });
    expect(run.seal.head).toBe(run.head);
    const text = renderVerifyText(report);
    expect(text).toContain(`head    ${run.head}`);
    expect(text).toContain('acceptance not re-checked');
    expect(verify(run.dir, { expectedHead: run.head }).ok).toBe(true);
  });

  test('an empty, sealed ledger does not verify: a run starts with run_start', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ledger.jsonl'), '');
    writeFileSync(join(dir, 'ledger.head'), encodeSeal({ count: 0, format: LEDGER_FORMAT, head: GENESIS }));
    expectFailure(dir, 'missing_event', { file: 'ledger.jsonl' });
  });
});

describe('the recheck hook', () => {
  test('sees the parsed events and exactly the verified bytes of referenced files', () => {
    const dir = sample();
    const report = verify(dir, {
      recheck: (events, readFile) => {
        const card = readFile('card/excerpt-card.md');
        const unreferenced = readFile('ledger.jsonl');
        return ok({
          types: events.map((e) => e.type),
          card: card.ok ? new TextDecoder().decode(card.value) : card.kind,
          unreferenced: unreferenced.ok ? 'served' : unreferenced.kind,
        });
      },
    });
    if (!report.ok) throw new Error(renderVerifyText(report));
    expect(report.value.rechecked).toBe(true);
    expect(report.value.recheck).toEqual({
      types: ['run_start', 'request', 'response', 'acceptance', 'run_end'],
      card: '# Excerpt card\n\n> 漢字と仮名\n',
      unreferenced: 'missing_file',
    });
    expect(renderVerifyText(report)).toContain('acceptance re-checked');
  });

  test('its failure fails verification, at the place it names or else at the ledger', () => {
    const dir = sample();
    const named = verify(dir, { recheck: () => ({ ...fail('evidence', 'receipt_mismatch', 'quote 1 is not in alpha'), at: { file: 'card/excerpt-card.md', seq: 3, type: 'acceptance' } }) });
    expect(!named.ok && [named.kind, named.at]).toEqual(['receipt_mismatch', { file: 'card/excerpt-card.md', seq: 3, type: 'acceptance' }]);
    const plain = verify(dir, { recheck: () => fail('evidence', 'card_mismatch', 'card layout differs') });
    expect(!plain.ok && [plain.kind, plain.at]).toEqual(['card_mismatch', { file: 'ledger.jsonl' }]);
  });

  test('does not run when the bytes do not verify', () => {
    const dir = sample();
    writeFileSync(join(dir, 'card', 'excerpt-card.md'), 'forged');
    let ran = false;
    const report = verify(dir, { recheck: () => ((ran = true), ok(null)) });
    expect(!report.ok && report.kind).toBe('hash_mismatch');
    expect(ran).toBe(false);
  });
});

describe('verify names the first thing that fails', () => {
  test('a deleted middle line breaks the sequence at that line', () => {
    const dir = sample();
    const lines = ledgerLines(dir);
    lines.splice(2, 1);
    writeFileSync(join(dir, 'ledger.jsonl'), lines.map((l) => `${l}\n`).join(''));
    expectFailure(dir, 'seq_broken', { file: 'ledger.jsonl', line: 3, seq: 3, type: 'acceptance' });
  });

  test('a deleted last line (or a truncation at a line end) no longer matches the seal', () => {
    const dir = sample();
    writeFileSync(join(dir, 'ledger.jsonl'), ledgerLines(dir).slice(0, -1).map((l) => `${l}\n`).join(''));
    expectFailure(dir, 'seal_mismatch', { file: 'ledger.head', line: 4, seq: 3, type: 'acceptance' });
  });

  test('reordered lines break the sequence at the first moved line', () => {
    const dir = sample();
    const lines = ledgerLines(dir);
    [lines[1], lines[2]] = [lines[2]!, lines[1]!];
    writeFileSync(join(dir, 'ledger.jsonl'), lines.map((l) => `${l}\n`).join(''));
    expectFailure(dir, 'seq_broken', { file: 'ledger.jsonl', line: 2, seq: 2, type: 'response' });
  });

  test('a ledger truncated mid-line fails at the partial line', () => {
    const dir = sample();
    const bytes = readFileSync(join(dir, 'ledger.jsonl'));
    writeFileSync(join(dir, 'ledger.jsonl'), bytes.subarray(0, bytes.length - 10));
    expectFailure(dir, 'not_canonical', { file: 'ledger.jsonl', line: 5 });
  });

  test('a truncated payload file is named with the event that vouches for it', () => {
    const dir = sample();
    const path = join(dir, 'requests', '001-request.json');
    writeFileSync(path, readFileSync(path).subarray(0, 10));
    expectFailure(dir, 'hash_mismatch', { file: 'requests/001-request.json', line: 2, seq: 1, type: 'request' });
  });

  test('a missing referenced file', () => {
    const dir = sample();
    unlinkSync(join(dir, 'snapshot', 'beta.md'));
    expectFailure(dir, 'missing_file', { file: 'snapshot/beta.md', line: 1, seq: 0, type: 'run_start' });
  });

  test('a missing seal: the run did not finish', () => {
    const dir = sample();
    unlinkSync(join(dir, 'ledger.head'));
    expectFailure(dir, 'unsealed', { file: 'ledger.head' });
  });

  test('an equivalent but re-formatted line is not canonical', () => {
    const dir = sample();
    const lines = ledgerLines(dir);
    lines[1] = JSON.stringify(JSON.parse(lines[1]!), null, 0).replace('{', '{ ');
    writeFileSync(join(dir, 'ledger.jsonl'), lines.map((l) => `${l}\n`).join(''));
    expectFailure(dir, 'not_canonical', { file: 'ledger.jsonl', line: 2, seq: 1, type: 'request' });
  });

  test('an extra file, or a leftover temp, is unreferenced', () => {
    for (const name of ['notes.txt', 'card/.excerpt-card.md.w3.tmp']) {
      const dir = sample();
      writeFileSync(join(dir, name), 'x');
      expectFailure(dir, 'unreferenced_file', { file: name });
    }
  });

  test('a symlink is refused, even one that points at a recorded file', () => {
    const dir = sample();
    symlinkSync(join(dir, 'snapshot', 'alpha.md'), join(dir, 'alpha-link.md'));
    expectFailure(dir, 'unexpected_entry', { file: 'alpha-link.md' });
  });

  test('a run dir that is itself a symlink is refused, not followed, however it is named', () => {
    const dir = sample();
    const link = join(tempDir(), 'linked-run');
    symlinkSync(dir, link);
    for (const name of [link, `${link}/`]) {
      const report = verify(name);
      expect(report.ok ? 'verifies' : [report.class, report.kind, report.at, report.message]).toEqual(['evidence', 'unexpected_entry', { file: '.' }, `${link} is a symbolic link; verify follows none, the run dir itself included`]);
    }
    // The folder it leads to verifies when named itself.
    expect(verify(dir).ok).toBe(true);
  });

  test('a reference that escapes the run dir is refused, even in a re-chained ledger', () => {
    const dir = sample();
    forge(dir, (events) => {
      events[1]!['files'] = [{ role: 'request_payload', path: '../outside.json', sha256: GENESIS, bytes: 0 }];
      return events;
    });
    expectFailure(dir, 'bad_reference', { file: 'ledger.jsonl', line: 2, seq: 1, type: 'request' });
  });

  test('a fully re-chained forgery is caught only by an external head (the printed one)', () => {
    const run = writeSampleRun(join(tempDir(), 'run'));
    const forged = forge(run.dir, (events) => {
      events[0]!['at'] = '1999-12-31T23:59:59.000Z';
      return events;
    });
    expect(verify(run.dir).ok).toBe(true);
    const report = verify(run.dir, { expectedHead: run.head });
    expect(!report.ok && [report.kind, report.at]).toEqual(['head_mismatch', { file: 'ledger.jsonl', line: 5, seq: 4, type: 'run_end' }]);
    expect(!report.ok && report.message).toContain(forged);
  });

  test('a dir that does not exist', () => {
    expectFailure(join(tempDir(), 'nope'), 'missing_ledger', { file: 'ledger.jsonl' });
  });
});
