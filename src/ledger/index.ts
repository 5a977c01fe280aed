/**
 * The run record (SPEC F-LEDGER): a run dir of write-once files and a
 * hash-chained `ledger.jsonl` that vouches for them, sealed on close, and the
 * offline verifier that re-checks all of it. A side rail: it depends only on
 * `contract` (and `base`, beneath everything). The format and the file-reference rule are documented in `format.ts`;
 * each event's schema, shared by the writer and every reader, in `events.ts`.
 */
export { clockFromEnv, fixedClock, systemClock } from './clock.ts';
export type { Clock } from './clock.ts';
export { EVENT_TYPE, GENESIS, isFormatFrom, isKnownFormat, KNOWN_FORMATS, LEDGER_FORMAT, LEDGER_FORMAT_2, LEDGER_FORMAT_3, LEDGER_FORMAT_4, LEDGER_FORMAT_5, LEDGER_FORMAT_6, LEDGER_FORMAT_7, LEDGER_FORMAT_8, LEDGER_FORMAT_9, LEDGER_FORMAT_10, LEDGER_FORMAT_11, LEDGER_FORMAT_12 } from './format.ts';
export type { FileRef, LedgerEvent, RecordFormat, Seal } from './format.ts';
export { ENDINGS, EVENT_SCHEMAS, EVENT_TYPES, eventTypesOf, ledgerKeys } from './events.ts';
export { STAGES } from './event-parts.ts';
export type { CallEvent, Ending, Event, EventInput, EventType, FormatSchemas, TaskFieldsEvent } from './events.ts';
export type { Frozen } from './frozen.ts';
export { readRecordEvents } from './read-events.ts';
export { defaultFs } from './fs.ts';
export type { RunDirFs } from './fs.ts';
export { LEDGER_FILE, SEAL_FILE } from './rel-path.ts';
export { readRecorded } from './read-recorded.ts';
export type { RunEnd } from './lifecycle.ts';
export { openRunDir, RECORD_LIMITS, RunDir } from './run-dir.ts';
export type { OpenRunDirOptions, RecordLimits } from './run-dir.ts';
export { writeFresh } from './write-fresh.ts';
export type { WrittenFile } from './write-fresh.ts';
export { verify } from './verify.ts';
export type { ReadRecorded, Recheck, RecordInfo, VerifyOptions } from './verify.ts';
export type { VerifyFailure, VerifyLocation, VerifyOutcome, VerifyReport } from './report.ts';
export { failAt } from './report.ts';
export { renderVerifyText } from './render.ts';
export { LEDGER_KINDS } from './kinds.ts';
