/**
 * Any edited byte is detected and named (SPEC F-LEDGER, issue 7): walks every
 * file of a run dir and flips each byte in turn (XOR 0x01 keeps most bytes
 * printable, so many edits stay valid canonical JSON and must be caught by the
 * hashes; XOR 0xff at the ends also breaks UTF-8), restoring it afterwards.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';
import type { VerifyFailure } from './report.ts';
import { tempDir, writeSampleRun } from './testing/sample-run.ts';
import { verify } from './verify.ts';

const run = writeSampleRun(join(tempDir(), 'run'));
const files = (readdirSync(run.dir, { recursive: true, withFileTypes: true }) as Dirent[])
  .filter((entry) => entry.isFile())
  .map((entry) => relative(run.dir, join(entry.parentPath, entry.name)))
  .sort();

/** 1-based ledger line holding byte `position` (a line's `\n` belongs to it). */
function lineOf(bytes: Uint8Array, position: number): number {
  return bytes.subarray(0, position).filter((byte) => byte === 0x0a).length + 1;
}

/**
 * Whether the failure names the edit. A payload edit names the file; a seal
 * edit names the seal; a ledger edit names its own line — or, when the edited
 * line is still well-formed, the next line whose `prev` no longer matches (its
 * message names the edited line); for the last line, the seal mismatch names it.
 */
function namesEdit(file: string, line: number, failure: VerifyFailure): boolean {
  if (file !== 'ledger.jsonl') return failure.at.file === file;
  if (failure.at.line === line) return true;
  return failure.kind === 'chain_broken' && failure.at.line === line + 1 && failure.message.includes(`sha256 of line ${line} `);
}

function flipAndVerify(file: string, position: number, mask: number): VerifyFailure | undefined {
  const path = join(run.dir, file);
  const original = readFileSync(path);
  const edited = Buffer.from(original);
  edited[position] = edited[position]! ^ mask;
  writeFileSync(path, edited);
  try {
    const report = verify(run.dir);
    return report.ok ? undefined : report;
  } finally {
    writeFileSync(path, original);
  }
}

describe('every single-byte edit of every file is detected and named', () => {
  test('the walk covers the ledger, its seal, the card and every payload', () => {
    expect(files).toEqual([
      'card/excerpt-card.md',
      'ledger.head',
      'ledger.jsonl',
      'requests/001-request.json',
      'requests/001-response.json',
      'snapshot/alpha.md',
      'snapshot/beta.md',
    ]);
    expect(verify(run.dir).ok).toBe(true);
  });

  for (const file of files) {
    test(file, () => {
      const bytes = new Uint8Array(readFileSync(join(run.dir, file)));
      const edits = [...bytes.keys()].map((position) => ({ position, mask: 0x01 }));
      edits.push({ position: 0, mask: 0xff }, { position: bytes.length >> 1, mask: 0xff }, { position: bytes.length - 1, mask: 0xff });
      const missed: string[] = [];
      const kinds = new Set<string>();
      for (const { position, mask } of edits) {
        const failure = flipAndVerify(file, position, mask);
        const line = lineOf(bytes, position);
        if (failure) kinds.add(failure.kind);
        if (!failure) missed.push(`byte ${position} ^ ${mask}: verified`);
        else if (failure.class !== 'evidence' || failure.message === '' || !namesEdit(file, line, failure)) {
          missed.push(`byte ${position} ^ ${mask} (line ${line}): ${failure.kind} at ${JSON.stringify(failure.at)}`);
        }
      }
      expect(missed).toEqual([]);
      // The ledger walk must reach the edits only the hashes can catch, not just parse errors.
      if (file === 'ledger.jsonl') {
        expect([...kinds].sort()).toEqual(expect.arrayContaining(['chain_broken', 'not_canonical', 'seal_mismatch', 'seq_broken']));
      }
      expect(verify(run.dir).ok).toBe(true);
    });
  }
});
