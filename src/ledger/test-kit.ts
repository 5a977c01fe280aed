/**
 * Test kit for forging run dirs: rewrites `ledger.jsonl` from edited events
 * and re-chains it — `seq`, `prev`, every file reference re-hashed from disk,
 * and the seal — so a forgery must be caught by what the events mean, not by
 * the hash chain. Test code only; shipped code never imports it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../contract/index.ts';
import { encodeSeal, GENESIS, LEDGER_FORMAT, type FileRef } from './format.ts';
import { LEDGER_FILE, SEAL_FILE } from './rel-path.ts';

/** A ledger event as plain, editable data. */
export type EditableEvent = Record<string, unknown>;

/** Reads the events of a run dir's ledger. */
export function readEvents(dir: string): EditableEvent[] {
  return readFileSync(join(dir, LEDGER_FILE), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as EditableEvent);
}

/** Rewrites the ledger from `edit(events)` with a valid chain and seal over the files as they are now. */
export function rechain(dir: string, edit: (events: EditableEvent[]) => EditableEvent[] = (events) => events): void {
  let prev = GENESIS;
  const lines: string[] = [];
  for (const [seq, event] of edit(readEvents(dir)).entries()) {
    const files = (event['files'] as FileRef[] | undefined)?.map((ref) => {
      const bytes = readFileSync(join(dir, ref.path));
      return { ...ref, sha256: sha256Hex(bytes), bytes: bytes.byteLength };
    });
    const line = canonicalJson({ ...event, seq, prev, ...(files ? { files } : {}) });
    lines.push(`${line}\n`);
    prev = sha256Hex(line);
  }
  writeFileSync(join(dir, LEDGER_FILE), lines.join(''));
  writeFileSync(join(dir, SEAL_FILE), encodeSeal({ count: lines.length, format: LEDGER_FORMAT, head: prev }));
}
