import { join, resolve } from 'node:path';
import { fail, LIMITS, ok, sha256Hex, type Outcome } from '../contract/index.ts';
import type { Event } from './events.ts';
import { GENESIS, LEDGER_FORMAT_2, type RecordFormat } from './format.ts';
import { defaultFs, errorCode, type RunDirFs } from './fs.ts';
import { checkEnd, checkOrder } from './lifecycle.ts';
import { checkFormatUsed, parseEvents } from './parse-events.ts';
import { readRecorded } from './read-recorded.ts';
import type { RecordedEvent } from './read-ledger.ts';
import { readSealed } from './read-events.ts';
import { LEDGER_FILE, RESERVED_FILES, SEAL_FILE } from './rel-path.ts';
import { walkRunDir } from './walk.ts';
import { failAt, locate, type VerifyFailure, type VerifyLocation, type VerifyOutcome } from './report.ts';

/** Reads a recorded file's verified bytes (only files some event references). */
export type ReadRecorded = (relPath: string) => Outcome<Uint8Array>;

/**
 * Re-runs checks that need the meaning of events (the acceptance checks), from
 * the recorded bytes alone. It runs only after the chain, the seal, every
 * file hash and every event's shape are verified: `events` are parsed with
 * their format's schemas (events.ts), and `readFile` serves exactly the bytes
 * that were hashed. A failure may carry `at` to name the event or file it concerns.
 */
export type Recheck<R> = (events: readonly Event[], readFile: ReadRecorded, record: RecordInfo) => Outcome<R> | VerifyFailure;

/** What the verified envelope says of the record as a whole, for a recheck. */
export interface RecordInfo {
  /** The format the seal names (one of `KNOWN_FORMATS`), the one every event was parsed in. */
  readonly format: RecordFormat;
}

export interface VerifyOptions<R> {
  readonly recheck?: Recheck<R>;
  /** A head hash known from elsewhere (printed by the run, kept by CI); anchors the whole record. */
  readonly expectedHead?: string;
  readonly fs?: RunDirFs;
}

/**
 * Verifies a run dir offline, from its bytes alone, and names the first event
 * or file that fails. Total: every input gives a report or a failure, never a
 * throw (given a recheck that is total too). Checks run in this order, so
 * "first" is well defined:
 * 1. the run dir itself is a folder, not a symlink to one (lstat), and no
 *    entry in it is other than folders and regular files (a symlink could point out);
 * 2. the seal is present, canonical and of a format this verifier knows — an
 *    unsealed run did not finish (or was cut short), whatever its lines say;
 * 3. every ledger line, top to bottom: canonical, `seq` 0,1,2,…, `prev` the
 *    sha256 of the line before, envelope and `files` well-formed — the whole
 *    chain before any file, since a reference is only as good as its line;
 * 4. every referenced file, in line order: present, recorded size and sha256;
 * 5. the seal against the last line, then `expectedHead` if given;
 * 6. no file that no event references; 7. the lifecycle's order (`checkOrder`:
 *    one run_start, first; at most one acceptance; one run_end, last), and
 *    the seal's format the one run_end names (absent: `LEDGER_FORMAT_2`, the base format);
 * 8. every event against its type's schema in that format (`parseEvents`;
 *    another known format's shape is `format_mismatch`), a format above the
 *    base one only with a shape it added (`checkFormatUsed`), and a run_end
 *    consistent with the acceptance (`checkEnd`);
 * 9. the recheck hook, given the parsed events.
 * Every file is read bounded (`LIMITS.record*`), regular files only.
 *
 * @example
 * const report = verify(runDir, { recheck: recheckAcceptance(task) }); // the harness's recheck of a task
 * console.log(renderVerifyText(report));
 */
