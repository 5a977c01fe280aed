import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processGuard, type ProcessGuard } from './guard.ts';

/** A fresh empty folder a server is started in, and how to remove it. */
export interface FreshDir {
  readonly path: string;
  /** Removes the folder and what is in it, then tells the guard (idempotent). */
  readonly remove: () => void;
}

export interface FreshDirOptions {
  /** Where the folder is made; by default the temp dir. */
  readonly parent?: string;
  /** Who removes it if caplab dies; by default caplab's guard. */
  readonly guard?: Pick<ProcessGuard, 'folder'>;
}

/**
 * A fresh empty folder in the temp dir (`<prefix><16 hex>`), registered with
 * caplab's guard *before* it is made, so that no SIGKILL can leave it: the
 * guard removes it if caplab dies, however early. The name carries 64 random
 * bits and the folder is made exclusively (mode 0700), so a registered name
 * is never someone else's folder. Probe's servers start in one
 * (`caplab-probe-`), and so can a host's configured servers.
 *
 * @example
 * const dir = freshDir('caplab-probe-');
 * try { start(dir.path); } finally { dir.remove(); }
 */
export function freshDir(prefix: string, options: FreshDirOptions = {}): FreshDir {
  const guard = options.guard ?? processGuard();
  for (;;) {
    const path = join(options.parent ?? tmpdir(), `${prefix}${randomBytes(8).toString('hex')}`);
    const release = guard.folder(path);
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      release();
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      continue;
    }
    let removed = false;
    const remove = (): void => {
      if (removed) return;
      removed = true;
      rmSync(path, { recursive: true, force: true });
      release();
    };
    return { path, remove };
  }
}
