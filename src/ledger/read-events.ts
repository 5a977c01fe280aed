import { join, resolve } from 'node:path';
import { LIMITS, type Success } from '../contract/index.ts';
import type { Event } from './events.ts';
import { parseSeal, type Seal } from './format.ts';
import { defaultFs, type RunDirFs } from './fs.ts';
import { parseEvents } from './parse-events.ts';
import { readLedger, type RecordedEvent } from './read-ledger.ts';
import { readRecorded } from './read-recorded.ts';
import { LEDGER_FILE, SEAL_FILE } from './rel-path.ts';
import { locate, type VerifyFailure } from './report.ts';

/**
 * The events of a sealed run dir, each parsed with its type's schema in the
 * format its seal names, for a reader of a record (`check`'s effects) that
 * needs what the events say and not a verdict on the record: it checks the
 * lines, the seal's format and the shapes, not the files, the chain's end or
 * the lifecycle (`verify` does all of that).
 */
export function readRecordEvents(dir: string, fs: RunDirFs = defaultFs): Success<readonly Event[]> | VerifyFailure {
  const sealed = readSealed(fs, resolve(dir));
  return sealed.ok ? parseEvents(sealed.value.lines, sealed.value.seal.format) : sealed;
}

/** A run dir's seal and ledger lines, each read bounded (`LIMITS.record*`) and parsed, or where either is not what it must be. */
export function readSealed(fs: RunDirFs, root: string): Success<{ readonly seal: Seal; readonly lines: readonly RecordedEvent[] }> | VerifyFailure {
  const sealBytes = readRecorded(fs, join(root, SEAL_FILE), SEAL_FILE, LIMITS.recordSealBytes);
  if (!sealBytes.ok) return locate(sealBytes, { file: SEAL_FILE });
  const seal = parseSeal(new TextDecoder().decode(sealBytes.value));
  if (!seal.ok) return locate(seal, { file: SEAL_FILE });
  const ledgerBytes = readRecorded(fs, join(root, LEDGER_FILE), LEDGER_FILE, LIMITS.recordFileBytes);
  if (!ledgerBytes.ok) return locate(ledgerBytes, { file: LEDGER_FILE });
  const read = readLedger(ledgerBytes.value);
  if (!read.ok) return read as VerifyFailure;
  return { ok: true, value: { seal: seal.value, lines: read.value } };
}
