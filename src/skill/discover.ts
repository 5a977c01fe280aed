import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { assetBytes, assetPaths } from '../assets/index.ts';
import { fail, LIMITS, ok, readBounded, type Failure, type Outcome } from '../contract/index.ts';
import { NAME_PATTERN } from './fields.ts';
import { parsePackage, type PackageReader } from './package.ts';
import type { Package, PackageOrigin, MethodStage } from './types.ts';

/** The embedded folder of packages (repository-relative), see scripts/embed.ts. */
export const EMBEDDED_SKILLS = 'skills';

/**
 * Reads files of one package folder on disk. SKILL.md is read only as a
 * regular file (a symlink is `not_regular_file`). A reference that resolves
 * (through symlinks too) outside the folder, or does not resolve (dangling, a
 * loop), reads as absent: a package cannot pull in bytes it does not contain. A file
 * is read with a stat first and at most its limit (`LIMITS.skillMdBytes` for
 * SKILL.md, `LIMITS.skillReferenceBytes` for a reference); anything but a
 * regular file, or a larger one, is a failure by kind.
 */
export function diskReader(folder: string): PackageReader {
  const root = realpathSync(folder);
  return (rel) => {
    // SKILL.md itself is never followed: a symlink is refused as one, not read as "missing".
    if (rel === 'SKILL.md') return orAbsent(readBounded(join(root, rel), LIMITS.skillMdBytes, { noFollow: true }));
    let real: string;
    try {
      real = realpathSync(join(root, rel));
    } catch {
      return undefined;
    }
    if (!real.startsWith(root + sep)) return undefined;
    return orAbsent(readBounded(real, LIMITS.skillReferenceBytes));
  };
}

function orAbsent(read: Outcome<Uint8Array>): Uint8Array | undefined | Failure {
  if (read.ok) return read.value;
  return read.kind === 'not_found' ? undefined : read;
}

/** Whether `path` is a directory (through symlinks); undefined when it cannot be resolved. */
function isDirectory(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch {
    return undefined;
  }
}

/** One package folder to parse: its name, where it came from, how its files are read. */
interface Candidate {
  readonly folder: string;
  readonly origin: PackageOrigin;
  readonly read: PackageReader;
}

/** A package that could not be read (no frontmatter, bad YAML, a field's value, over a limit): listed with why. */
export interface RefusedPackage {
  /** The folder's name: a package's name must equal it. */
  readonly name: string;
  readonly origin: PackageOrigin;
  readonly failure: Failure;
}

/** What discovery found: the packages read, those refused (each with why), and notices for the user. */
export interface Discovery {
  readonly packages: readonly Package[];
  readonly refused: readonly RefusedPackage[];
  readonly notices: readonly string[];
}

/** Where packages are looked for. */
export interface DiscoverOptions {
  /** The task's method stages: every package is parsed against them. */
  readonly stages: readonly MethodStage[];
  /** Folders of package folders (`--skills DIR`), absolute or relative to the process's working directory. */
  readonly dirs?: readonly string[];
  /** The packages built into caplab (default true). */
  readonly embedded?: boolean;
  /** `--trust`: also read the project's `./.claude/skills/` (otherwise, when present, a notice). */
  readonly trust?: boolean;
  /** The project root `./.claude/skills/` is looked for in (default: `process.cwd()`). */
  readonly cwd?: string;
}

/** The project's own folder of packages, relative to its root, as Claude Code names it. */
export const PROJECT_SKILLS = '.claude/skills';

/** The packages built into the program, from the generated manifest of text imports (the same bytes under `bun run`, `bun test` and the compiled binary). */
function embeddedCandidates(): readonly Candidate[] {
  const folders = [...new Set(assetPaths(EMBEDDED_SKILLS).map((path) => path.split('/')[1]!))];
  return folders.map((folder) => ({ folder, origin: { kind: 'embedded' }, read: (rel) => assetBytes(`${EMBEDDED_SKILLS}/${folder}/${rel}`) }));
}

