/**
 * Keeps the data flow honest: contract → binding → pipeline → mcp → harness →
 * tasks (excerpt, expectations) → cli, with skill, ledger, report (on ledger) and platform (OS calls) as side
 * rails, base (plain shared helpers) beneath everything, and cross-layer
 * imports only through a layer's index.ts. Inside mcp the layers are wire
 * first, then client and server (apart: they meet only on the wire), probe
 * on the client and the wire, config on the wire. No generic folder imports a
 * task; the CLI's registry is the one file that names one.
 *
 * What a file loads is read from the bundler: `Bun.build`'s metafile over
 * every source of src, scripts, test and fixtures (static, dynamic and
 * data imports). Type-only imports are erased before it, so TypeScript's own
 * scanner adds them; a `new URL('…', import.meta.url)` or
 * `join(import.meta.dir, '…')` reference to a file is an edge too. Each
 * `testing/` folder is a layer of its own, above the layer it belongs to:
 * nothing shipped imports it. Tests (`*.test.ts`) are not layered.
 */
import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { scratchDir } from '../test/scratch.ts';

/** mcp's layers, each a sub-folder of src/mcp with its own index.ts; src/mcp/index.ts is the folder's surface. */
const MCP_LAYERS: readonly string[] = ['wire', 'tasks', 'client', 'server', 'probe', 'config'];

/**
 * What each shipped layer may import; base imports nothing of caplab. A layer
 * not listed has no rule, which is itself a violation. Everyone may import
 * the data folders (fixtures, skills). Outside mcp, mcp is reached only
 * through src/mcp/index.ts.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  base: [],
  assets: ['base'],
  contract: ['base'],
  platform: ['base'],
  binding: ['base', 'contract'],
  pipeline: ['base', 'contract', 'binding', 'platform'],
  'mcp/wire': ['base', 'contract', 'binding', 'platform'],
  // MCP 2025-11-25 tasks (the client's engine, the shapes serve answers with), on the wire only.
  'mcp/tasks': ['base', 'contract', 'mcp/wire'],
  'mcp/client': ['base', 'contract', 'binding', 'pipeline', 'platform', 'mcp/wire', 'mcp/tasks'],
  'mcp/server': ['base', 'contract', 'mcp/wire', 'mcp/tasks'],
  'mcp/probe': ['base', 'contract', 'platform', 'mcp/wire', 'mcp/tasks', 'mcp/client', 'mcp/config'],
  // The tool-name rule (binding/tool-name.ts) also maps server keys.
  'mcp/config': ['base', 'contract', 'binding', 'mcp/wire'],
  mcp: ['base', 'contract', 'binding', 'pipeline', 'platform', 'mcp/wire', 'mcp/tasks', 'mcp/client', 'mcp/server', 'mcp/probe', 'mcp/config'],
  skill: ['base', 'contract', 'assets'],
  ledger: ['base', 'contract'],
  // caplab report's page: drawn from verify's verdict and the record, read through the ledger's bounded reader.
  report: ['base', 'contract', 'ledger'],
  harness: ['base', 'contract', 'binding', 'pipeline', 'mcp', 'skill', 'ledger', 'assets', 'platform', 'version.ts'],
  // A task builds on the generic folders and implements the harness's Task.
  excerpt: ['base', 'contract', 'binding', 'pipeline', 'assets', 'ledger', 'mcp', 'harness'],
  expectations: ['base', 'contract', 'pipeline', 'ledger', 'mcp', 'harness'],
  // Only the registry (cli/tasks.ts) may take a task folder: the task rule holds that. Only the CLI names the program's entry.
  cli: ['base', 'contract', 'binding', 'pipeline', 'excerpt', 'expectations', 'mcp', 'harness', 'skill', 'ledger', 'report', 'assets', 'platform', 'version.ts', 'main.ts'],
  'version.ts': [],
  // The library's root entry (package.json exports "."): names from the generic folders' surfaces, never a task or the CLI.
  'index.ts': ['contract', 'binding', 'pipeline', 'mcp', 'skill', 'ledger', 'harness'],
  // The process entry: the CLI or the guard process (test/module-graph.test.ts holds what it loads).
  'main.ts': ['cli', 'platform'],
  // The library's example contracts, written as a library user writes them.
  fixtures: ['contract'],
  skills: [],
};

/** Layers that load other layers' files directly, not through their index.ts, and why. */
const REACH_IN: Readonly<Record<string, string>> = {
  'main.ts': 'it loads only the guard protocol before it picks CLI or guard (a module that imports nothing)',
  scripts: 'build, bench and mutation tooling measure and name internals',
  test: 'the golden runs and the module-graph test drive commands and read the build',
};

