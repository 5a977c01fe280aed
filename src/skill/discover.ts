import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { assetBytes, assetPaths } from '../assets/index.ts';
import { fail, ok, type Outcome } from '../contract/index.ts';
import { parsePackage, type PackageReader } from './package.ts';
import type { Package } from './types.ts';

/** The embedded folder of packages (repository-relative), see scripts/embed.ts. */
export const EMBEDDED_SKILLS = 'skills';

/**
 * The packages built into the program. They come from the generated manifest
 * of text imports, so they are the same bytes under `bun run`, `bun test` and
 * the compiled binary, with no file beside the executable.
 */
export function embeddedPackages(): Outcome<readonly Package[]> {
  const folders = [...new Set(assetPaths(EMBEDDED_SKILLS).map((path) => path.split('/')[1]!))];
  const packages: Package[] = [];
  for (const folder of folders) {
    const read: PackageReader = (rel) => assetBytes(`${EMBEDDED_SKILLS}/${folder}/${rel}`);
    const parsed = parsePackage(folder, { kind: 'embedded' }, read);
    if (!parsed.ok) return parsed;
    packages.push(parsed.value);
  }
  return ok(packages);
}

/**
 * Reads files of one package folder on disk. A path that resolves (through
 * symlinks too) outside the folder reads as absent: a package cannot pull in
 * bytes it does not contain.
 */
export function diskReader(folder: string): PackageReader {
  const root = realpathSync(folder);
  return (rel) => {
    const path = join(root, rel);
    if (!existsSync(path)) return undefined;
    const real = realpathSync(path);
    if (!real.startsWith(root + sep) || !statSync(real).isFile()) return undefined;
    return new Uint8Array(readFileSync(real));
  };
}

/**
 * Reads a folder of package folders (`--skills DIR`). Every non-hidden
 * sub-folder must be a valid package; DIR itself must not be one (pass its parent).
 */
export function packagesInDir(dir: string): Outcome<readonly Package[]> {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: not a directory`);
  }
  if (existsSync(join(abs, 'SKILL.md'))) {
    return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: this is a package itself; pass the folder that contains package folders`);
  }
  const packages: Package[] = [];
  const folders: string[] = [];
  for (const name of readdirSync(abs).filter((entry) => !entry.startsWith('.')).sort()) {
    // A symlink that leads nowhere (dangling, or a loop) may be a package the user expects: refuse by name, never skip it silently.
    const isFolder = folderOrBroken(join(abs, name));
    if (isFolder === 'broken') return fail('invalid_arguments', 'bad_skills_dir', `--skills ${dir}: ${name} is a symlink that leads nowhere (dangling, or a loop)`);
    if (isFolder) folders.push(name);
  }
  for (const folder of folders) {
    const path = join(abs, folder);
    const parsed = parsePackage(folder, { kind: 'dir', path }, diskReader(path));
    if (!parsed.ok) return parsed;
    packages.push(parsed.value);
  }
  return ok(packages);
}

/** Whether an entry is a folder (following symlinks), or `broken` when it is a symlink that cannot be followed. */
function folderOrBroken(path: string): boolean | 'broken' {
  try {
    return statSync(path).isDirectory();
  } catch {
    return 'broken';
  }
}

function originText(pkg: Package): string {
  return pkg.origin.kind === 'embedded' ? 'embedded' : pkg.origin.path;
}

/**
 * All packages: the embedded ones (unless `embedded: false`) and those in
 * each `--skills` dir, in that order. The first bad package refuses the whole
 * set, as does a name given twice — a name must mean one method.
 */
export function discoverPackages(options: { readonly dirs?: readonly string[]; readonly embedded?: boolean } = {}): Outcome<readonly Package[]> {
  const sources = [
    ...(options.embedded === false ? [] : [embeddedPackages]),
    ...(options.dirs ?? []).map((dir) => () => packagesInDir(dir)),
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
