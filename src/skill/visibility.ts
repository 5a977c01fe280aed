import { matchingGlob, type Touch } from './touched.ts';

/** A package a `paths` condition holds out of the catalog until a call touches a path its globs match. */
export interface HeldPackage {
  readonly name: string;
  readonly hash: string;
  /** Its `paths` globs, as written (matched relative to the run's cwd with `Bun.Glob`). */
  readonly globs: readonly string[];
}

/** A held package a touch made visible: the touch's cwd-relative path and the glob it matched. */
export interface PathsMatch {
  readonly name: string;
  readonly hash: string;
  readonly path: string;
  readonly glob: string;
}

/**
 * The held packages a successful call's touches make visible, in the order
 * given (not yet visible ones only; each once, by the first touch and glob
 * that match). A touch outside cwd (no relative path) matches nothing. It is
 * never a grant: visibility is a catalog line, nothing more.
 */
export function pathsMatches(held: readonly HeldPackage[], visible: ReadonlySet<string>, touches: readonly Touch[]): readonly PathsMatch[] {
  const matches: PathsMatch[] = [];
  for (const pkg of held) {
    if (visible.has(pkg.name)) continue;
    for (const touch of touches) {
      const glob = touch.relative === undefined ? undefined : matchingGlob(pkg.globs, touch.relative);
      if (glob !== undefined && touch.relative !== undefined) {
        matches.push({ name: pkg.name, hash: pkg.hash, path: touch.relative, glob });
        break;
      }
    }
  }
  return matches;
}

/** A catalog's names in the order the `<skills>` block lists them: name order. */
export function catalogOrder(names: Iterable<string>): readonly string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
