import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { assetBytes, assetPaths } from '../assets/index.ts';
import { fail, LIMITS, ok, readBounded, type Failure, type Outcome } from '../contract/index.ts';
import { parsePackage, type PackageReader } from './package.ts';
import type { Package, MethodStage } from './types.ts';

/** The embedded folder of packages (repository-relative), see scripts/embed.ts. */
export const EMBEDDED_SKILLS = 'skills';

/**
 * The packages built into the program. They come from the generated manifest
 * of text imports, so they are the same bytes under `bun run`, `bun test` and
 * the compiled binary, with no file beside the executable.
 */
export function embeddedPackages(stages: readonly MethodStage[]): Outcome<readonly Package[]> {
  const folders = [...new Set(assetPaths(EMBEDDED_SKILLS).map((path) => path.split('/')[1]!))];
  const packages: Package[] = [];
  for (const folder of folders) {
    const read: PackageReader = (rel) => assetBytes(`${EMBEDDED_SKILLS}/${folder}/${rel}`);
    const parsed = parsePackage(folder, { kind: 'embedded' }, read, stages);
    if (!parsed.ok) return parsed;
    packages.push(parsed.value);
  }
  return ok(packages);
}

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

/**
 * Reads a folder of package folders (`--skills DIR`). Every non-hidden
 * sub-folder must be a valid package; DIR itself must not be one (pass its parent).
 */
export function packagesInDir(dir: string, stages: readonly MethodStage[]): Outcome<readonly Package[]> {
  const abs = resolve(dir);
  if (!isDirectory(abs)) {
    return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: not a directory`);
  }
  if (existsSync(join(abs, 'SKILL.md'))) {
    return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: this is a package itself; pass the folder that contains package folders`);
  }
  const packages: Package[] = [];
  const entries = readdirSync(abs).filter((name) => !name.startsWith('.')).sort();
  // A dangling symlink or a loop may have been meant as a package: refused, not skipped.
  const unresolved = entries.find((name) => isDirectory(join(abs, name)) === undefined);
  if (unresolved !== undefined) {
    return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: entry '${unresolved}' cannot be resolved (a dangling symlink or a loop)`);
  }
  const folders = entries.filter((name) => isDirectory(join(abs, name)));
  for (const folder of folders) {
    const path = join(abs, folder);
    const parsed = parsePackage(folder, { kind: 'dir', path }, diskReader(path), stages);
    if (!parsed.ok) return parsed;
    packages.push(parsed.value);
  }
  return ok(packages);
}

function originText(pkg: Package): string {
  return pkg.origin.kind === 'embedded' ? 'embedded' : pkg.origin.path;
}

/**
 * All packages: the embedded ones (unless `embedded: false`) and those in
 * each `--skills` dir, in that order. The first bad package refuses the whole
 * set, as does a name given twice — a name must mean one method. Every
 * package is parsed against `stages`, the task's method stages.
 */
export function discoverPackages(options: { readonly stages: readonly MethodStage[]; readonly dirs?: readonly string[]; readonly embedded?: boolean }): Outcome<readonly Package[]> {
  const sources = [
    ...(options.embedded === false ? [] : [() => embeddedPackages(options.stages)]),
    ...(options.dirs ?? []).map((dir) => () => packagesInDir(dir, options.stages)),
  ];
  const all: Package[] = [];
  for (const source of sources) {
    const found = source();
    if (!found.ok) return found;
    for (const pkg of found.value) {
      const twin = all.find((other) => other.name === pkg.name);
      if (twin) {
        return fail('invalid_arguments', 'duplicate_package', `package name '${pkg.name}' given twice: ${originText(twin)} and ${originText(pkg)}`);
      }
      all.push(pkg);
    }
  }
  return ok(all);
}
