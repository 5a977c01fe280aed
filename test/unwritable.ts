/**
 * A folder nothing can be created in, for tests of "the system refuses this
 * path": immutable (chattr +i) when running as root, whom no mode stops;
 * mode 0555 otherwise. Test code only; `restore` must run before the folder
 * is removed (an immutable folder cannot be).
 */
import { chmodSync, closeSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface Unwritable {
  readonly path: string;
  readonly restore: () => void;
}

/** Makes `parent/name` unwritable, or undefined when this machine offers no way (then the caller says so). */
export function unwritableDir(parent: string, name = 'locked'): Unwritable | undefined {
  const path = join(parent, name);
  mkdirSync(path);
  const root = process.getuid?.() === 0;
  const locked = root ? Bun.spawnSync(['chattr', '+i', path]).exitCode === 0 : (chmodSync(path, 0o555), true);
  const restore = () => (root ? void Bun.spawnSync(['chattr', '-i', path]) : chmodSync(path, 0o755));
  if (locked && !canCreateIn(path)) return { path, restore };
  restore();
  return undefined;
}

function canCreateIn(dir: string): boolean {
  try {
    closeSync(openSync(join(dir, 'probe'), 'wx'));
    unlinkSync(join(dir, 'probe'));
    return true;
  } catch {
    return false;
  }
}
