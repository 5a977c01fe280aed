import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';

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

/** Makes a new directory entry durable: fsync(2) on the folder that holds it. */
export function syncParent(fs: RunDirFs, path: string): void {
  const fd = fs.openSync(dirname(path), 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The errno code of a thrown fs error, if any. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
