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
  | 'fsync'
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
 * Whether `os` (a `process.platform` name; this process's unless given, read
 * at each call, never at load) can fsync a folder. POSIX can; Windows cannot
 * open a folder for flushing, and its entries need no such sync there, so
 * the folder syncs are skipped (the files themselves are still synced).
 */
export function syncsFolders(os: string = process.platform): boolean {
  return os !== 'win32';
}

/**
 * What makes files under `root` durable with the entries that name them: each
 * file, then every folder on their way (deepest first, `root` itself last, as `''`);
 * the files alone where folders cannot be synced (`syncsFolders`).
 * @param relPaths `/`-separated paths relative to `root`.
 */
function treeOf(relPaths: readonly string[], os?: string): string[] {
  if (!syncsFolders(os)) return [...relPaths];
  const folders = new Set<string>();
  for (const path of relPaths) {
    const parts = path.split('/');
    for (let depth = parts.length - 1; depth > 0; depth--) folders.add(parts.slice(0, depth).join('/'));
  }
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  return [...relPaths, ...deepestFirst, ''];
}

/** fsync, one after the other, of `relPaths` under `root` and the folders naming them (see `treeOf`). Throws the first error. */
export function syncTree(fs: RunDirFs, root: string, relPaths: readonly string[], os?: string): void {
  for (const path of treeOf(relPaths, os)) syncPath(fs, join(root, ...path.split('/')));
}

/**
 * The same syncs, all in flight at once: the filesystem can commit them
 * together (ext4 joins concurrent fsyncs into one journal commit), so the
 * whole takes about as long as one. Rejects with the first error, after every
 * sync has settled.
 */
export async function syncTreeConcurrently(fs: RunDirFs, root: string, relPaths: readonly string[], os?: string): Promise<void> {
  const one = (path: string) =>
    new Promise<void>((resolve, reject) => {
      let fd: number;
      try {
        fd = fs.openSync(join(root, ...path.split('/')), 'r');
      } catch (error) {
        return reject(error);
      }
      fs.fsync(fd, (error) => {
        try {
          fs.closeSync(fd);
        } catch {
          // The sync's answer is what counts.
        }
        if (error) reject(error);
        else resolve();
      });
    });
  const settled = await Promise.allSettled(treeOf(relPaths, os).map(one));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/** Makes a new directory entry durable: fsync(2) on the folder that holds it (nothing where folders cannot be synced). */
export function syncParent(fs: RunDirFs, path: string, os?: string): void {
  if (syncsFolders(os)) syncPath(fs, dirname(path));
}

/** The errno code of a thrown fs error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
