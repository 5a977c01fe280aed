import { basename, dirname, join } from 'node:path';
import { fail, ok, sha256Hex, type Outcome } from '../contract/index.ts';
import { errorCode, syncParent, writeAll, type RunDirFs } from './fs.ts';

/** What `writeFile` recorded: the path relative to the run dir, the sha256 and size of the bytes. */
export interface WrittenFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * Writes `bytes` to the absolute `target` only if nothing is there yet: a
 * hidden temp file in the same folder (written, fsynced, closed), then link(2) —
 * which fails with EEXIST instead of replacing — then unlink the temp. No
 * partial file is ever visible under the target name, and no temp survives a
 * failure. `relPath` is only used in the result and in messages.
 *
 * @param tempTag Distinguishes temp names of one writer (a counter is enough:
 * the run dir belongs to one writer).
 */
export function writeFresh(fs: RunDirFs, target: string, relPath: string, bytes: Uint8Array, tempTag: string): Outcome<WrittenFile> {
  const temp = join(dirname(target), `.${basename(target)}.${tempTag}.tmp`);
  let fd: number | undefined;
  let step = 'create folder';
  try {
    fs.mkdirSync(dirname(target), { recursive: true });
    step = 'create temp';
    fd = fs.openSync(temp, 'wx', 0o644);
    step = 'write temp';
    writeAll(fs, fd, bytes);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    step = 'link';
    fs.linkSync(temp, target);
    step = 'remove temp';
    fs.unlinkSync(temp);
    step = 'sync folder';
    syncParent(fs, target);
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
