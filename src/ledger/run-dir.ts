import { dirname, join, resolve } from 'node:path';
import { canonicalJson, fail, jsonTooDeep, LIMITS, ok, sha256Hex, type Failure, type Outcome } from '../contract/index.ts';
import { isoAt, type Clock } from './clock.ts';
import type { EventInput, EventType } from './events.ts';
import { ENVELOPE_KEYS, EVENT_TYPE, encodeSeal, fileRefsOf, GENESIS, isKnownFormat, LEDGER_FORMAT, LEDGER_FORMAT_2, type FileRef, type RecordFormat, type Seal } from './format.ts';
import { assertWritable } from './parse-events.ts';
import { Durability } from './durability.ts';
import { defaultFs, errorCode, writeAll, type RunDirFs } from './fs.ts';
import { LEDGER_FILE, RESERVED_FILES, resolveInside, SEAL_FILE } from './rel-path.ts';
import { walkRunDir } from './walk.ts';
import { writeFresh, type WrittenFile } from './write-fresh.ts';

export interface OpenRunDirOptions {
  /** Source of every event's `at`; see `clockFromEnv`. */
  readonly clock: Clock;
  readonly fs?: RunDirFs;
  /** fsync every line and file as it is written (`--durable`); default: once, before the seal (see durability.ts). */
  readonly durable?: boolean;
  /** The bounds `verify` reads a record within (default: `LIMITS.record*`); a test injects small ones. */
  readonly limits?: Partial<RecordLimits>;
  /**
   * The format the record names (default: `LEDGER_FORMAT`, which every run
   * names); an older known one only to write a record of that format, which
   * every line is then checked against (a test of what stays readable).
   */
  readonly format?: RecordFormat;
}

/**
 * What a run may write so that its own `verify` still reads it: no file over
 * `fileBytes`, at most `entries` files and folders, no ledger line or `.json`
 * file nested deeper than `jsonDepth`. The ledger keeps `endReserveBytes` and
 * `endReserveEntries` back for the run's end (`run_end`, a card a tool writes
 * itself), so a run refused at a limit can still record how it ended.
 */
export interface RecordLimits {
  readonly fileBytes: number;
  readonly entries: number;
  readonly jsonDepth: number;
  readonly endReserveBytes: number;
  readonly endReserveEntries: number;
}

/** The limits a run writes within by default: `verify`'s own. */
export const RECORD_LIMITS: RecordLimits = {
  fileBytes: LIMITS.recordFileBytes,
  entries: LIMITS.recordEntries,
  jsonDepth: LIMITS.recordJsonDepth,
  endReserveBytes: 64 * 1024,
  endReserveEntries: 16,
};

/** The event that ends a run: the one append allowed into the reserve. */
const END_EVENT: EventType = 'run_end';

const encoder = new TextEncoder();

/** Errors of `mkdir`/`open` that say the path itself cannot hold a run dir. */
const PATH_ERRORS: readonly string[] = ['EROFS', 'EACCES', 'EPERM', 'ENAMETOOLONG', 'ENOTDIR', 'ELOOP'];

/**
 * An open run dir: files written once each, and `ledger.jsonl` appended one
 * whole line per write(2), so a crash leaves a verifiable prefix (unsealed)
 * and never a partial line that verify accepts (a line counts only with its
 * newline, and is hash-chained to the next). A sealed run dir is on disk
 * (`durable`: each line and file as written; else all of it before the seal).
 * Lifecycle: `openRunDir` → `writeFile` / `append` … → `close` (writes the seal).
 *
 * Misuse by the program (appending after close, an event that is not its
 * type's schema in the run's format, values JSON cannot hold) throws; conditions of the world (a taken dir, a failed write, a
 * file that no longer matches) come back as failure values.
 */
export class RunDir {
  /** Absolute path of the run dir. */
  readonly dir: string;
  readonly #fs: RunDirFs;
  readonly #clock: Clock;
  readonly #durability: Durability;
  readonly #written = new Map<string, WrittenFile>();
  readonly #referenced = new Set<string>();
  #fd: number | undefined;
  #seq = 0;
  #head = GENESIS;
  #temps = 0;
  #broken: Failure | undefined;
  #closed: Outcome<Seal> | undefined;
  #format: RecordFormat;
  readonly #limits: RecordLimits;
  #ledgerBytes = 0;
  /** Folders made under the run dir, and the count of its entries: the ledger and its seal to start with. */
  readonly #folders = new Set<string>();
  #entries = 2;

  private constructor(dir: string, fd: number, fs: RunDirFs, clock: Clock, durability: Durability, limits: RecordLimits, format: RecordFormat) {
    this.dir = dir;
    this.#format = format;
    this.#fd = fd;
    this.#fs = fs;
    this.#clock = clock;
    this.#durability = durability;
    this.#limits = limits;
  }

