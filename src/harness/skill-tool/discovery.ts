import { resolve } from 'node:path';
import { LIMITS, type Failure } from '../../contract/index.ts';
import { bindPackage, catalogOrder, nestedFolders, nestedSkills, pathsMatches, PROJECT_SKILLS, touchedPaths, type BoundPackage, type BoundTool, type HeldPackage, type Package, type Touch } from '../../skill/index.ts';
import type { EventInput } from '../../ledger/index.ts';
import { effectiveInput, type RecordedCall } from '../recorded-call.ts';
import type { RunRecorder } from '../recorder.ts';
import { isCatalogued, packageRecord } from './package-record.ts';

type Found = { name: string; reason: 'over_limit' | 'duplicate_package'; message: string };
type Refused = { name: string; class: Failure['class']; kind: string; message: string };

/** What dynamic discovery runs with: the run's cwd, whether nested folders are read (`--trust`), the task's stages, the tools a package binds to. */
export interface DiscoveryBasis {
  readonly cwd: string;
  readonly nested: boolean;
  readonly stages: readonly string[];
  readonly tools: readonly BoundTool[];
}

/**
 * One run's catalog as it grows (tool mode): the packages Skill may serve,
 * those visible to the next request, those a `paths` condition still holds,
 * and every name found (the unknown_skill check). Made at start from the
 * sources' packages; only `observe` adds to it, each addition recorded.
 */
export class RunCatalog {
  readonly served = new Map<string, BoundPackage<Package>>();
  readonly known = new Set<string>();
  readonly #visible = new Set<string>();
  readonly #held: HeldPackage[] = [];
  readonly #searched = new Set<string>();
  #found: number;

  constructor(
    readonly basis: DiscoveryBasis,
    start: readonly Package[],
    bound: ReadonlyMap<string, BoundPackage<Package>>,
  ) {
    for (const pkg of start) this.known.add(pkg.name);
    this.#found = start.length;
    for (const [name, pkg] of bound) {
      this.served.set(name, pkg);
      if (pkg.package.catalog === 'listed') this.#visible.add(name);
      else this.#held.push({ name, hash: pkg.package.hash, globs: pkg.package.paths });
    }
  }

  /** The names the next request's `<skills>` block lists, in name order. */
  visible(): readonly string[] {
    return catalogOrder(this.#visible);
  }

  /**
   * What a response's recorded calls made visible, recorded before the next
   * request: for each call that succeeded, in order, each held package one
   * of its touched paths matches (`skill_visible`, via `paths`); with
   * `nested`, each `.claude/skills/` from the path's folder up to cwd not
   * yet searched (`skill_visible`, via `nested`, for a listed package; a
   * `skill_found` event for what is held, refused or skipped). A refused or
   * failed call touches nothing. The first write the record refuses stops it.
   */
  observe(calls: readonly RecordedCall[], recorder: RunRecorder): Failure | undefined {
    for (const call of calls) {
      if (!call.outcome.ok) continue;
      const touches = touchedPaths(effectiveInput(call.arguments), this.basis.cwd);
      const failure = this.#byPaths(call.actionId, touches, recorder) ?? (this.basis.nested ? this.#byNested(call.actionId, touches, recorder) : undefined);
      if (failure) return failure;
    }
    return undefined;
  }

  #byPaths(actionId: string, touches: readonly Touch[], recorder: RunRecorder): Failure | undefined {
    for (const match of pathsMatches(this.#held, this.#visible, touches)) {
      this.#visible.add(match.name);
      const origin = this.served.get(match.name)!.package.origin;
      const appended = recorder.append('skill_visible', { name: match.name, hash: match.hash, origin, action_id: actionId, path: match.path, via: 'paths', glob: match.glob });
      if (!appended.ok) return appended;
    }
    return undefined;
  }

  #byNested(actionId: string, touches: readonly Touch[], recorder: RunRecorder): Failure | undefined {
    for (const touch of touches) {
      for (const folder of touch.relative === undefined ? [] : nestedFolders(touch.relative)) {
        if (this.#searched.has(folder)) continue;
        this.#searched.add(folder);
        const failure = this.#searchFolder(actionId, touch.relative!, folder, recorder);
        if (failure) return failure;
      }
    }
    // A held package a nested folder just brought may match this very call's touches.
    return this.#byPaths(actionId, touches, recorder);
  }

  /** One nested folder's `.claude/skills/`: each package joins (listed: visible now; held: by its paths later), or is recorded as refused or skipped. */
  #searchFolder(actionId: string, path: string, folder: string, recorder: RunRecorder): Failure | undefined {
    const room = LIMITS.skillPackages - this.#found;
    const found = nestedSkills(resolve(this.basis.cwd, folder), this.basis.stages, room);
    const held: EventInput<'skill_found'>['held'][number][] = [];
    const refused: Refused[] = [];
    const skipped: Found[] = [];
    if (!found.ok) refused.push({ name: PROJECT_SKILLS, class: found.class, kind: found.kind, message: found.message });
    const { packages = [], over = [] } = found.ok ? found.value : {};
    for (const r of found.ok ? found.value.refused : []) refused.push({ name: r.name, class: r.failure.class, kind: r.failure.kind, message: r.failure.message });
    for (const name of over) skipped.push({ name, reason: 'over_limit', message: `past ${LIMITS.skillPackages} packages in the run (skillPackages): not parsed` });
    this.#found += packages.length + refused.length;
    for (const pkg of packages) {
      if (this.known.has(pkg.name)) {
        skipped.push({ name: pkg.name, reason: 'duplicate_package', message: `a package named ${JSON.stringify(pkg.name)} is already the run's: a name means one method` });
        continue;
      }
      this.known.add(pkg.name);
      if (!isCatalogued(pkg)) continue;
      const bound = bindPackage(pkg, this.basis.tools);
      if (!bound.ok) {
        refused.push({ name: pkg.name, class: bound.class, kind: bound.kind, message: bound.message });
        continue;
      }
      this.served.set(pkg.name, bound.value);
      if (pkg.catalog === 'held_by_paths') {
        this.#held.push({ name: pkg.name, hash: pkg.hash, globs: pkg.paths });
        held.push({ ...packageRecord(pkg), catalog: 'held_by_paths', paths: [...pkg.paths] });
        continue;
      }
      this.#visible.add(pkg.name);
      const appended = recorder.append('skill_visible', { name: pkg.name, hash: pkg.hash, origin: pkg.origin, action_id: actionId, path, via: 'nested', folder, package: packageRecord(pkg) });
      if (!appended.ok) return appended;
    }
    if (held.length + refused.length + skipped.length === 0) return undefined;
    const appended = recorder.append('skill_found', { action_id: actionId, path, folder, held, refused, skipped });
    return appended.ok ? undefined : appended;
  }
}
