import { join } from 'node:path';
import { fail, ok, sha256Hex, type Failure, type Outcome } from '../contract/index.ts';
import { errorCode, syncParent, writeAll, type RunDirFs } from './fs.ts';

/** What `writeFile` recorded: the path relative to the run dir, the sha256 and size of the bytes. */
export interface WrittenFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** A folder on the way to the target, as lstat(2) saw it. */
interface Seen {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

function unsafe(relPath: string, message: string): Failure {
  return fail('precondition', 'unsafe_path', `${relPath} was not written: ${message}; nothing under a run dir is written through a symlink`);
}

/**
 * Creates the folders from `root` down to `relPath`'s parent one at a time
 * and checks each with lstat(2): every one must be a real folder, never a
 * symlink (mkdir -p would follow one planted mid-run, and the file would land
 * outside the run dir).
 */
function walkFolders(fs: RunDirFs, root: string, relPath: string): Outcome<readonly Seen[]> {
  const seen: Seen[] = [];
  const segments = relPath.split('/').slice(0, -1);
  for (let depth = 0; depth <= segments.length; depth++) {
    const path = join(root, ...segments.slice(0, depth));
    if (depth > 0) {
      try {
        fs.mkdirSync(path);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    }
    const stats = fs.lstatSync(path);
    if (!stats.isDirectory()) return unsafe(relPath, `${path} is ${stats.isSymbolicLink() ? 'a symlink' : 'not a folder'}`);
    seen.push({ path, dev: stats.dev, ino: stats.ino });
  }
  return ok(seen);
}

/** The first folder that is no longer the one `walkFolders` saw (replaced, or swapped for a symlink). */
function changedFolder(fs: RunDirFs, seen: readonly Seen[]): string | undefined {
  for (const folder of seen) {
    try {
      const now = fs.lstatSync(folder.path);
      if (!now.isDirectory() || now.dev !== folder.dev || now.ino !== folder.ino) return folder.path;
    } catch {
      return folder.path;
    }
  }
  return undefined;
}

/** How `writeFresh` treats durability. */
export interface WriteFreshOptions {
  /**
   * fsync the file before it is linked into place and its folder after (default true).
   * false leaves both to the caller (the run dir syncs them once, at close); the file
   * is still never visible half-written under its name.
   */
  readonly sync?: boolean;
}

/**
 * Writes `bytes` to `root/relPath` only if nothing is there yet: a hidden
 * temp file in the same folder (written, fsynced, closed), then link(2) —
 * which fails with EEXIST instead of replacing — then unlink the temp. No
 * partial file is ever visible under the target name, and no temp survives a
 * failure. With `sync: false` the two fsyncs are skipped (see `WriteFreshOptions`).
 *
 * No symlink is followed under `root`: every folder on the way is checked
 * with lstat(2) before the write and again after it (same device and inode,
 * still a real folder); the temp is created with O_EXCL and link(2) does not
 * follow a symlink at the target, so neither final name can be one. A folder
 * swapped during the write is reported (`precondition`/`unsafe_path`), never
 * vouched for. Node has no openat(2), so a folder swapped away and back
 * between the two checks is the one case this cannot see.
 *
 * @param root The run dir (absolute); `relPath` is a checked `/`-separated path under it.
 * @param tempTag Distinguishes temp names of one writer (a counter is enough:
 * the run dir belongs to one writer).
 */
export function writeFresh(fs: RunDirFs, root: string, relPath: string, bytes: Uint8Array, tempTag: string, options: WriteFreshOptions = {}): Outcome<WrittenFile> {
  const sync = options.sync ?? true;
  const target = join(root, ...relPath.split('/'));
  const name = relPath.split('/').at(-1)!;
  const temp = join(target, '..', `.${name}.${tempTag}.tmp`);
  let fd: number | undefined;
  let step = 'create folder';
  try {
    const folders = walkFolders(fs, root, relPath);
    if (!folders.ok) return folders;
    step = 'create temp';
    fd = fs.openSync(temp, 'wx', 0o644);
    step = 'write temp';
    writeAll(fs, fd, bytes);
    if (sync) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    step = 'link';
    fs.linkSync(temp, target);
    step = 'remove temp';
    fs.unlinkSync(temp);
    step = 'sync folder';
    if (sync) syncParent(fs, target);
    const changed = changedFolder(fs, folders.value);
    if (changed !== undefined) return unsafe(relPath, `${changed} changed while the file was written (replaced, or swapped for a symlink)`);
    return ok({ path: relPath, sha256: sha256Hex(bytes), bytes: bytes.byteLength });
  } catch (error) {
    // Undo only what this call created; never unlink a temp someone else left.
    if (fd !== undefined) attempt(() => fs.closeSync(fd!));
    if (step === 'write temp' || step === 'link' || step === 'remove temp') attempt(() => fs.unlinkSync(temp));
    if (step === 'link' && errorCode(error) === 'EEXIST') {
      return fail('precondition', 'target_exists', `${relPath} already exists in the run dir; recorded files are never overwritten`);
    }
    const placed = step === 'remove temp' || step === 'sync folder' ? ' (the file is in place, but the write did not finish cleanly)' : '';
    return fail('business', 'write_failed', `could not ${step} for ${relPath}${placed}: ${String(error)}`);
  }
}

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // Best effort cleanup; the caller reports the first error.
  }
}
