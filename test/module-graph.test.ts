/**
 * Each command loads only what it needs (SPEC "Non-functional", issue 15): the module graph as the
 * bundler sees it (Bun.build's metafile; type-only imports are erased before it, so they do not count).
 * main.ts loads either the CLI or, re-invoked with the guard's argument, the guard process alone.
 * A command loads main.ts's static closure, the CLI's, the modules cli.ts imports for it, and the
 * lazy units (`import()` inside a function) that command calls.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = join(import.meta.dir, '..');

interface Graph {
  readonly edges: ReadonlyMap<string, readonly { path: string; dynamic: boolean }[]>;
  /** Runtime built-ins (`node:fs`, `bun:ffi`) each module imports statically. */
  readonly builtins: ReadonlyMap<string, readonly string[]>;
}

async function graphOf(entry: string): Promise<Graph> {
  const built = await Bun.build({ entrypoints: [join(root, entry)], target: 'bun', metafile: true, throw: false });
  if (!built.success || !built.metafile) throw new Error(`Bun.build ${entry}: ${built.logs.join('\n')}`);
  const meta = typeof built.metafile === 'string' ? JSON.parse(built.metafile) : built.metafile;
  // metafile paths are relative to the working directory; keys here are relative to the repo root.
  const key = (path: string) => relative(root, resolve(path));
  const edges = new Map<string, { path: string; dynamic: boolean }[]>();
  const builtins = new Map<string, string[]>();
  for (const [path, input] of Object.entries<{ imports: { path: string; kind: string; external?: boolean; original?: string }[] }>(meta.inputs)) {
    edges.set(
      key(path),
      input.imports.filter((i) => !i.external).map((i) => ({ path: key(i.path), dynamic: i.kind === 'dynamic-import' })),
    );
    // Bun reports `node:fs` as path `fs` with the specifier as written in `original`.
    builtins.set(key(path), input.imports.filter((i) => i.external && i.kind !== 'dynamic-import').map((i) => i.original ?? i.path));
  }
  return { edges, builtins };
}

/** Modules evaluated when `from` is imported: static edges only (or every edge, with `dynamic`). */
function closure(graph: Graph, from: readonly string[], dynamic = false): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const edge of graph.edges.get(at) ?? []) if (dynamic || !edge.dynamic) stack.push(edge.path);
  }
  return seen;
}

const dynamicTargets = (graph: Graph, within: Set<string>) =>
  new Set([...within].flatMap((m) => (graph.edges.get(m) ?? []).filter((e) => e.dynamic).map((e) => e.path)));

/** main.ts's two lazy entries: the CLI (every command) and the guard process (platform/guard.ts starts it). */
const CLI = 'src/cli/index.ts';
const GUARD = 'src/platform/guard-process.ts';
const HOST_SESSION = ['src/mcp/client/session.ts', 'src/mcp/client/client.ts', 'src/mcp/client/strict-session.ts', 'src/mcp/client/host-client.ts', 'src/mcp/client/host-session.ts'];
/** main.ts makes the commands that start processes a child subreaper, importing platform for them only. */
const GUARDED = ['src/platform/index.ts'];
/** The task's two entries, each loaded by the registry (src/cli/tasks.ts) on first use: the host side and the fixture server. */
const TASK = { host: 'src/excerpt/index.ts', server: 'src/excerpt/server/index.ts' };
/** What cli.ts imports per command, the task entry it loads, and the lazy units of the MCP client and prober (src/mcp/client/index.ts, src/mcp/probe/index.ts) that command calls. */
const COMMANDS: Record<string, readonly string[]> = {
  '--version/--help': [],
  demo: ['src/cli/run-command.ts', 'src/harness/index.ts', TASK.host, ...HOST_SESSION, ...GUARDED],
  run: ['src/cli/run-command.ts', 'src/harness/index.ts', TASK.host, ...HOST_SESSION, ...GUARDED],
  check: ['src/cli/check-command.ts', 'src/harness/index.ts', TASK.host, ...HOST_SESSION, ...GUARDED],
  tools: ['src/cli/info-commands.ts', TASK.host],
  skills: ['src/cli/info-commands.ts', TASK.host],
  serve: [TASK.server],
  probe: ['src/cli/probe-command.ts', 'src/mcp/probe/probe.ts', ...GUARDED],
  verify: ['src/cli/verify-command.ts', TASK.host],
};

