import * as nodeFs from 'node:fs';
import { fail, ok, type Outcome } from './failure.ts';

/** The calls a bounded read makes; injectable so a test can fake any file. */
export type BoundedReadFs = Pick<typeof nodeFs, 'statSync' | 'lstatSync' | 'openSync' | 'fstatSync' | 'readSync' | 'closeSync'>;

export interface BoundedReadOptions {
  /** The file system; the real `node:fs` by default. */
  readonly fs?: BoundedReadFs;
  /** Refuse a symlink in the file's place (lstat, `O_NOFOLLOW`) instead of following it. */
  readonly noFollow?: boolean;
}

function errnoOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
}

function whatItIs(stat: nodeFs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

// O_NONBLOCK: a FIFO swapped in between the stat and the open must not hang the open.
const OPEN_FLAGS = nodeFs.constants.O_RDONLY | nodeFs.constants.O_NOCTTY | nodeFs.constants.O_NONBLOCK;
const NO_FOLLOW = nodeFs.constants.O_NOFOLLOW;

/**
 * Reads a whole regular file of at most `maxBytes` bytes. It stats first and
 * refuses anything else (a FIFO would hang the read, a device never ends, a
 * directory is no file), opens without blocking, checks the opened file is
 * still regular, and reads at most `maxBytes + 1` bytes, so a file that grows
 * or lies about its size costs no more than the limit. With `noFollow` a
 * symlink in the file's place is refused too (the run record's reader).
 *
 * Failures are `precondition` with kind `not_found`, `not_regular_file`,
 * `too_large` or `unreadable`; the message names the path.
 *
 * @example
 * const read = readBounded('scenario.json', LIMITS.scenarioBytes);
 * if (!read.ok) return read; // e.g. precondition/too_large
 */
export function readBounded(path: string, maxBytes: number, options: BoundedReadOptions = {}): Outcome<Uint8Array> {
  const fs = options.fs ?? nodeFs;
  let stat: nodeFs.Stats;
  try {
    stat = options.noFollow ? fs.lstatSync(path) : fs.statSync(path);
  } catch (error) {
    const code = errnoOf(error);
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? fail('precondition', 'not_found', `${path}: no such file (${code})`)
      : fail('precondition', 'unreadable', `${path}: cannot stat (${code})`);
  }
  if (!stat.isFile()) return fail('precondition', 'not_regular_file', `${path}: ${whatItIs(stat)}, not a regular file`);
  const tooLarge = () => fail('precondition', 'too_large', `${path}: more than ${maxBytes} bytes (limit ${maxBytes})`);
  if (stat.size > maxBytes) return tooLarge();
  let fd: number;
  try {
    fd = fs.openSync(path, options.noFollow ? OPEN_FLAGS | NO_FOLLOW : OPEN_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return fail('precondition', 'not_found', `${path}: no such file (${code})`);
    if (code === 'ELOOP' && options.noFollow) return fail('precondition', 'not_regular_file', `${path}: a symbolic link, not a regular file`);
    return fail('precondition', 'unreadable', `${path}: cannot open (${code})`);
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return fail('precondition', 'not_regular_file', `${path}: replaced by ${whatItIs(opened)} while it was read, not a regular file`);
    // Sized by the stat, grown only if the file has more than it said (/proc reports 0).
    let buffer = new Uint8Array(Math.min(stat.size, maxBytes) + 1);
    let used = 0;
    for (;;) {
      if (used === buffer.byteLength) {
        if (used > maxBytes) break;
        const grown = new Uint8Array(Math.min(buffer.byteLength * 2, maxBytes + 1));
        grown.set(buffer);
        buffer = grown;
      }
      const got = fs.readSync(fd, buffer, used, buffer.byteLength - used, null);
      if (got === 0) break;
      used += got;
    }
    return used > maxBytes ? tooLarge() : ok(buffer.slice(0, used));
  } catch (error) {
    return fail('precondition', 'unreadable', `${path}: cannot read (${errnoOf(error)})`);
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // A read-only descriptor: a failing close loses nothing.
    }
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `readBounded`, decoded as UTF-8; bytes that are not UTF-8 are `invalid_arguments`/`not_utf8`. */
export function readBoundedText(path: string, maxBytes: number, options: BoundedReadOptions = {}): Outcome<string> {
  const read = readBounded(path, maxBytes, options);
  if (!read.ok) return read;
  try {
    return ok(strictUtf8.decode(read.value));
  } catch {
    return fail('invalid_arguments', 'not_utf8', `${path}: not valid UTF-8`);
  }
}