export function verify<R = never>(dir: string, options: VerifyOptions<R> = {}): VerifyOutcome<R> {
  const fs = options.fs ?? defaultFs;
  const root = resolve(dir);
  const tree = listFiles(fs, root);
  if (!Array.isArray(tree)) return tree;
  const present = new Set(tree);
  if (!present.has(LEDGER_FILE)) return failAt('missing_ledger', `${root} has no ${LEDGER_FILE}`, { file: LEDGER_FILE });
  if (!present.has(SEAL_FILE)) {
    return failAt(
      'unsealed',
      `${SEAL_FILE} is missing: the run did not finish (a write failed or the process died before it could record its end) or the seal was removed, so its last event cannot be trusted`,
      { file: SEAL_FILE },
    );
  }
  const sealed = readSealed(fs, root);
  if (!sealed.ok) return sealed;
  const seal = sealed.value.seal;
  const recorded = sealed.value.lines;
  const verified = new Map<string, Uint8Array>();
  for (const entry of recorded) {
    const broken = checkFiles(fs, root, entry, present, verified);
    if (broken) return broken;
  }

  const last = recorded[recorded.length - 1];
  const head = last?.hash ?? GENESIS;
  const lastAt: VerifyLocation = last ? { file: LEDGER_FILE, line: last.line, seq: last.event.seq, type: last.event.type } : { file: LEDGER_FILE };
  if (seal.count !== recorded.length || seal.head !== head) {
    const lastName = last ? `line ${last.line} (seq ${last.event.seq}, ${last.event.type})` : 'no line';
    return failAt(
      'seal_mismatch',
      `${SEAL_FILE} records ${seal.count} events ending in ${seal.head}; ${LEDGER_FILE} has ${recorded.length} ending in ${head} — its last line, ${lastName}, or the seal was altered, or lines were removed`,
      { ...lastAt, file: SEAL_FILE },
    );
  }
  if (options.expectedHead !== undefined && options.expectedHead !== head) {
    return failAt('head_mismatch', `the ledger ends in ${head}, not the expected head ${options.expectedHead}`, lastAt);
  }

  const stray = tree.find((path) => !verified.has(path) && !RESERVED_FILES.includes(path));
  if (stray !== undefined) {
    return failAt('unreferenced_file', `${stray} is in the run dir but no event references it`, { file: stray });
  }
  const order = checkOrder(recorded);
  if (order) return order;
  const named = last?.event['format'] ?? LEDGER_FORMAT_2;
  if (named !== seal.format) {
    return failAt('format_mismatch', `${SEAL_FILE} names format ${seal.format}, the run's end names ${JSON.stringify(named)}`, { ...lastAt, file: SEAL_FILE });
  }
  const events = parseEvents(recorded, seal.format);
  if (!events.ok) return events;
  const unused = checkFormatUsed(events.value, seal.format);
  if (unused) return unused;
  const end = checkEnd(events.value);
  if (!end.ok) return end;

  const types: Record<string, number> = {};
  for (const { event } of [...recorded].sort((a, b) => (a.event.type < b.event.type ? -1 : 1))) {
    types[event.type] = (types[event.type] ?? 0) + 1;
  }
  const base = { dir: root, format: seal.format, head, events: recorded.length, files: verified.size, types, end: end.value };
  if (!options.recheck) return ok({ ...base, rechecked: false });
  const readFile: ReadRecorded = (path) => {
    const bytes = verified.get(path);
    return bytes ? ok(bytes) : fail('evidence', 'missing_file', `${path} is not a file any event references`);
  };
  const rechecked = options.recheck(events.value, readFile, { format: seal.format });
  if (!rechecked.ok) return 'at' in rechecked ? rechecked : locate(rechecked, { file: LEDGER_FILE });
  return ok({ ...base, rechecked: true, recheck: rechecked.value });
}

/** Checks one event's file references against the run dir, caching the verified bytes. */
function checkFiles(
  fs: RunDirFs,
  root: string,
  entry: RecordedEvent,
  present: ReadonlySet<string>,
  verified: Map<string, Uint8Array>,
): VerifyFailure | undefined {
  const { line, event } = entry;
  for (const ref of entry.files) {
    const at = { file: ref.path, line, seq: event.seq, type: event.type };
    const by = `line ${line} (seq ${event.seq}, ${event.type})`;
    if (!present.has(ref.path)) return failAt('missing_file', `${ref.path}, referenced by ${by}, is not in the run dir`, at);
    let bytes = verified.get(ref.path);
    if (!bytes) {
      const read = readRecorded(fs, join(root, ref.path), ref.path, LIMITS.recordFileBytes);
      if (!read.ok) return locate({ ...read, message: `${read.message} (referenced by ${by})` }, at);
      bytes = read.value;
    }
    const sha256 = sha256Hex(bytes);
    if (bytes.byteLength !== ref.bytes || sha256 !== ref.sha256) {
      return failAt(
        'hash_mismatch',
        `${ref.path} is ${bytes.byteLength} bytes with sha256 ${sha256}; ${by} recorded ${ref.bytes} bytes with ${ref.sha256}`,
        at,
      );
    }
    verified.set(ref.path, bytes);
  }
  return undefined;
}

/**
 * Refuses a run dir that is itself a symlink: verify follows none, and a link
 * could lead to any folder at all. A root it cannot examine is left to the
 * listing, which names why (`missing_ledger`).
 */
function rootLink(fs: RunDirFs, root: string): VerifyFailure | undefined {
  let stat: ReturnType<RunDirFs['lstatSync']>;
  try {
    stat = fs.lstatSync(root);
  } catch {
    return undefined;
  }
  if (!stat?.isSymbolicLink()) return undefined;
  return failAt('unexpected_entry', `${root} is a symbolic link; verify follows none, the run dir itself included`, { file: '.' });
}

/**
 * Lists the regular files under `root` as sorted `/`-paths. Anything that is
 * neither a folder nor a regular file (a symlink could point outside the run,
 * a FIFO could block a reader) fails verification.
 */
function listFiles(fs: RunDirFs, root: string): string[] | VerifyFailure {
  const linked = rootLink(fs, root);
  if (linked) return linked;
  const files: string[] = [];
  for (const step of walkRunDir(fs, root)) {
    if (step.kind === 'unlistable') {
      const why = errorCode(step.error) === 'ENOENT' ? 'does not exist' : `cannot be listed: ${String(step.error)}`;
      return failAt('missing_ledger', `${join(root, step.path)} ${why}`, { file: step.path === '' ? LEDGER_FILE : step.path });
    }
    if (step.kind === 'unstatable') return failAt('unreadable', `${step.path} cannot be examined: ${String(step.error)}`, { file: step.path });
    if (files.length + step.pendingDirs >= LIMITS.recordEntries) {
      return failAt('too_large', `the run dir holds more than ${LIMITS.recordEntries} entries`, { file: step.path });
    }
    if (step.stat.isFile()) files.push(step.path);
    else if (!step.stat.isDirectory()) return failAt('unexpected_entry', `${step.path} is neither a regular file nor a folder`, { file: step.path });
  }
  return files.sort();
}