/**
 * The package folders of a folder of packages: every non-hidden sub-folder,
 * in name order. The folder must exist and not be a package itself; an entry
 * that cannot be resolved (a dangling symlink, a loop) may have been meant as
 * a package, so it refuses the folder rather than being skipped.
 */
function dirCandidates(abs: string, label: string, kind: 'dir' | 'project'): Outcome<readonly Candidate[]> {
  if (!isDirectory(abs)) return fail('invalid_arguments', 'bad_skills_dir', `${label}: not a directory`);
  if (existsSync(join(abs, 'SKILL.md'))) {
    return fail('invalid_arguments', 'bad_skills_dir', `${label}: this is a package itself; pass the folder that contains package folders`);
  }
  const entries = readdirSync(abs).filter((name) => !name.startsWith('.')).sort();
  const unresolved = entries.find((name) => isDirectory(join(abs, name)) === undefined);
  if (unresolved !== undefined) {
    return fail('invalid_arguments', 'bad_skills_dir', `${label}: entry '${unresolved}' cannot be resolved (a dangling symlink or a loop)`);
  }
  return ok(
    entries
      .filter((name) => isDirectory(join(abs, name)))
      .map((folder) => {
        const path = join(abs, folder);
        // Opened on the first read: a folder past the package limit is never opened.
        let reader: PackageReader | undefined;
        return { folder, origin: { kind, path }, read: (rel: string) => (reader ??= diskReader(path))(rel) };
      }),
  );
}

/** Whether anything is at `path` (an lstat only: an untrusted folder is never read). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The real path of `path`, or itself when it cannot be resolved. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The project's `./.claude/skills/`: read when trusted, or when a `--skills`
 * folder names it (then it is that folder, read once); present but neither
 * is a notice, and nothing in it is read. Personal (`~/.claude/skills`) and
 * plugin folders are never read.
 */
function projectSource(options: Pick<DiscoverOptions, 'dirs' | 'trust' | 'cwd'>): { readonly read: (() => Outcome<readonly Candidate[]>) | undefined; readonly notices: readonly string[] } {
  const path = resolve(options.cwd ?? process.cwd(), PROJECT_SKILLS);
  if (!present(path)) return { read: undefined, notices: [] };
  const named = (options.dirs ?? []).some((dir) => real(resolve(dir)) === real(path));
  if (named) return { read: undefined, notices: [] };
  if (options.trust) return { read: () => dirCandidates(path, `project skills ${path}`, 'project'), notices: [] };
  return { read: undefined, notices: [`ignored untrusted project skills ${path} (no package in it was read; pass --trust, or --skills ${PROJECT_SKILLS}, to read them)`] };
}

/** The notice a run or `caplab skills` gives about the project's `./.claude/skills/` (lstat only; `dirs` resolved as discovery resolves them). */
export function projectSkillsNotices(options: Pick<DiscoverOptions, 'dirs' | 'trust' | 'cwd'>): readonly string[] {
  return projectSource(options).notices;
}

function originText(origin: PackageOrigin): string {
  return origin.kind === 'embedded' ? 'embedded' : origin.path;
}

/**
 * All packages: the embedded ones (unless `embedded: false`), those in each
 * `--skills` folder, then the project's (see `projectSource`), in that order,
 * each parsed against the task's stages. A package that cannot be read is
 * listed as refused with why, and the others are still read: a run stops on
 * it only when it names it. A folder that cannot be read, a name given twice
 * (a name must mean one method) or more than `LIMITS.skillPackages` package
 * folders in all refuse the whole set, before any of them is parsed.
 */
