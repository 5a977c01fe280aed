/**
 * `probe --pins FILE [--update-pins] [--name NAME]`: the pin file read (and,
 * to be updated, checked as a report file) before anything starts; each
 * probed server's listing compared with its entry; the file written once, at
 * the end, temp + rename — and not at all for a server whose listing is
 * incomplete or whose session ended early.
 */
import { resolve } from 'node:path';
import { ok, type Failure, type Outcome } from '../contract/index.ts';
import { comparePins, pinEntry, pinsText, readPins, type PinEntry, type PinFile, type ProbeFinding, type ProbeReport } from '../mcp/index.ts';
import { checkReportFile, reportTarget, writeReport } from './report-file.ts';

/** What `--pins` will do, decided before any server starts. */
export interface PinsPlan {
  readonly path: string;
  readonly update: boolean;
  readonly file: PinFile;
}

/** The pins part of a report (`--json` `pins`). */
export interface PinsSection {
  readonly file: string;
  readonly name: string;
  readonly mode: 'compare' | 'update';
  /** Whether the file held an entry for this server. */
  readonly pinned: boolean;
  /** `--update-pins`: whether this server's entry goes into the file, and if not why. */
  readonly recorded?: boolean;
  readonly why?: string;
  /** `--update-pins`: what the comparison found, accepted into the file (not findings). */
  readonly accepted?: readonly ProbeFinding[];
  /** Tools holding a number JSON cannot carry: not pinned, not compared. */
  readonly unpinnable?: readonly string[];
}

/** Reads (and, for an update, checks the place of) the pin file; a failure is a usage error. */
export function planPins(file: string | undefined, update: boolean, cwd: string): Outcome<PinsPlan | undefined> {
  if (file === undefined) return ok(undefined);
  const path = resolve(cwd, file);
  const read = readPins(path, update);
  if (!read.ok) return read;
  const place = update ? checkReportFile(path, '--pins', undefined) : undefined;
  if (place) return place;
  return ok({ path, update, file: read.value });
}

/** Why a report's listing cannot be pinned, if it cannot. */
function unrecordable(report: ProbeReport): string | undefined {
  if (report.failure) return `the session ended early (${report.failure.class}/${report.failure.kind})`;
  if (!report.complete) return 'the listing is incomplete';
  if (!report.wire) return 'no listing';
  return undefined;
}

/**
 * One server's report against its pins: the report with the pin findings
 * (compare) or their record (update), the section, and the entry to write.
 */
export function applyPins(report: ProbeReport, name: string, plan: PinsPlan): { readonly report: ProbeReport & { readonly pins: PinsSection }; readonly update?: PinEntry } {
  const pinned = plan.file.entries.get(name);
  const base = { file: plan.path, name, mode: plan.update ? 'update' : 'compare', pinned: pinned !== undefined } as const;
  if (!report.wire) return { report: { ...report, pins: { ...base, ...(plan.update ? { recorded: false, why: unrecordable(report) ?? 'no listing' } : {}) } } };
  const { entries, ...server } = report.wire;
  const { entry, unpinnable } = pinEntry(server, entries);
  const found = comparePins(pinned, entry, report.complete, unpinnable);
  const extra = unpinnable.length > 0 ? { unpinnable } : {};
  if (!plan.update) return { report: { ...report, findings: [...report.findings, ...found], pins: { ...base, ...extra } } };
  const why = unrecordable(report) ?? (unpinnable.includes('server') ? 'the server sent a number JSON cannot carry' : undefined);
  const section: PinsSection = { ...base, ...extra, recorded: why === undefined, ...(why ? { why } : {}), accepted: found };
  return { report: { ...report, pins: section }, ...(why === undefined ? { update: entry } : {}) };
}

/** Writes the updated entries into the pin file (others kept byte for byte), temp + rename; a failure names why. */
export function writePins(plan: PinsPlan, updates: ReadonlyMap<string, PinEntry>): Failure | string | undefined {
  if (updates.size === 0) return 'no server\'s entry could be recorded: the pin file was not written';
  const text = pinsText(plan.file, updates);
  if ('why' in text) return `the pin file was not written: ${text.why}`;
  return writeReport(reportTarget(plan.path), text.text);
}
