/**
 * Allocates names within one run, so that no two things of the run share
 * one. A child scope (a nested loop, a built-in's own work) numbers its names
 * apart: `host-1/act-01` can never be a name of its parent or of a sibling,
 * nor can its files (`requests/host-1/01-request.json`). A child never moves
 * its parent's numbering: the parent's next `act` is the same with or without it.
 */
export interface RunNames {
  /** The next name of this kind in this scope: `act-01`, `act-02`, …; in a child scope `<scope>-<n>/act-01`. */
  next(kind: string): string;
  /** The next request of this scope: its id (`req-01`) and the run-dir files of its payload and response. */
  request(): RequestNames;
  /** The next action of this scope: its id (`act-01`) and the run-dir file its full output is kept in. */
  action(): ActionNames;
  /** A new scope under this one; two children of one scope never share a name, even under the same scope word. */
  child(scope: string): RunNames;
}

/** A request's names: `req-01`, `requests/01-request.json`, `requests/01-response.json` (in a child scope, under its prefix). */
export interface RequestNames {
  readonly id: string;
  readonly payload: string;
  readonly response: string;
}

/** An action's names: `act-01`, `outputs/act-01.txt` and `results/act-01.json` (in a child scope, under its prefix). */
export interface ActionNames {
  readonly id: string;
  readonly output: string;
  /** Where its result data is kept, when the task keeps results (`Task.keepsResults`). */
  readonly result: string;
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
  // `request()` and `next('req')` share one count, as `action()` and `next('act')` do: one name, once.
  const numbered = (kind: string): string => pad(count(`name:${kind}`));
  return {
    next: (kind) => `${prefix}${kind}-${numbered(kind)}`,
    request: () => {
      const n = numbered('req');
      return { id: `${prefix}req-${n}`, payload: `requests/${prefix}${n}-request.json`, response: `requests/${prefix}${n}-response.json` };
    },
    action: () => {
      const id = `${prefix}act-${numbered('act')}`;
      return { id, output: `outputs/${id}.txt`, result: `results/${id}.json` };
    },
    child: (scope) => runNames(`${prefix}${scope}-${count(`scope:${scope}`)}/`),
  };
}

/**
 * The names of a subagent's own loop, by the parent's Agent action id: ids
 * `<action>.req-NN` and `<action>.act-NN`, files `requests/<action>/NN-request.json`
 * (and `-response.json`), `outputs/<action>.act-NN.txt`, `results/<action>.act-NN.json`.
 * None can be a parent's name: a parent's ids hold no `.`, its request files no folder.
 */
export function agentNames(actionId: string): RunNames {
  const counts = new Map<string, number>();
  const numbered = (kind: string): string => {
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    return pad(n);
  };
  return {
    next: (kind) => `${actionId}.${kind}-${numbered(kind)}`,
    request: () => {
      const nth = numbered('req');
      return { id: `${actionId}.req-${nth}`, payload: `requests/${actionId}/${nth}-request.json`, response: `requests/${actionId}/${nth}-response.json` };
    },
    action: () => {
      const id = `${actionId}.act-${numbered('act')}`;
      return { id, output: `outputs/${id}.txt`, result: `results/${id}.json` };
    },
    child: (scope) => runNames(`${actionId}.${scope}-${numbered(`scope:${scope}`)}/`),
  };
}