  /** See `openRunDir`. */
  static open(dir: string, options: OpenRunDirOptions): Outcome<RunDir> {
    const fs = options.fs ?? defaultFs;
    const format = options.format ?? LEDGER_FORMAT;
    if (!isKnownFormat(format)) throw new TypeError(`ledger: unknown record format ${JSON.stringify(format)}`);
    const root = resolve(dir);
    const taken = fail('precondition', 'target_exists', `${root} exists and is not an empty folder; a run never overwrites a previous run`);
    try {
      const stat = lstatOrUndefined(fs, root);
      if (stat && (!stat.isDirectory() || fs.readdirSync(root).length > 0)) return taken;
      if (!stat) fs.mkdirSync(root, { recursive: true });
      // Exclusive create: of two runs racing for one empty folder, exactly one gets it.
      const ledger = join(root, LEDGER_FILE);
      const fd = fs.openSync(ledger, 'wx', 0o644);
      const durability = new Durability(fs, root, options.durable ?? false);
      durability.ledgerCreated(ledger);
      return ok(new RunDir(root, fd, fs, options.clock, durability, { ...RECORD_LIMITS, ...options.limits }, format));
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') return taken;
      // The path cannot hold a run dir (read-only, not ours, too long, through a file): a bad path, not a failed write.
      if (code !== undefined && PATH_ERRORS.includes(code)) return fail('invalid_arguments', 'bad_path', `${root} cannot be a run dir: ${code} (${String(error)})`);
      return fail('business', 'write_failed', `could not open run dir ${root}: ${String(error)}`);
    }
  }

  /** Hash of the last event line; `GENESIS` before the first. */
  head(): string {
    return this.#head;
  }

  /** Number of events appended so far (the next event's `seq`). */
  count(): number {
    return this.#seq;
  }

  /** The format the seal will name (the `run_end` event repeats one newer than the base, `format`, so verify can hold the seal to it). */
  format(): RecordFormat {
    return this.#format;
  }

