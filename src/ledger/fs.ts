import * as nodeFs from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The filesystem calls the run record makes, all synchronous (a run record is
 * small, and sync calls keep "this line is on disk" easy to reason about).
 * Injectable so a test can make a write fail halfway.
 */
export type RunDirFs = Pick<
  typeof nodeFs,
  | 'closeSync'
  | 'fstatSync'
  | 'fsyncSync'
  | 'linkSync'
  | 'lstatSync'
  | 'mkdirSync'
  | 'openSync'
  | 'readdirSync'
  | 'readFileSync'
  | 'readSync'
  | 'statSync'
  | 'unlinkSync'
  | 'writeSync'
>;

/** The real `node:fs`. */
export const defaultFs: RunDirFs = nodeFs;

/** Writes every byte: `writeSync` may write fewer than asked for. */
export function writeAll(fs: RunDirFs, fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.byteLength) {
    offset += fs.writeSync(fd, bytes, offset, bytes.byteLength - offset);
  }
}

/** fsync(2) on a file or folder by path (Linux lets a read-only descriptor sync). */
export function syncPath(fs: RunDirFs, path: string): void {
  const fd = fs.openSync(path, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Makes files under `root` durable with the entries that name them: fsync on
 * each file, then on every folder on their way (deepest first, `root` last).
 * Throws the first error.
 * @param relPaths `/`-separated paths relative to `root`.
 */
export function syncTree(fs: RunDirFs, root: string, relPaths: readonly string[]): void {
  const folders = new Set<string>();
  for (const path of relPaths) {
    const parts = path.split('/');
    for (let depth = parts.length - 1; depth > 0; depth--) folders.add(parts.slice(0, depth).join('/'));
  }
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  for (const path of [...relPaths, ...deepestFirst, '']) syncPath(fs, join(root, ...path.split('/')));
}

/** Makes a new directory entry durable: fsync(2) on the folder that holds it. */
export function syncParent(fs: RunDirFs, path: string): void {
  syncPath(fs, dirname(path));
}

/** The errno code of a thrown fs error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
