/**
 * Method packages (SPEC F-SKILL): plain readonly data. A package organises
 * existing tools and reference material; nothing here grants a tool or a
 * permission.
 */

/**
 * A stage of the task's method. The task, not the package, decides the stages
 * (in order) and which one a request belongs to; a package must cover each.
 * A stage name is a word that starts with a letter (`STAGE_NAME`): a package
 * keeps its stages as object keys, whose order is insertion order only for
 * names that are not integers.
 */
export type Stage = string;

/** What a stage name is; `parsePackage` throws on any other (a task's programming error). */
export const STAGE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A tool a package needs, at an exact contract version. */
export interface Requirement {
  readonly tool: string;
  readonly version: string;
}

/** One reference file, read once, its hash checked against the declaration. */
export interface Resource {
  readonly path: string;
  readonly sha256: string;
  readonly text: string;
}

/** Where a package came from: built into the program, or a folder on disk. */
export type PackageOrigin = { readonly kind: 'embedded' } | { readonly kind: 'dir'; readonly path: string };

/**
 * A parsed, hash-checked package. Only `parsePackage` makes one.
 * `hash` is `packageHash` (package.ts).
 */
export interface Package {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  /** Agent Skills `allowed-tools`: advisory only, never a grant (see `grant.ts`). */
  readonly allowedTools: readonly string[];
  readonly requires: readonly Requirement[];
  readonly resources: readonly Resource[];
  /** Per stage: the instructions (shared preamble + the stage's section) and the resource paths it loads. */
  readonly stages: Readonly<Record<Stage, { readonly instructions: string; readonly resources: readonly string[] }>>;
  readonly hash: string;
  readonly skillSha256: string;
  readonly origin: PackageOrigin;
}

/** A package whose every required tool is bound at its version. */
export interface BoundPackage {
  readonly package: Package;
  readonly tools: readonly Requirement[];
}

/** What one stage puts in a request: only that stage's instructions and references. */
export interface LoadedStage {
  readonly package: { readonly name: string; readonly version: string; readonly hash: string };
  readonly stage: Stage;
  readonly instructions: string;
  readonly instructionsSha256: string;
  readonly resources: readonly Resource[];
}

/** Catalog entry: what the model may see before activation. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
}