/** Above everything: they may import any layer. Nothing in src imports them (no row names them but a testing one naming `test`). */
const TOOLING: readonly string[] = ['scripts', 'test'];
/** Plain data and examples any layer may import, file by file. */
const DATA: readonly string[] = ['fixtures', 'skills'];
/** What a testing layer may take beyond its own layer's rule, and why. */
const TESTING_EXTRA: Readonly<Record<string, readonly string[]>> = {
  // The harness's kits drive whole runs of the one task there is.
  'harness/testing': ['excerpt'],
};

/** The folders every task builds on. Any other folder of src is a task (a plug-in, today `excerpt` and `expectations`). */
const GENERIC: readonly string[] = ['base', 'assets', 'contract', 'platform', 'binding', 'pipeline', 'mcp', 'skill', 'ledger', 'report', 'harness', 'cli'];
/** The one file that imports tasks: the CLI's registry picks the task. */
const REGISTRY = 'src/cli/tasks.ts';

/** The layer a repo path belongs to: `cli`, `mcp/wire`, `mcp/wire/testing`, `main.ts`, `scripts` …; undefined outside them. */
function layerOf(path: string): string | undefined {
  const parts = path.split('/');
  if (TOOLING.includes(parts[0]!) || DATA.includes(parts[0]!)) return parts[0];
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  if (parts.length === 2) return parts[1];
  const sub = parts[1] === 'mcp' && parts.length > 3 && MCP_LAYERS.includes(parts[2]!);
  const layer = sub ? `mcp/${parts[2]}` : parts[1]!;
  return parts.slice(sub ? 3 : 2, -1).includes('testing') ? `${layer}/testing` : layer;
}

/** The one file other layers may import of a layer: its index.ts (a top-level file is its own). */
function surfaceOf(layer: string): string {
  return layer.endsWith('.ts') ? `src/${layer}` : `src/${layer}/index.ts`;
}

/** Whether `path` is a surface of its layer: the layer's index.ts, or the index.ts of a sub-folder of it (`pipeline/settings/index.ts`). */
const isSurface = (path: string, layer: string): boolean => path === surfaceOf(layer) || (!layer.endsWith('.ts') && path.endsWith('/index.ts'));

const isTesting = (layer: string): boolean => layer.endsWith('/testing');
const parentOf = (layer: string): string => layer.slice(0, -'/testing'.length);
/** The task folder a layer belongs to, if it is one (`excerpt`, `excerpt/testing`). */
const taskOf = (layer: string): string | undefined => {
  const top = layer.split('/')[0]!;
  return top.endsWith('.ts') || TOOLING.includes(top) || DATA.includes(top) || GENERIC.includes(top) ? undefined : top;
};

/**
 * What `layer` may import, among the layers that exist. A testing layer sits
 * above its own: it may take that layer (file by file), whatever that layer
 * may take, the testing layers of any of those, and the repo's test helpers.
 */
function allowedFor(layer: string, layers: ReadonlySet<string>): ReadonlySet<string> | 'any' | undefined {
  if (TOOLING.includes(layer)) return 'any';
  if (!isTesting(layer)) return ALLOWED[layer] ? new Set(ALLOWED[layer]) : undefined;
  const own = ALLOWED[parentOf(layer)];
  if (!own) return undefined;
  const below = [parentOf(layer), ...own, ...(TESTING_EXTRA[layer] ?? [])];
  const kits = [...layers].filter((other) => isTesting(other) && below.some((b) => parentOf(other) === b || parentOf(other).startsWith(`${b}/`)));
  return new Set([...below, ...kits, 'test']);
}

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly how: 'import' | 'type import' | 'url';
}

