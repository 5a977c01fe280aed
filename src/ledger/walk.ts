import { join } from 'node:path';
import type { RunDirFs } from './fs.ts';

/** One step of a walk: an entry with its lstat, or a folder or entry that could not be read. */
export type WalkStep =
  | {
      readonly kind: 'entry';
      /** `/`-path relative to the root. */
      readonly path: string;
      readonly stat: NonNullable<ReturnType<RunDirFs['lstatSync']>>;
      /** Folders met but not listed yet (for a bound on the walk's size). */
      readonly pendingDirs: number;
    }
  | { readonly kind: 'unlistable'; readonly path: string; readonly error: unknown }
  | { readonly kind: 'unstatable'; readonly path: string; readonly error: unknown };

/**
 * Every entry under `root`, each folder's names sorted, symlinks never
 * followed (lstat), a folder entered after the folder holding it is listed.
 * The one walk of a run dir: the writer (best effort, skipping what it cannot
 * read) and `verify` (failing on it) differ only in what they do with a step.
 *
 * @param skip Paths neither examined nor entered.
 */
export function* walkRunDir(fs: RunDirFs, root: string, skip: (path: string) => boolean = () => false): Generator<WalkStep> {
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    let names: string[];
    try {
      names = fs.readdirSync(join(root, rel)).map(String).sort();
    } catch (error) {
      yield { kind: 'unlistable', path: rel, error };
      continue;
    }
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (skip(path)) continue;
      let stat: NonNullable<ReturnType<RunDirFs['lstatSync']>>;
      try {
        stat = fs.lstatSync(join(root, path));
      } catch (error) {
        yield { kind: 'unstatable', path, error };
        continue;
      }
      yield { kind: 'entry', path, stat, pendingDirs: pending.length };
      if (stat.isDirectory()) pending.push(path);
    }
  }
}
