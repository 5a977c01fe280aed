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
  harness: ['base', 'contract', 'binding', 'pipeline', 'mcp', 'ledger', 'assets', 'platform', 'version.ts'],
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

// Short functions (issue 21): no function of the harness's own code runs past 50 lines. Its import
// sits beside the check it serves, named apart from any other import of the compiler in this file.
import typescript from 'typescript';

/** Lines a function may span, from its first token (doc comment excluded) to its closing brace. */
const MAX_FUNCTION_LINES = 50;

/** The name a function goes by: its own, else the variable, property or class member it is assigned to. */
function functionName(node: typescript.SignatureDeclaration, source: typescript.SourceFile): string {
  const named = node.name ?? (typescript.isVariableDeclaration(node.parent) || typescript.isPropertyAssignment(node.parent) || typescript.isPropertyDeclaration(node.parent) ? node.parent.name : undefined);
  if (typescript.isConstructorDeclaration(node)) return 'constructor';
  return named ? named.getText(source) : '<anonymous>';
}

/**
 * Every function, method, accessor, constructor and arrow of a source text
 * longer than `max` lines (nested ones on their own, and inside their outer
 * function's count), as `file:line name (N lines)`.
 */
function longFunctions(text: string, fileName: string, max = MAX_FUNCTION_LINES): string[] {
  const source = typescript.createSourceFile(fileName, text, typescript.ScriptTarget.Latest, true, typescript.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: typescript.Node): void => {
    if (typescript.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > max) found.push(`${fileName}:${first + 1} ${functionName(node, source)} (${lines} lines)`);
    }
    typescript.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test(`no function in src/harness (tests aside) is over ${MAX_FUNCTION_LINES} lines`, () => {
  const files = [...new Bun.Glob('harness/**/*.ts').scanSync({ cwd: import.meta.dir })].filter((path) => !path.endsWith('.test.ts')).sort();
  expect(files.length).toBeGreaterThan(30);
  expect(files.flatMap((path) => longFunctions(readFileSync(join(import.meta.dir, path), 'utf8'), `src/${path}`))).toEqual([]);
});

test('the function-length check counts every kind of function, and catches 51 lines but not 50', () => {
  const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  step(${i});`).join('\n');
  const text = [
    `/** A doc comment is not counted. */\nexport function fifty(): void {\n${body(50)}\n}`,
    `export function fiftyOne(): void {\n${body(51)}\n}`,
    `export const arrow = (): void => {\n${body(51)}\n};`,
    `export const table = { entry: function (): void {\n${body(51)}\n} };`,
    `class Run {\n  constructor() {\n${body(51)}\n  }\n  method(): void {\n${body(51)}\n  }\n  get value(): number {\n${body(51)}\n    return 1;\n  }\n}`,
    `export const outer = (): (() => void) => {\n  return () => {\n${body(51)}\n  };\n};`,
  ].join('\n');
  const found = longFunctions(text, 'x.ts').map((why) => why.replace(/^x\.ts:\d+ /, ''));
  expect(found).toEqual(['fiftyOne (51 lines)', 'arrow (51 lines)', 'entry (51 lines)', 'constructor (51 lines)', 'method (51 lines)', 'value (52 lines)', 'outer (53 lines)', '<anonymous> (51 lines)']);
  // A function signature without a body (an overload, an interface method) spans nothing to check.
  expect(longFunctions(`interface I {\n${body(60)}\n  m(): void;\n}\nexport function f(a: string): void;\n`, 'y.ts')).toEqual([]);
});
