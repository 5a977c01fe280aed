/**
 * The build's check of the library surface (after Hono's validate-exports):
 * every `exports` entry of package.json is `./NAME` → `./src/NAME/index.ts`,
 * and that file exists. A folder's index.ts is its only surface (the
 * architecture test keeps cross-folder imports on it), so an entry that points
 * anywhere else would hand a library user a private file.
 *
 * Usage: bun scripts/check-exports.ts (exits 1 and names each problem)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What is wrong with a package.json `exports` field; empty when nothing is. */
export function exportsProblems(pkg: unknown, exists: (relPath: string) => boolean): string[] {
  const map = (pkg as { exports?: unknown } | null)?.exports;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return ['package.json has no `exports` object'];
  const entries = Object.entries(map);
  if (entries.length === 0) return ['package.json `exports` is empty'];
  const problems: string[] = [];
  for (const [key, target] of entries) {
    const name = /^\.\/([a-z][a-z0-9-]*)$/.exec(key)?.[1];
    if (name === undefined) {
      problems.push(`${key}: an entry is ./FOLDER (one folder of src)`);
      continue;
    }
    const expected = `./src/${name}/index.ts`;
    if (target !== expected) problems.push(`${key}: points to ${JSON.stringify(target)}, not its folder's surface ${expected}`);
    else if (!exists(expected)) problems.push(`${key}: ${expected} does not exist`);
  }
  return problems;
}

if (import.meta.main) {
  const root = join(import.meta.dir, '..');
  const problems = exportsProblems(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), (rel) => existsSync(join(root, rel)));
  for (const problem of problems) console.error(`exports: ${problem}`);
  process.exit(problems.length === 0 ? 0 : 1);
}