export function discoverSkills(options: DiscoverOptions): Outcome<Discovery> {
  const project = projectSource(options);
  const sources = [
    ...(options.embedded === false ? [] : [() => ok(embeddedCandidates())]),
    ...(options.dirs ?? []).map((dir) => () => dirCandidates(resolve(dir), `--skills ${dir}`, 'dir')),
    ...(project.read ? [project.read] : []),
  ];
  const candidates: Candidate[] = [];
  for (const source of sources) {
    const found = source();
    if (!found.ok) return found;
    for (const candidate of found.value) {
      const twin = candidates.find((other) => other.folder === candidate.folder);
      if (twin) {
        return fail('invalid_arguments', 'duplicate_package', `package name '${candidate.folder}' given twice: ${originText(twin.origin)} and ${originText(candidate.origin)}`);
      }
      candidates.push(candidate);
    }
    if (candidates.length > LIMITS.skillPackages) {
      const last = sourceName(candidates.at(-1)!.origin);
      return fail('invalid_arguments', 'too_many_skills', `more than ${LIMITS.skillPackages} method packages (limit ${LIMITS.skillPackages}): ${last} brings them to ${candidates.length}`);
    }
  }
  const packages: Package[] = [];
  const refused: RefusedPackage[] = [];
  for (const { folder, origin, read } of candidates) {
    const parsed = parsePackage(folder, origin, read, options.stages);
    if (parsed.ok) packages.push(parsed.value);
    else refused.push({ name: folder, origin, failure: parsed });
  }
  return ok({ packages, refused, notices: project.notices });
}

/** A source as a user named it: embedded, the `--skills` folder, the project's. */
function sourceName(origin: PackageOrigin): string {
  return origin.kind === 'embedded' ? 'embedded' : `${origin.kind === 'dir' ? '--skills' : 'project'} ${dirname(origin.path)}`;
}

/** What one nested `.claude/skills/` held: its packages read, and those refused (each with why). */
export interface NestedSkills {
  readonly packages: readonly Package[];
  readonly refused: readonly RefusedPackage[];
}

/**
 * The packages of `<folder>/.claude/skills/`, a folder below the project's
 * root that a call touched (dynamic discovery, trusted runs only): absent or
 * not a directory, none; its package folders parsed as any source's are
 * (origin `project`, the same lenient frontmatter), at most `room` of them
 * in name order — those past it are not parsed and returned as `over`.
 */
export function nestedSkills(folder: string, stages: readonly MethodStage[], room: number): Outcome<NestedSkills & { readonly over: readonly string[] }> {
  const path = join(folder, PROJECT_SKILLS);
  if (isDirectory(path) !== true) return ok({ packages: [], refused: [], over: [] });
  const found = dirCandidates(path, `nested skills ${path}`, 'project');
  if (!found.ok) return found;
  const packages: Package[] = [];
  const refused: RefusedPackage[] = [];
  for (const { folder: name, origin, read } of found.value.slice(0, Math.max(0, room))) {
    const parsed = parsePackage(name, origin, read, stages);
    if (parsed.ok) packages.push(parsed.value);
    else refused.push({ name, origin, failure: parsed });
  }
  return ok({ packages, refused, over: found.value.slice(Math.max(0, room)).map((c) => c.folder) });
}

/**
 * The packages a run may adopt (`discoverSkills`' packages). Naming one
 * (`named`, the run's `--skill` or a scenario's `skill`) that was refused
 * fails with its reason; naming one that is only in the untrusted project's
 * `./.claude/skills/` fails saying so. A refused package not named is left out.
 */
export function discoverPackages(options: DiscoverOptions & { readonly named?: string | undefined }): Outcome<readonly Package[]> {
  const found = discoverSkills(options);
  if (!found.ok) return found;
  const { named } = options;
  if (named === undefined || found.value.packages.some((pkg) => pkg.name === named)) return ok(found.value.packages);
  const refused = found.value.refused.find((pkg) => pkg.name === named);
  if (refused) return refused.failure;
  const untrusted = resolve(options.cwd ?? process.cwd(), PROJECT_SKILLS, named);
  if (!options.trust && NAME_PATTERN.test(named) && present(untrusted)) {
    return fail('invalid_arguments', 'untrusted_skill', `method package ${JSON.stringify(named)} is in the project's untrusted ${PROJECT_SKILLS}/ (${untrusted}): pass --trust to read it`);
  }
  return ok(found.value.packages);
}
