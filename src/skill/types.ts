import type { NotApplied } from './fields.ts';

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
export type MethodStage = string;

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

/**
 * Where a package came from: built into the program, a folder named with
 * `--skills` (`dir`), or the project's own `./.claude/skills/` (read only
 * when the project is trusted, `--trust`).
 */
export type PackageOrigin = { readonly kind: 'embedded' } | { readonly kind: 'dir'; readonly path: string } | { readonly kind: 'project'; readonly path: string };

/** A frontmatter field accepted and recorded, not applied, with why (fields.ts). */
export type { NotApplied };

/**
 * Whether a package may be named in a catalog the model sees, from its
 * frontmatter alone: `listed`; `held_by_paths` (listed only once a call
 * touches a path matching its `paths`); `not_model_invocable`
 * (`disable-model-invocation: true`: still adoptable by name); `no_description`
 * (nothing to list it by). Binding is separate: a package that does not
 * bind is catalogued nowhere.
 */
export type CatalogStatus = 'listed' | 'held_by_paths' | 'not_model_invocable' | 'no_description';

/** What every package has, staged or plain. */
interface PackageCommon {
  readonly name: string;
  /** Trimmed; undefined when the frontmatter has none (then `catalog` is `no_description`). */
  readonly description: string | undefined;
  /** Claude Code's `when_to_use`, trimmed: listed after the description. */
  readonly whenToUse: string | undefined;
  /** Claude Code's `disable-model-invocation`: kept out of the catalog, still adoptable by name. */
  readonly disableModelInvocation: boolean;
  /** Claude Code's `paths` globs, as written; empty: no condition. */
  readonly paths: readonly string[];
  readonly catalog: CatalogStatus;
  /** Frontmatter fields accepted and not applied (Claude Code's `model`, `hooks` …; unknown ones), sorted by name, each with why. */
  readonly notApplied: readonly NotApplied[];
  /** Agent Skills `allowed-tools`: advisory only, never a grant (see `grant.ts`). */
  readonly allowedTools: readonly string[];
  readonly requires: readonly Requirement[];
  readonly hash: string;
  readonly skillSha256: string;
  readonly origin: PackageOrigin;
}

/**
 * A parsed, hash-checked caplab package: a version, pinned resources and one
 * section per stage. Only `parsePackage` makes one. `hash` is `packageHash` (package.ts).
 */
export interface StagedPackage extends PackageCommon {
  readonly kind: 'staged';
  readonly version: string;
  readonly resources: readonly Resource[];
  /** Per stage: the instructions (shared preamble + the stage's section) and the resource paths it loads. */
  readonly stages: Readonly<Record<MethodStage, { readonly instructions: string; readonly resources: readonly string[] }>>;
}

/**
 * A plain Agent Skills package: a SKILL.md whose frontmatter has no `caplab-*`
 * field. It has no version, stages, requirements or pinned resources; its
 * body is its method, the same for every stage.
 */
export interface PlainPackage extends PackageCommon {
  readonly kind: 'plain';
  readonly requires: readonly [];
  /** The SKILL.md body after the frontmatter, and the sha256 and size of its UTF-8 bytes. */
  readonly body: { readonly text: string; readonly sha256: string; readonly bytes: number };
}

/** A method package. Only `parsePackage` makes one. */
export type Package = StagedPackage | PlainPackage;

/** A package whose every required tool is bound at its version (staged unless said: only those load by stage). */
export interface BoundPackage<P extends Package = StagedPackage> {
  readonly package: P;
  readonly tools: readonly Requirement[];
}

/** What one stage puts in a request: only that stage's instructions and references. */
export interface LoadedStage {
  readonly package: { readonly name: string; readonly version: string; readonly hash: string };
  readonly stage: MethodStage;
  readonly instructions: string;
  readonly instructionsSha256: string;
  readonly resources: readonly Resource[];
}

/** Catalog entry: what the model may see before activation. */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
  /** Claude Code's `when_to_use`, when the package has one. */
  readonly whenToUse?: string;
}
