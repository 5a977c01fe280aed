/**
 * The build's check of the library surface (after Hono's validate-exports):
 * package.json `exports` has the root entry `"."` → `./src/index.ts`, and
 * every other entry is `./NAME` → `./src/NAME/index.ts`, each file present. A
 * folder's index.ts is its only surface (the architecture test keeps
 * cross-folder imports on it), so an entry that points anywhere else would
 * hand a library user a private file. And no entry reaches a test kit — a
 * file under a `testing/` folder, a `test-kit.ts` or `*-kit.ts`, a test, the
 * repo's `test/` folder, or `bun:test` — through any import the bundler sees
 * (static or dynamic; type-only imports are erased before it).
 *
 * Usage: bun scripts/check-exports.ts (exits 1 and names each problem)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The root entry and where it must point. */
export const ROOT_ENTRY = { key: '.', target: './src/index.ts' } as const;

/** What is wrong with a package.json `exports` field; empty when nothing is. */
export function exportsProblems(pkg: unknown, exists: (relPath: string) => boolean): string[] {
  const map = (pkg as { exports?: unknown } | null)?.exports;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return ['package.json has no `exports` object'];
  const entries = Object.entries(map);
  if (entries.length === 0) return ['package.json `exports` is empty'];
  const problems: string[] = Object.hasOwn(map, ROOT_ENTRY.key) ? [] : [`no root entry "${ROOT_ENTRY.key}" (→ ${ROOT_ENTRY.target})`];
  for (const [key, target] of entries) {
    const name = key === ROOT_ENTRY.key ? undefined : /^\.\/([a-z][a-z0-9-]*)$/.exec(key)?.[1];
    if (key !== ROOT_ENTRY.key && name === undefined) {
      problems.push(`${key}: an entry is ./FOLDER (one folder of src) or the root "${ROOT_ENTRY.key}"`);
      continue;
    }
    const expected = name === undefined ? ROOT_ENTRY.target : `./src/${name}/index.ts`;
    const what = name === undefined ? 'the root entry' : "its folder's surface";
    if (target !== expected) problems.push(`${key}: points to ${JSON.stringify(target)}, not ${what} ${expected}`);
    else if (!exists(expected)) problems.push(`${key}: ${expected} does not exist`);
  }
  return problems;
}

/** Whether a module (a path from the repo root, or a runtime built-in) is a test kit or test code. */
export function isKit(module: string): boolean {
  if (module === 'bun:test') return true;
  const parts = module.split('/');
  const file = parts.at(-1) ?? '';
  return parts[0] === 'test' || parts.slice(0, -1).includes('testing') || file === 'test-kit.ts' || file.endsWith('-kit.ts') || file.endsWith('.test.ts');
}

/** Import edges by module, paths from the repo root (built-ins by name). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * Each entry that reaches a test kit, with the chain of imports that gets
 * there (breadth first, so the chain is a shortest one). One problem per
 * entry: the first kit it reaches.
 */
export function kitProblems(entries: readonly { readonly key: string; readonly module: string }[], graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const { key, module } of entries) {
    const via = new Map<string, string | undefined>([[module, undefined]]);
    const queue = [module];
    for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
      if (isKit(at)) {
        const chain: string[] = [];
        for (let step: string | undefined = at; step !== undefined; step = via.get(step)) chain.unshift(step);
        problems.push(`${key}: reaches the test kit ${at} (${chain.join(' → ')}); a kit stays out of every exported surface`);
        break;
      }
      for (const next of graph.get(at) ?? []) {
        if (!via.has(next)) (via.set(next, at), queue.push(next));
      }
    }
  }
  return problems;
}

/** The import graph of `modules` (paths from `root`) as the bundler sees it: every static and dynamic import, built-ins by name. */
export async function importGraph(root: string, modules: readonly string[]): Promise<ImportGraph> {
  const built = await Bun.build({ entrypoints: modules.map((m) => join(root, m)), target: 'bun', metafile: true, throw: false });
  if (!built.success || !built.metafile) throw new Error(`Bun.build: ${built.logs.join('\n')}`);
  const meta = typeof built.metafile === 'string' ? JSON.parse(built.metafile) : built.metafile;
  // metafile paths are relative to the working directory; keys here are relative to the repo root.
  const key = (path: string) => relative(root, resolve(path));
  const graph = new Map<string, string[]>();
  for (const [path, input] of Object.entries<{ imports: { path: string; external?: boolean; original?: string }[] }>(meta.inputs)) {
    graph.set(key(path), input.imports.map((i) => (i.external ? (i.original ?? i.path) : key(i.path))));
  }
  return graph;
}

/** Every problem of the package at `root`: its exports map, then (if that is sound) any kit an entry reaches. */
export async function surfaceProblems(root: string): Promise<string[]> {
  const pkg: { exports?: Record<string, string> } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const problems = exportsProblems(pkg, (rel) => existsSync(join(root, rel)));
  if (problems.length > 0) return problems;
  const entries = Object.entries(pkg.exports ?? {}).map(([key, target]) => ({ key, module: relative(root, join(root, target)) }));
  return kitProblems(entries, await importGraph(root, entries.map((e) => e.module)));
}

if (import.meta.main) {
  const problems = await surfaceProblems(join(import.meta.dir, '..'));
  for (const problem of problems) console.error(`exports: ${problem}`);
  process.exit(problems.length === 0 ? 0 : 1);
}