/** Literal paths a file names relative to itself: `new URL('…', import.meta.url)` and `join(import.meta.dir, '…', …)`. */
function urlReferences(text: string): string[] {
  const url = [...text.matchAll(/new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[2]!);
  const dir = [...text.matchAll(/\b(?:join|resolve)\(\s*import\.meta\.dir((?:\s*,\s*(['"])[^'"]*\2)+)\s*\)/g)].map((m) => join(...[...m[1]!.matchAll(/(['"])([^'"]*)\1/g)].map((p) => p[2]!)));
  return [...url, ...dir];
}

/** Every edge between files of `root` (repo-relative paths): the bundler's, TypeScript's type-only ones, and URL references to files. */
async function edgesOf(root: string): Promise<{ files: readonly string[]; edges: readonly Edge[] }> {
  const files = [...new Bun.Glob('{src,scripts,test,fixtures}/**/*.ts').scanSync(root)].filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.d.ts')).sort();
  const built = await Bun.build({ entrypoints: files.map((f) => join(root, f)), target: 'bun', packages: 'external', metafile: true, throw: false });
  if (!built.success || !built.metafile) throw new Error(`Bun.build: ${built.logs.join('\n')}`);
  const meta = (typeof built.metafile === 'string' ? JSON.parse(built.metafile) : built.metafile) as { inputs: Record<string, { imports: { path: string; external?: boolean }[] }> };
  // metafile paths are relative to the working directory.
  const key = (path: string) => relative(root, resolve(path));
  const edges: Edge[] = [];
  for (const [path, input] of Object.entries(meta.inputs)) {
    for (const i of input.imports) if (!i.external) edges.push({ from: key(path), to: key(i.path), how: 'import' });
  }
  const loads = new Set(edges.map((e) => `${e.from}\n${e.to}`));
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const at = (spec: string) => relative(root, resolve(root, dirname(file), spec));
    // What TypeScript's scanner sees that the bundler did not load: type-only imports.
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (fileName.startsWith('.') && !loads.has(`${file}\n${at(fileName)}`)) edges.push({ from: file, to: at(fileName), how: 'type import' });
    }
    for (const spec of urlReferences(text)) {
      const target = resolve(root, dirname(file), spec);
      if (existsSync(target) && statSync(target).isFile()) edges.push({ from: file, to: at(spec), how: 'url' });
    }
  }
  return { files, edges };
}

/** Why an edge is wrong, if it is. */
function judge(edge: Edge, layers: ReadonlySet<string>): string | undefined {
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (from === undefined || edge.to.includes('node_modules/')) return undefined;
  const shown = `${edge.from} → ${edge.to} (${edge.how})`;
  if (to === undefined) return `${shown}: outside every layer`;
  const task = taskOf(to);
  if (task !== undefined && taskOf(from) !== task && !isTesting(from) && !TOOLING.includes(from) && edge.from !== REGISTRY) return `${shown}: only ${REGISTRY} imports a task`;
  if (to === from || DATA.includes(to)) return undefined;
  const allowed = allowedFor(from, layers);
  if (allowed === undefined) return `${shown}: layer ${from} has no rule`;
  if (allowed !== 'any' && !allowed.has(to)) return `${shown}: ${from} may not import ${to} (it may import: ${[...allowed].join(', ') || 'nothing'})`;
  const direct = isTesting(to) || TOOLING.includes(to) || REACH_IN[from] !== undefined || (isTesting(from) && parentOf(from) === to);
  if (!direct && !isSurface(edge.to, to)) return `${shown}: reaches into ${to} instead of ${surfaceOf(to)}`;
  return undefined;
}

/** Every layer rule an edge of `root` breaks. */
async function violations(root: string): Promise<{ files: readonly string[]; edges: readonly Edge[]; found: string[] }> {
  const { files, edges } = await edgesOf(root);
  const layers = new Set(files.map(layerOf).filter((layer) => layer !== undefined));
  const found = [...new Set(edges.map((edge) => judge(edge, layers)).filter((why) => why !== undefined))].sort();
  return { files, edges, found };
}

/** Writes a synthetic tree (path → text) in a scratch folder and returns its root. */
function tree(files: Readonly<Record<string, string>>): string {
  const root = scratchDir('caplab-arch-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const repo = join(import.meta.dir, '..');

test('every layer imports only the layers below it, through their index.ts; every testing/ folder is a layer of its own', async () => {
  const { files, edges, found } = await violations(repo);
  expect(found).toEqual([]);
  // The check reads the real graph: its sources, lazy units, type-only imports and URL references.
  expect(files.filter((f) => f.startsWith('src/')).length).toBeGreaterThan(200);
  expect(edges).toContainEqual({ from: 'src/mcp/client/index.ts', to: 'src/mcp/client/session.ts', how: 'import' });
  expect(edges).toContainEqual({ from: 'src/mcp/client/client.ts', to: 'src/binding/index.ts', how: 'type import' });
  expect(edges).toContainEqual({ from: REGISTRY, to: 'src/main.ts', how: 'url' });
  expect(edges.some((e) => e.from.startsWith('scripts/') && e.to.startsWith('src/'))).toBe(true);
  expect([...new Set(files.map(layerOf))].filter((layer) => layer?.endsWith('/testing')).sort()).toEqual([
    'cli/testing', 'excerpt/testing', 'harness/testing', 'ledger/testing', 'mcp/client/testing', 'mcp/probe/testing', 'mcp/tasks/testing', 'mcp/wire/testing', 'pipeline/testing', 'platform/testing',
  ]);
});

test('the check catches a wrong-way import between mcp layers, however it is written: static, type-only, side-effect, dynamic, re-exported, or past an index', async () => {
  const root = tree({
    'src/mcp/wire/index.ts': `export { frame } from './frame.ts';\n`,
    'src/mcp/wire/frame.ts': `import { session } from '../client/index.ts';\nexport const frame = (): unknown => session;\n`,
    'src/mcp/wire/types.ts': `import type {\n  Session,\n} from "../client/index.ts";\nexport type T = Session;\n`,
    'src/mcp/wire/lazy.ts': `export const lazy = async (): Promise<unknown> => (await import( '../server/index.ts' )).serve;\n`,
    'src/mcp/client/index.ts': `export const session = 1;\nexport type Session = number;\nexport * from './reexport.ts';\n`,
    'src/mcp/client/reexport.ts': `export { serve } from '../server/index.ts';\n`,
    'src/mcp/server/index.ts': `import { frame } from '../wire/frame.ts';\nexport const serve = frame;\n`,
    'src/mcp/server/side.ts': `import '../client/index.ts';\n`,
    'src/mcp/probe/index.ts': `import { session } from '../client/index.ts';\nimport { frame } from '../wire/index.ts';\nexport const probe = [session, frame];\n`,
  });
  const { found } = await violations(root);
  expect(found).toEqual([
    'src/mcp/client/reexport.ts → src/mcp/server/index.ts (import): mcp/client may not import mcp/server (it may import: base, contract, binding, pipeline, platform, mcp/wire, mcp/tasks)',
    'src/mcp/server/index.ts → src/mcp/wire/frame.ts (import): reaches into mcp/wire instead of src/mcp/wire/index.ts',
    'src/mcp/server/side.ts → src/mcp/client/index.ts (import): mcp/server may not import mcp/client (it may import: base, contract, mcp/wire, mcp/tasks)',
    'src/mcp/wire/frame.ts → src/mcp/client/index.ts (import): mcp/wire may not import mcp/client (it may import: base, contract, binding, platform)',
    'src/mcp/wire/lazy.ts → src/mcp/server/index.ts (import): mcp/wire may not import mcp/server (it may import: base, contract, binding, platform)',
    // Erased before the bundler sees it: only TypeScript's scanner finds it.
    'src/mcp/wire/types.ts → src/mcp/client/index.ts (type import): mcp/wire may not import mcp/client (it may import: base, contract, binding, platform)',
  ]);
});

test('the check catches a new URL (or import.meta.dir path) to the CLI entry from a lower layer, and lets the CLI name it', async () => {
  const root = tree({
    'src/main.ts': `export {};\n`,
    'src/mcp/wire/launch.ts': `export const ENTRY: string = new URL('../../main.ts', import.meta.url).pathname;\n`,
    'src/excerpt/fixture.ts': `import { join } from 'node:path';\nexport const ENTRY: string = join(import.meta.dir, '..', 'main.ts');\n`,
    'src/cli/tasks.ts': `export const ENTRY: string = new URL("../main.ts", import.meta.url).pathname;\n`,
    // A URL to a folder, or to nothing, names no module.
    'src/harness/root.ts': `export const ROOT: string = new URL('..', import.meta.url).pathname + new URL('./gone.ts', import.meta.url).pathname;\n`,
  });
  const { found } = await violations(root);
  expect(found).toEqual([
    `src/excerpt/fixture.ts → src/main.ts (url): excerpt may not import main.ts (it may import: ${ALLOWED['excerpt']!.join(', ')})`,
    `src/mcp/wire/launch.ts → src/main.ts (url): mcp/wire may not import main.ts (it may import: ${ALLOWED['mcp/wire']!.join(', ')})`,
  ]);
});

test('testing/ is a layer: nothing shipped imports it, a kit takes only what its layer may (and the repo test helpers), and its own layer file by file', async () => {
  const root = tree({
    'test/scratch.ts': `export const scratch = 1;\n`,
    'src/pipeline/index.ts': `export { stage } from './stage.ts';\n`,
    'src/pipeline/stage.ts': `import { kit } from './testing/kit.ts';\nexport const stage = kit;\n`,
    'src/pipeline/testing/kit.ts': `import { scratch } from '../../../test/scratch.ts';\nimport { inner } from '../inner.ts';\nexport const kit = [scratch, inner];\n`,
    'src/pipeline/inner.ts': `export const inner = 2;\n`,
    'src/mcp/wire/index.ts': `export const wire = 3;\n`,
    'src/mcp/wire/testing/fake.ts': `import { session } from '../../client/index.ts';\nexport const fake = session;\n`,
    'src/mcp/client/index.ts': `import { wire } from '../wire/index.ts';\nexport const session = wire;\n`,
    'src/mcp/client/testing/kit.ts': `import { fake } from '../../wire/testing/fake.ts';\nimport { inner } from '../../../pipeline/inner.ts';\nexport const kit = [fake, inner];\n`,
    'src/ledger/sample.ts': `import { scratch } from '../../test/scratch.ts';\nexport const sample = scratch;\n`,
    'src/platform/x.ts': `import { run } from '../../scripts/run.ts';\nexport const x = run;\n`,
    'scripts/run.ts': `import { inner } from '../src/pipeline/inner.ts';\nexport const run = inner;\n`,
  });
  const { found } = await violations(root);
  const rule = (from: string, to: string) => found.filter((why) => why.startsWith(`${from} → ${to} (import)`)).map((why) => why.split(': ')[1]!.split(' (')[0]);
  expect(rule('src/pipeline/stage.ts', 'src/pipeline/testing/kit.ts')).toEqual(['pipeline may not import pipeline/testing']);
  expect(rule('src/mcp/wire/testing/fake.ts', 'src/mcp/client/index.ts')).toEqual(['mcp/wire/testing may not import mcp/client']);
  expect(rule('src/mcp/client/testing/kit.ts', 'src/pipeline/inner.ts')).toEqual(['reaches into pipeline instead of src/pipeline/index.ts']);
  expect(rule('src/ledger/sample.ts', 'test/scratch.ts')).toEqual(['ledger may not import test']);
  expect(rule('src/platform/x.ts', 'scripts/run.ts')).toEqual(['platform may not import scripts']);
  // What is allowed: a kit's repo helpers and its own layer's files, another layer's kit below, scripts reaching in.
  expect(found.filter((why) => /^(src\/pipeline\/testing|scripts)\//.test(why) || why.startsWith('src/mcp/client/testing/kit.ts → src/mcp/wire/testing'))).toEqual([]);
  expect(found).toHaveLength(5);
});

test('no generic folder imports a task: only the registry does, and any folder not generic is a task', async () => {
  const root = tree({
    'src/excerpt/index.ts': `import { host } from '../harness/index.ts';\nexport const task = host;\n`,
    'src/excerpt/server/index.ts': `export const serve = 1;\n`,
    'src/harness/index.ts': `export const host = 1;\n`,
    'src/harness/x.ts': `import { task } from '../excerpt/index.ts';\nexport const x = task;\n`,
    'src/mcp/wire/y.ts': `export const y = async (): Promise<unknown> => (await import('../../excerpt/server/index.ts')).serve;\n`,
    'src/cli/tasks.ts': `export const load = async (): Promise<unknown> => (await import('../excerpt/index.ts')).task;\n`,
    'src/cli/other.ts': `import { task } from '../excerpt/index.ts';\nexport const other = task;\n`,
    'src/quiz/index.ts': `export const quiz = 1;\n`,
    'src/main.ts': `import { quiz } from './quiz/index.ts';\nexport const main = quiz;\n`,
  });
  const { found } = await violations(root);
  const tasks = found.filter((why) => why.includes('only src/cli/tasks.ts imports a task')).map((why) => why.split(' (')[0]);
  expect([...new Set(tasks)]).toEqual(['src/cli/other.ts → src/excerpt/index.ts', 'src/harness/x.ts → src/excerpt/index.ts', 'src/main.ts → src/quiz/index.ts', 'src/mcp/wire/y.ts → src/excerpt/server/index.ts']);
  expect(found.some((why) => why.startsWith('src/cli/tasks.ts'))).toBe(false);
});

// Short functions (issue 21): no function of the harness's own code runs past 50 lines.

/** Lines a function may span, from its first token (doc comment excluded) to its closing brace. */
const MAX_FUNCTION_LINES = 50;

/** The name a function goes by: its own, else the variable, property or class member it is assigned to. */
function functionName(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  const named = node.name ?? (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent) ? node.parent.name : undefined);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return named ? named.getText(source) : '<anonymous>';
}

/**
 * Every function, method, accessor, constructor and arrow of a source text
 * longer than `max` lines (nested ones on their own, and inside their outer
 * function's count), as `file:line name (N lines)`.
 */
function longFunctions(text: string, fileName: string, max = MAX_FUNCTION_LINES): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > max) found.push(`${fileName}:${first + 1} ${functionName(node, source)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
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
