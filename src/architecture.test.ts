/**
 * Keeps the data flow honest: contract → binding → pipeline → mcp → harness →
 * tasks (excerpt) → cli, with skill, ledger and platform (OS calls) as side rails, base (plain shared
 * helpers) beneath everything, and cross-folder imports only through a folder's index.ts. No
 * generic folder imports a task; the CLI's registry is the one file that names one. Scans the
 * shipped (non-test) sources.
 */
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What each folder may import; base imports nothing of caplab, and every folder may import base. Anything not listed is a wrong-way dependency. */
const ALLOWED: Record<string, readonly string[]> = {
  base: [],
  assets: ['base'],
  contract: ['base'],
  platform: ['base'],
  binding: ['base', 'contract'],
  pipeline: ['base', 'contract', 'binding', 'platform'],
  mcp: ['base', 'contract', 'binding', 'pipeline', 'platform'],
  skill: ['base', 'contract', 'assets'],
  ledger: ['base', 'contract'],
  harness: ['base', 'contract', 'binding', 'pipeline', 'mcp', 'skill', 'ledger', 'assets', 'platform', 'version.ts'],
  // A task builds on the generic folders and implements the harness's Task.
  excerpt: ['base', 'contract', 'binding', 'pipeline', 'assets', 'ledger', 'mcp', 'harness'],
  // Only the registry (cli/tasks.ts) may take a task folder: the next test holds that.
  cli: ['base', 'contract', 'binding', 'pipeline', 'excerpt', 'mcp', 'harness', 'skill', 'ledger', 'assets', 'platform', 'version.ts'],
};

/**
 * Relative module specifiers a file loads: `import … from`, `export … from`,
 * bare `import '…'` and dynamic `import('…')`, in either quote style.
 */
function relativeImports(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.[^'"]*)\1/g;
  return [...text.matchAll(pattern)].map((m) => m[2]!);
}

const src = import.meta.dir;
const shipped = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'))
  .map((e) => relative(src, join(e.parentPath, e.name)))
  .filter((path) => path.includes('/') && !path.includes('/testing/') && !path.endsWith('test-kit.ts') && !path.endsWith('test-io.ts') && !path.endsWith('sample-run.ts'));

test('every folder imports only the folders upstream of it, through their index.ts', () => {
  const violations: string[] = [];
  for (const path of shipped) {
    const folder = path.split('/')[0]!;
    const allowed = ALLOWED[folder];
    if (!allowed) {
      violations.push(`${path}: folder ${folder} has no entry in ALLOWED`);
      continue;
    }
    for (const spec of relativeImports(readFileSync(join(src, path), 'utf8'))) {
      const target = relative(src, join(src, path, '..', spec));
      if (target.startsWith('..')) {
        // Embedded files (assets) and the library's example contracts (cli tools) live outside src.
        if (!/^\.\.\/(fixtures|skills)\//.test(target)) violations.push(`${path} imports ${spec} outside src`);
        continue;
      }
      const [top, ...rest] = target.split('/');
      if (top === folder) continue;
      if (!allowed.includes(top!)) violations.push(`${path} imports ${top} (${folder} may import: ${allowed.join(', ') || 'nothing'})`);
      else if (rest.length > 0 && !rest.at(-1)!.endsWith('index.ts')) violations.push(`${path} reaches into ${target} instead of ${top}/index.ts`);
    }
  }
  expect(violations).toEqual([]);
  expect(shipped.length).toBeGreaterThan(50);
});

/**
 * The folders every task builds on. Any other folder of src is a task (a plug-in, today `excerpt`):
 * a new task folder is covered without touching this list.
 */
const GENERIC: readonly string[] = ['base', 'assets', 'contract', 'platform', 'binding', 'pipeline', 'mcp', 'skill', 'ledger', 'harness', 'cli'];
/** The one file that imports tasks: the CLI's registry picks the task. */
const REGISTRY = 'cli/tasks.ts';
/** Every folder of src holding shipped code. */
const FOLDERS = [...new Set(shipped.map((path) => path.split('/')[0]!))];

/** Each (file, task folder) pair where a generic file (or a top-level one, main.ts) loads a task. */
function taskImports(files: readonly string[], read: (path: string) => string): string[] {
  const found: string[] = [];
  for (const path of files) {
    const folder = path.includes('/') ? path.split('/')[0]! : '.';
    if (folder !== '.' && !GENERIC.includes(folder)) continue;
    if (path === REGISTRY) continue;
    for (const spec of relativeImports(read(path))) {
      const [top] = relative(src, join(src, path, '..', spec)).split('/');
      if (top !== undefined && top !== '..' && FOLDERS.includes(top) && !GENERIC.includes(top)) found.push(`${path} imports ${top}`);
    }
  }
  return found;
}

test('no generic folder imports a task: only the registry imports one', () => {
  const topLevel = readdirSync(src).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'));
  const tasks = FOLDERS.filter((folder) => !GENERIC.includes(folder));
  expect(tasks).toContain('excerpt');
  expect(taskImports([...shipped, ...topLevel], (path) => readFileSync(join(src, path), 'utf8'))).toEqual([]);
  // The rule can see what it forbids, for any folder that is not generic.
  const fake: Record<string, string> = { 'harness/x.ts': `import { t } from '../excerpt/index.ts';`, 'mcp/y.ts': `const m = await import('../excerpt/server/index.ts');`, [REGISTRY]: `import { t } from '../excerpt/index.ts';`, 'excerpt/z.ts': `import { h } from '../harness/index.ts';` };
  expect(taskImports(Object.keys(fake), (path) => fake[path]!)).toEqual(['harness/x.ts imports excerpt', 'mcp/y.ts imports excerpt']);
});

test('the scan sees every way a file loads a module', () => {
  const text = [
    `import { a } from './static.ts';`,
    `import type { B } from "../double/index.ts";`,
    `import {\n  c,\n  d,\n} from '../multi/index.ts';`,
    `export { e } from './reexport.ts';`,
    `export * from "../star/index.ts";`,
    `import './side-effect.ts';`,
    `const m = await import('../dynamic/x.ts');`,
    `const n = await import( "../dynamic-double/y.ts" );`,
    `import { join } from 'node:path';`,
    `const word = 'imported from elsewhere';`,
  ].join('\n');
  expect(relativeImports(text)).toEqual([
    './static.ts',
    '../double/index.ts',
    '../multi/index.ts',
    './reexport.ts',
    '../star/index.ts',
    './side-effect.ts',
    '../dynamic/x.ts',
    '../dynamic-double/y.ts',
  ]);
});
