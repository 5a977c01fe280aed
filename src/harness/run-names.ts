/**
 * Allocates names within one run, so that no two things of the run share
 * one. A child scope (a nested loop, a built-in's own work) numbers its names
 * apart: `host-1/act-01` can never be a name of its parent or of a sibling.
 */
export interface RunNames {
  /** The next name of this kind in this scope: `act-01`, `act-02`, …; in a child scope `<scope>-<n>/act-01`. */
  next(kind: string): string;
  /** A new scope under this one; two children of one scope never share a name, even under the same scope word. */
  child(scope: string): RunNames;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A fresh allocator: the root scope of a run (its names carry no prefix). */
export function runNames(prefix = ''): RunNames {
  const counts = new Map<string, number>();
  const count = (key: string): number => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  return {
    next: (kind) => `${prefix}${kind}-${pad(count(`name:${kind}`))}`,
    child: (scope) => runNames(`${prefix}${scope}-${count(`scope:${scope}`)}/`),
  };
}