/** A listed tool's schema compiled with Ajv (src/mcp/probe/index.ts `listedValidator`): a lazy unit of its own. */
const LISTED_SCHEMA = 'src/mcp/probe/listed-schema.ts';
/**
 * The lazy units only configured servers (`--mcp-config`) need, on top of a command's own: a command row for
 * the flag lists them; without the flag no command loads them (and so no Ajv).
 */
const MCP_CONFIG_UNITS: readonly string[] = [LISTED_SCHEMA];

const isPackage = (name: string) => (m: string) => m.includes(`node_modules/${name}/`);
const sdkOrZod = (m: string) => isPackage('@modelcontextprotocol/sdk')(m) || isPackage('zod')(m);
const isHost = (m: string) => m.startsWith('src/harness/') || HOST_SESSION.includes(m) || /^src\/cli\/(run|check|verify|probe)-command\.ts$/.test(m);

const graph = await graphOf('src/main.ts');
const base = closure(graph, ['src/main.ts']);
const loads = Object.fromEntries(Object.entries(COMMANDS).map(([name, units]) => [name, new Set([...base, ...closure(graph, [CLI, ...units])])]));
const guardLoads = new Set([...base, ...closure(graph, [GUARD])]);

test('every lazy import is accounted for: main.ts\'s two entries, cli.ts per command, the task registry and the lazy units of the MCP client and prober', () => {
  const everything = closure(graph, ['src/main.ts'], true);
  const known = new Set([CLI, GUARD, ...Object.values(COMMANDS).flat()]);
  const targets = dynamicTargets(graph, everything);
  expect([...targets].filter((m) => !known.has(m) && !MCP_CONFIG_UNITS.includes(m)).sort()).toEqual([]);
  // A unit no command calls yet is a lazy target the bundler leaves out of its inputs; a name that is neither is stale.
  expect([...known].filter((m) => !graph.edges.has(m) && !targets.has(m))).toEqual([]);
});

test('no command reaches an @modelcontextprotocol/sdk or zod module at run time, even lazily', () => {
  expect([...closure(graph, ['src/main.ts'], true)].filter(sdkOrZod)).toEqual([]);
});

test('only probe loads ajv; --version/--help, verify and serve load nothing of the MCP client', () => {
  const withAjv = Object.entries(loads).filter(([, mods]) => [...mods].some(isPackage('ajv'))).map(([name]) => name);
  expect(withAjv).toEqual(['probe']);
  for (const name of ['--version/--help', 'verify', 'serve']) expect({ name, client: [...loads[name]!].filter((m) => HOST_SESSION.includes(m)) }).toEqual({ name, client: [] });
});

test("without --mcp-config, demo, run, check and verify load no Ajv and no listed-schema unit; that unit's closure has Ajv", async () => {
  for (const name of ['demo', 'run', 'check', 'verify']) {
    const mods = [...loads[name]!];
    expect({ name, ajv: mods.filter(isPackage('ajv')), units: mods.filter((m) => MCP_CONFIG_UNITS.includes(m)) }).toEqual({ name, ajv: [], units: [] });
  }
  // Until a command calls it the bundler drops it from main.ts's graph; the MCP surface, as an entry, keeps every export.
  const surface = await graphOf('src/mcp/index.ts');
  expect([...closure(surface, [LISTED_SCHEMA])].some(isPackage('ajv'))).toBe(true);
  // Reached only lazily: importing the surface loads none of it, and no Ajv.
  expect([...closure(surface, ['src/mcp/index.ts'])].filter((m) => m === LISTED_SCHEMA || isPackage('ajv')(m))).toEqual([]);
  expect(closure(surface, ['src/mcp/index.ts'], true).has(LISTED_SCHEMA)).toBe(true);
});

test('main.ts loads nothing before it picks CLI or guard but the guard\'s argument (a module that imports nothing)', () => {
  expect([...base].sort()).toEqual(['src/main.ts', 'src/platform/guard-protocol.ts']);
  expect(graph.edges.get('src/platform/guard-protocol.ts')).toEqual([]);
  expect(graph.builtins.get('src/platform/guard-protocol.ts')).toEqual([]);
});

test('the guard process loads only its program, its protocol and the process-group helpers; of the built-ins only node:fs', () => {
  expect([...guardLoads].sort()).toEqual(['src/main.ts', 'src/platform/guard-process.ts', 'src/platform/guard-protocol.ts', 'src/platform/proc.ts', 'src/platform/process-group.ts']);
  expect([...new Set([...guardLoads].flatMap((m) => graph.builtins.get(m) ?? []))]).toEqual(['node:fs']);
  // The check can see what it forbids: the client side (guard.ts, with the subreaper's bun:ffi) is in every run command.
  expect(loads['run']!.has('src/platform/guard.ts')).toBe(true);
});

