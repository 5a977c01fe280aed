import { constants } from 'node:fs';
import { fail, ok, type Outcome } from '../contract/index.ts';
import { errorCode, type RunDirFs } from './fs.ts';

/**
 * Limits on what `verify` reads. A run record this program writes is far
 * below them; anything above is refused by kind, never read whole.
 */
export const VERIFY_LIMITS = {
  /** `ledger.jsonl`. */
  ledgerBytes: 64 * 1024 * 1024,
  /** `ledger.head` (one short line). */
  sealBytes: 4096,
  /** Any one recorded file. */
  fileBytes: 64 * 1024 * 1024,
  /** Files and folders in the run dir. */
  entries: 100_000,
  /** Nesting of arrays and objects in one ledger line or recorded JSON file. */
  jsonDepth: 256,
} as const;

// O_NONBLOCK: opening a FIFO swapped in after the lstat must not block; O_NOFOLLOW: nor may a symlink be followed.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads a regular file of at most `limit` bytes: lstat first (a folder, FIFO,
 * device or symlink is refused by kind, `evidence/not_a_file`), then at most
 * `limit + 1` bytes from the opened file, checked again with fstat, so a file
 * that grows or is swapped in between is still refused (`evidence/too_large`).
 * Any other error is `evidence/unreadable`.
 */
export function readBounded(fs: RunDirFs, path: string, name: string, limit: number): Outcome<Uint8Array> {
  let fd: number | undefined;
  try {
    const stat = fs.lstatSync(path);
    if (!stat.isFile()) return fail('evidence', 'not_a_file', `${name} is not a regular file (${kindOf(stat)})`);
    if (stat.size > limit) return fail('evidence', 'too_large', `${name} is ${stat.size} bytes, over the limit of ${limit}`);
    fd = fs.openSync(path, READ_FLAGS);
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return fail('evidence', 'not_a_file', `${name} was replaced by a ${kindOf(opened)} while it was read`);
    // Sized by fstat (plus one byte to notice growth), grown only up to limit + 1.
    let buffer = new Uint8Array(Math.min(opened.size, limit) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.byteLength) {
        if (length > limit) return fail('evidence', 'too_large', `${name} grew past the limit of ${limit} bytes while it was read`);
        const grown = new Uint8Array(Math.min(buffer.byteLength * 2, limit + 1));
        grown.set(buffer);
        buffer = grown;
      }
      const n = fs.readSync(fd, buffer, length, buffer.byteLength - length, null);
      if (n === 0) break;
      length += n;
    }
    return ok(buffer.slice(0, length));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return fail('evidence', 'missing_file', `${name} is not in the run dir`);
    if (code === 'ELOOP') return fail('evidence', 'not_a_file', `${name} is a symbolic link`);
    return fail('evidence', 'unreadable', `${name} cannot be read: ${String(error)}`);
  } finally {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // Read-only descriptor: a failing close loses nothing.
      }
    }
  }
}

function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isSymbolicLink(): boolean; isSocket(): boolean }): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isSocket()) return 'a socket';
  return 'a device or other special file';
}

/**
 * Whether JSON text nests arrays/objects deeper than `max`, found by scanning
 * the characters (no recursion, no parse), so a line of 100,000 `[` is
 * refused before anything recursive touches it.
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