  /**
   * Names the record's format before its first event: a run knows whether
   * its tools carry configured servers (format 5) only once they opened,
   * after the run dir (the CLI takes it before any output). Files written so
   * far are no events, so they stay as they are.
   * @throws Error once an event was appended (its line is of the format it was checked against).
   */
  nameFormat(format: RecordFormat): void {
    this.#assertOpen('nameFormat');
    if (!isKnownFormat(format)) throw new TypeError(`ledger: unknown record format ${JSON.stringify(format)}`);
    if (this.#seq > 0) throw new Error(`ledger: nameFormat(${format}) after ${this.#seq} events of ${this.#format}`);
    this.#format = format;
  }

  /**
   * Writes a new file inside the run dir, atomically and exactly once.
   * @param relPath `/`-separated, portable names; `../x`, absolute paths and the ledger's own names are refused.
   * @returns Path, sha256 and size — spread it into a `FileRef` with a role for the event that vouches for it.
   */
  writeFile(relPath: string, bytes: Uint8Array | string): Outcome<WrittenFile> {
    this.#assertOpen('writeFile');
    const target = resolveInside(this.dir, relPath);
    if (!target.ok) return target;
    const data = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
    const folders = this.#newFolders(relPath);
    const limit = this.#fileLimit(relPath, data, folders.length);
    if (limit) return limit;
    const written = writeFresh(this.#fs, this.dir, relPath, data, `w${this.#temps++}`, { sync: this.#durability.durable });
    if (written.ok) {
      this.#written.set(relPath, written.value);
      for (const folder of folders) this.#folders.add(folder);
      this.#entries += folders.length + 1;
    }
    return written;
  }

  /**
   * Describes a file that something else wrote into the run dir (the card,
   * written by create_card), hashed from the bytes on disk now.
   */
  fileRef(relPath: string, role: string): Outcome<FileRef> {
    const target = resolveInside(this.dir, relPath);
    if (!target.ok) return target;
    try {
      const bytes = this.#fs.readFileSync(target.value);
      return ok({ role, path: relPath, sha256: sha256Hex(bytes), bytes: bytes.byteLength });
    } catch (error) {
      return fail('evidence', 'missing_file', `${relPath} cannot be read in the run dir: ${String(error)}`);
    }
  }

  /**
   * Appends one event line `{ seq, type, at, prev, ...data }` in one write (fsynced when `durable`).
   * The line must be its type's schema in the run's format (events.ts), so no
   * run writes an event its own `verify` refuses. Every `data.files` reference is checked against
   * the run dir, so the ledger never vouches for bytes it has not seen.
   * @returns The new event's hash (the new head).
   */
  append<K extends EventType>(type: K, data: EventInput<K>): Outcome<string> {
    this.#assertOpen('append');
    if (this.#broken) return this.#broken;
    if (!EVENT_TYPE.test(type)) throw new TypeError(`ledger: event type ${JSON.stringify(type)} must match ${EVENT_TYPE.source}`);
    const fields: Readonly<Record<string, unknown>> = data;
    const clash = Object.keys(fields).find((key) => ENVELOPE_KEYS.includes(key) || (type === END_EVENT && key === 'format'));
    if (clash !== undefined) throw new TypeError(`ledger: data may not set ${clash}, which the ledger sets`);
    const refs = fileRefsOf(fields);
    if (!refs.ok) throw new TypeError(`ledger: ${type} event: ${refs.message}`);
    // The run's end names a format newer than the base one, so the seal cannot be moved to another alone.
    const named = type === END_EVENT && this.#format !== LEDGER_FORMAT_2 ? { ...fields, format: this.#format } : fields;
    const event = { ...named, seq: this.#seq, type, at: isoAt(this.#clock), prev: this.#head };
    assertWritable(this.#format, type, event);
    for (const ref of refs.value) {
      const mismatch = this.#checkRef(ref);
      if (mismatch) return mismatch;
    }
    const line = canonicalJson(event);
    const encoded = encoder.encode(`${line}\n`);
    const limit = this.#lineLimit(type, line, encoded.byteLength);
    if (limit) return limit;
    try {
      writeAll(this.#fs, this.#fd!, encoded);
      this.#durability.lineWritten(this.#fd!);
    } catch (error) {
      // The tail may now hold a partial line; appending after it would bury it, so stop here.
      this.#broken = fail('business', 'write_failed', `ledger write failed at seq ${this.#seq} (${type}); the ledger is closed to further events: ${String(error)}`);
      return this.#broken;
    }
    this.#seq += 1;
    this.#ledgerBytes += encoded.byteLength;
    this.#head = sha256Hex(line);
    for (const ref of refs.value) this.#referenced.add(ref.path);
    return ok(this.#head);
  }

  /**
   * Closes the ledger and writes the seal (`ledger.head`: count and head hash),
   * durably, after everything it vouches for is on disk (see `durable`).
   * A ledger whose write or final sync failed is closed unsealed and reports
   * that failure. Calling it again returns the first answer.
   */
  close(): Outcome<Seal> {
    if (this.#closed) return this.#closed;
    const seal: Seal = { count: this.#seq, format: this.#format, head: this.#head };
    const synced = this.#broken ?? this.#beforeSeal();
    const sealed = synced ?? writeFresh(this.#fs, this.dir, SEAL_FILE, encoder.encode(encodeSeal(seal)), 'seal');
    try {
      this.#fs.closeSync(this.#fd!);
    } catch {
      // Every line was already written (and synced before any seal); a failing close(2) loses nothing.
    }
    this.#fd = undefined;
    this.#closed = sealed.ok ? ok(seal) : sealed;
    return this.#closed;
  }

  /**
   * References, with `role`, every regular file in the run dir that no event
   * has referenced yet (a card a tool wrote before the run failed), so a failed
   * run's last event can vouch for what it leaves behind. Best effort: an entry
   * that cannot be read is skipped (verify will then name it).
   */
  unreferencedFiles(role: string): FileRef[] {
    const refs: FileRef[] = [];
    for (const step of walkRunDir(this.#fs, this.dir, (path) => RESERVED_FILES.includes(path) || this.#referenced.has(path))) {
      // A step that could not be read is gone or unreadable: left for verify to name.
      if (step.kind !== 'entry' || !step.stat.isFile()) continue;
      const ref = this.fileRef(step.path, role);
      if (ref.ok) refs.push(ref.value);
    }
    return refs;
  }

  /**
   * Closes the ledger without a seal, for a run that could not record its end:
   * the dir stays visibly unsealed and `verify` says so. Later `close()` calls
   * return the same failure.
   */
  closeUnsealed(reason: string): Failure {
    if (this.#closed && !this.#closed.ok) return this.#closed;
    if (this.#closed) throw new Error('ledger: closeUnsealed after a sealed close()');
    try {
      if (this.#fd !== undefined) this.#fs.closeSync(this.#fd);
    } catch {
      // Every line was already written; a failing close(2) loses nothing.
    }
    this.#fd = undefined;
    const failure = fail('business', 'unsealed', `the run dir was closed without a seal: ${reason}`);
    this.#closed = failure;
    return failure;
  }

  /**
   * Syncs now, all in flight at once, the files so far and their folders, so
   * the caller can overlap it with other waiting (the servers closing); `close`
   * then syncs only what came after. Never fails: `close` retries and reports.
   */
  async sync(): Promise<void> {
    if (this.#closed || this.#broken) return;
    await this.#durability.syncAhead(this.#recordedFiles());
  }

  #recordedFiles(): string[] {
    return [...new Set([...this.#written.keys(), ...this.#referenced])];
  }

  #beforeSeal(): Failure | undefined {
    try {
      this.#durability.beforeSeal(this.#recordedFiles(), this.#fd!);
      return undefined;
    } catch (error) {
      return fail('business', 'write_failed', `could not sync the run dir before sealing it; it is left unsealed: ${String(error)}`);
    }
  }

  /** Folders on the way to `relPath` that this run has not made yet. */
  #newFolders(relPath: string): string[] {
    const folders: string[] = [];
    for (let folder = dirname(relPath); folder !== '.' && !this.#folders.has(folder); folder = dirname(folder)) folders.push(folder);
    return folders;
  }

  /** A file past what `verify` reads (size, entries, JSON depth), refused before a byte is written. */
  #fileLimit(relPath: string, data: Uint8Array, folders: number): Failure | undefined {
    const { fileBytes, entries, endReserveEntries, jsonDepth } = this.#limits;
    if (data.byteLength > fileBytes) return recordLimit(`${relPath} would be ${data.byteLength} bytes; verify reads at most ${fileBytes} per file`);
    if (this.#entries + folders + 1 > entries - endReserveEntries) {
      return recordLimit(`${relPath} would make ${this.#entries + folders + 1} entries; verify lists at most ${entries} (${endReserveEntries} kept for the run's end)`);
    }
    if (relPath.endsWith('.json') && jsonTooDeep(new TextDecoder().decode(data), jsonDepth)) {
      return recordLimit(`${relPath} nests JSON deeper than ${jsonDepth}, the depth verify parses`);
    }
    return undefined;
  }

  /** A ledger line past what `verify` reads; only the run's end may use the reserve. */
  #lineLimit(type: string, line: string, bytes: number): Failure | undefined {
    const { fileBytes, endReserveBytes, jsonDepth } = this.#limits;
    const room = type === END_EVENT ? fileBytes : fileBytes - endReserveBytes;
    if (this.#ledgerBytes + bytes > room) {
      return recordLimit(`the ${type} event would grow ${LEDGER_FILE} to ${this.#ledgerBytes + bytes} bytes; verify reads at most ${fileBytes} (${endReserveBytes} kept for the run's end)`);
    }
    if (jsonTooDeep(line, jsonDepth)) return recordLimit(`the ${type} event nests JSON deeper than ${jsonDepth}, the depth verify parses`);
    return undefined;
  }

  #checkRef(ref: FileRef): Failure | undefined {
    const known = this.#written.get(ref.path);
    if (known && known.sha256 === ref.sha256 && known.bytes === ref.bytes) return undefined;
    const actual = this.fileRef(ref.path, ref.role);
    if (!actual.ok) return actual;
    if (actual.value.sha256 === ref.sha256 && actual.value.bytes === ref.bytes) return undefined;
    return fail(
      'evidence',
      'hash_mismatch',
      `${ref.path} on disk is ${actual.value.bytes} bytes with sha256 ${actual.value.sha256}, not the ${ref.bytes} bytes / ${ref.sha256} the event names`,
    );
  }

  #assertOpen(operation: string): void {
    if (this.#closed) throw new Error(`ledger: ${operation} after close()`);
  }
}

/**
 * Opens a fresh run dir: creates it, or takes an existing empty folder; refuses
 * anything else (`precondition` / `target_exists`) so a previous run is never overwritten.
 * A path that cannot hold one (EROFS, EACCES, EPERM, ENAMETOOLONG, ENOTDIR, ELOOP)
 * is `invalid_arguments` / `bad_path`, naming the errno; any other failure is `write_failed`.
 *
 * @example
 * const run = openRunDir(out, { clock });
 * if (!run.ok) return run;
 * const card = run.value.writeFile('card/card.md', text);
 * if (!card.ok) return card;
 * run.value.append('acceptance', { accepted: true, checks: [], files: [{ role: 'card', ...card.value }] });
 * run.value.close();
 */
export function openRunDir(dir: string, options: OpenRunDirOptions): Outcome<RunDir> {
  return RunDir.open(dir, options);
}

/** A write refused so that the record stays one `verify` reads. */
function recordLimit(message: string): Failure {
  return fail('precondition', 'record_limit', `${message}; the run stops here so that its record still verifies`);
}

function lstatOrUndefined(fs: RunDirFs, path: string): ReturnType<RunDirFs['lstatSync']> | undefined {
  try {
    return fs.lstatSync(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