test('--version/--help loads no pipeline, MCP, harness, platform (but the guard\'s argument) or package; serve loads nothing of the host', () => {
  const allowed = (m: string) => m.startsWith('src/cli/') || m.startsWith('src/base/') || ['src/main.ts', 'src/version.ts', 'src/platform/guard-protocol.ts'].includes(m);
  expect([...loads['--version/--help']!].filter((m) => !allowed(m))).toEqual([]);
  expect([...loads['serve']!].filter(isHost)).toEqual([]);
  // The check can see what it forbids: the host commands do load the host.
  expect([...loads['demo']!].filter(isHost).length).toBeGreaterThan(5);
});

test("the task's fixture server and its host side load apart: serve loads no task index, no host command loads the server", () => {
  const serverSide = (m: string) => m.startsWith(TASK.server.replace(/index\.ts$/, ''));
  expect([...loads['serve']!].filter((m) => m === TASK.host)).toEqual([]);
  expect([...loads['serve']!].some(serverSide)).toBe(true);
  for (const name of ['demo', 'run', 'check', 'tools', 'skills', 'verify']) expect({ name, server: [...loads[name]!].filter(serverSide) }).toEqual({ name, server: [] });
});

test('--version/--help reaches no node:fs, node:stream, node:tty or bun:ffi: each costs a cold start milliseconds', () => {
  const costly = ['node:fs', 'node:stream', 'node:tty', 'bun:ffi'];
  const reached = [...loads['--version/--help']!].flatMap((m) => (graph.builtins.get(m) ?? []).filter((b) => costly.includes(b)).map((b) => `${m}: ${b}`));
  expect(reached).toEqual([]);
  // The check can see what it forbids: the run commands do reach them.
  expect([...loads['demo']!].some((m) => graph.builtins.get(m)?.includes('bun:ffi'))).toBe(true);
});

test('the graph check sees an SDK import, a static edge and a lazy edge', async () => {
  const sdkGraph = await graphOf('scripts/bench/sdk-server.ts');
  expect([...closure(sdkGraph, ['scripts/bench/sdk-server.ts'])].some(sdkOrZod)).toBe(true);
  expect(closure(graph, ['src/mcp/index.ts']).has('src/mcp/probe/probe.ts')).toBe(false);
  expect(closure(graph, ['src/mcp/index.ts'], true).has('src/mcp/probe/probe.ts')).toBe(true);
});

test("probe's judging worker is an entry of its own: only probe starts it, it loads ajv and one module of ours, and the binary embeds it", async () => {
  const { WORKER_ENTRIES } = await import('../scripts/build.ts');
  const everything = [...closure(graph, ['src/main.ts'], true)].filter((m) => m.startsWith('src/'));
  const text = (m: string) => readFileSync(join(root, m), 'utf8');
  // Who starts a worker: only modules that probe alone loads.
  const starters = everything.filter((m) => text(m).includes('new Worker('));
  expect(starters).toEqual(['src/mcp/probe/output-judge.ts']);
  for (const [name, mods] of Object.entries(loads)) expect({ name, starts: starters.filter((m) => mods.has(m)) }).toEqual({ name, starts: name === 'probe' ? starters : [] });
  // Every worker entry (a module that takes `self` as its global) is built into the binary, and none is imported.
  const entries = [...new Bun.Glob('src/**/*.ts').scanSync(root)].filter((m) => !m.endsWith('.test.ts') && text(m).includes('declare var self: Worker'));
  expect(entries.sort()).toEqual(WORKER_ENTRIES.map((e) => `src/${e}`).sort());
  for (const entry of entries) expect(everything.includes(entry)).toBe(false);
  // What the worker itself loads.
  const worker = await graphOf('src/mcp/probe/output-judge-worker.ts');
  const loaded = [...closure(worker, ['src/mcp/probe/output-judge-worker.ts'], true)];
  expect(loaded.filter((m) => m.startsWith('src/')).sort()).toEqual(['src/mcp/probe/output-judge-worker.ts', 'src/mcp/probe/probe-ajv.ts']);
  expect(loaded.some(isPackage('ajv'))).toBe(true);
  expect(loaded.filter(sdkOrZod)).toEqual([]);
});
