/**
 * Each command loads only what it needs (SPEC "Non-functional", issue 15): the module graph as the
 * bundler sees it (Bun.build's metafile; type-only imports are erased before it, so they do not count).
 * main.ts loads either the CLI or, re-invoked with the guard's argument, the guard process alone.
 * A command loads main.ts's static closure, the CLI's, the modules cli.ts imports for it, and the
 * lazy units (`import()` inside a function) that command calls.
 */
import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { scratchDir } from './scratch.ts';

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
/** The strict client's lazy units (src/mcp/client/index.ts): the task's fixture server, in every run. */
const STRICT_SESSION = ['src/mcp/client/session.ts', 'src/mcp/client/client.ts', 'src/mcp/client/strict-session.ts'];
/** The strict client over HTTP to a `serve --http` it spawned (src/mcp/client/session.ts loads it): `--transport http` only. */
const HTTP_CLIENT = 'src/mcp/client/http-client.ts';
/** The host profile's lazy units (src/mcp/client/index.ts `openHostClient`, `openHttpHostClient`, `startHostSession`): configured servers only. */
const HOST_SESSION = ['src/mcp/client/host-client.ts', 'src/mcp/client/host-http-client.ts', 'src/mcp/client/host-session.ts'];
/** Of those, what only an http entry loads (`openHttpHostClient`): a config of stdio entries never evaluates it. */
const HTTP_ONLY = ['src/mcp/client/host-http-client.ts'];
/** A listed tool's schema compiled with Ajv (src/mcp/probe/index.ts `loadListedValidator`): a lazy unit of its own. */
const LISTED_SCHEMA = 'src/mcp/probe/listed-schema.ts';
/** main.ts makes the commands that start processes a child subreaper, importing platform for them only. */
const GUARDED = ['src/platform/index.ts'];
/** The task's two entries, each loaded by the registry (src/cli/tasks.ts) on first use: the host side and the fixture server. */
const TASK = { host: 'src/excerpt/index.ts', server: 'src/excerpt/server/index.ts' };
/**
 * What `--mcp-config` adds to a command: the CLI's configured-servers path (src/cli/configured.ts, imported
 * where the flag is read: run-command.ts, check-command.ts through check-servers.ts, info-commands.ts through
 * tools-servers.ts, cli.ts through scenario-new.ts, whose one command always reads it), the host session and
 * Ajv's listed-schema unit. Without the flag no command loads any of them.
 */
const WITH_CONFIG = { run: ['src/cli/configured.ts'], check: ['src/cli/check-servers.ts', 'src/cli/configured.ts'], tools: ['src/cli/tools-servers.ts', ...GUARDED], scenario: ['src/cli/scenario-new.ts', ...GUARDED] };
const CONFIGURED_PATH = [...HOST_SESSION, LISTED_SCHEMA];
const MCP_CONFIG_UNITS: readonly string[] = [...new Set([...Object.values(WITH_CONFIG).flat().filter((m) => !GUARDED.includes(m)), ...CONFIGURED_PATH])];
const RUN = ['src/cli/run-command.ts', 'src/harness/index.ts', TASK.host, ...STRICT_SESSION, ...GUARDED];
const CHECK = ['src/cli/check-command.ts', 'src/harness/index.ts', TASK.host, ...STRICT_SESSION, ...GUARDED];
const TOOLS = ['src/cli/info-commands.ts', TASK.host];
/** `check --scenarios DIR`: the files' cases, a lazy unit of check-command.ts. */
const CHECK_SCENARIOS = 'src/cli/check-scenarios.ts';
/** The expectations task (src/cli/tasks.ts loads it for a scenario or a record of it, with Ajv for `output_valid`). */
const EXPECTATIONS = ['src/expectations/index.ts', LISTED_SCHEMA];
/** What cli.ts imports per command, the task entry it loads, and the lazy units of the MCP client and prober (src/mcp/client/index.ts, src/mcp/probe/index.ts) that command calls. */
const COMMANDS: Record<string, readonly string[]> = {
  '--version/--help': [],
  demo: RUN,
  run: RUN,
  'demo --transport http': [...RUN, HTTP_CLIENT],
  'run --mcp-config': [...RUN, ...WITH_CONFIG.run, ...CONFIGURED_PATH],
  check: CHECK,
  'check --mcp-config': [...CHECK, ...WITH_CONFIG.check, ...CONFIGURED_PATH],
  tools: TOOLS,
  'tools --mcp-config': [...TOOLS, ...WITH_CONFIG.tools, ...CONFIGURED_PATH],
  'scenario new': [...WITH_CONFIG.scenario, ...CONFIGURED_PATH],
  skills: ['src/cli/info-commands.ts', TASK.host],
  agents: ['src/cli/agents-command.ts', TASK.host],
  serve: [TASK.server],
  // serve's flags load their own file, and the HTTP framing (a lazy unit of the server engine, src/mcp/server/index.ts).
  'serve --http': ['src/cli/serve-command.ts', TASK.server, 'src/mcp/server/serve-http.ts'],
  // probe --fuzz and --fuzz-replay load their units (src/mcp/probe/index.ts `runFuzz`, `replayFuzz`) when asked for.
  probe: ['src/cli/probe-command.ts', 'src/mcp/probe/probe.ts', 'src/mcp/probe/fuzz/fuzz-run.ts', 'src/mcp/probe/fuzz/fuzz-replay.ts', ...GUARDED],
  verify: ['src/cli/verify-command.ts', TASK.host],
  // verify loads the task its record names: an expectations record loads that task, and Ajv with it.
  'verify (expectations record)': ['src/cli/verify-command.ts', ...EXPECTATIONS],
  // report verifies as verify does (the same recheck, loaded the same way), then draws the page (src/report).
  report: ['src/cli/report-command.ts', TASK.host],
  'run --scenario (expectations) --mcp-config': [...RUN, ...WITH_CONFIG.run, ...CONFIGURED_PATH, ...EXPECTATIONS],
  // check-command.ts loads the folder's path (check-scenarios.ts) only with --scenarios; it reads the config, and the expectations task for its files.
  'check --scenarios --mcp-config': [...CHECK, CHECK_SCENARIOS, ...WITH_CONFIG.run, ...CONFIGURED_PATH, ...EXPECTATIONS],
};
/** The commands that read no `--mcp-config` (demo refuses it; verify, skills, serve and probe have no such flag; `scenario new` always reads one). */
const WITHOUT_CONFIG = ['--version/--help', 'demo', 'demo --transport http', 'run', 'check', 'tools', 'skills', 'agents', 'serve', 'serve --http', 'verify', 'report'];
/** The commands that read `--mcp-config`: each loads the configured-servers path, the host session and Ajv. */
const CONFIGURED = ['run --mcp-config', 'check --mcp-config', 'check --scenarios --mcp-config', 'tools --mcp-config', 'scenario new'];

const isPackage = (name: string) => (m: string) => m.includes(`node_modules/${name}/`);
/** Either SDK (1.x `sdk`; v2's `server`, `client` and their `core`) or zod: test-only peers, never loaded by a command. */
const sdkOrZod = (m: string) => ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/core', 'zod'].some((name) => isPackage(name)(m));
const isClient = (m: string) => STRICT_SESSION.includes(m) || m === HTTP_CLIENT || HOST_SESSION.includes(m);
const isHost = (m: string) => m.startsWith('src/harness/') || isClient(m) || /^src\/cli\/(run|check|verify|probe)-command\.ts$/.test(m);

const graph = await graphOf('src/main.ts');
const base = closure(graph, ['src/main.ts']);
const loads = Object.fromEntries(Object.entries(COMMANDS).map(([name, units]) => [name, new Set([...base, ...closure(graph, [CLI, ...units])])]));
const guardLoads = new Set([...base, ...closure(graph, [GUARD])]);

test('every lazy import is accounted for: main.ts\'s two entries, cli.ts per command, the task registry and the lazy units of the MCP client and prober', () => {
  const everything = closure(graph, ['src/main.ts'], true);
  const known = new Set([CLI, GUARD, ...Object.values(COMMANDS).flat()]);
  const targets = dynamicTargets(graph, everything);
  expect([...targets].filter((m) => !known.has(m)).sort()).toEqual([]);
  // A unit no command calls yet is a lazy target the bundler leaves out of its inputs; a name that is neither is stale.
  expect([...known].filter((m) => !graph.edges.has(m) && !targets.has(m))).toEqual([]);
});

test('no command reaches an @modelcontextprotocol SDK (1.x or v2) or zod module at run time, even lazily', () => {
  expect([...closure(graph, ['src/main.ts'], true)].filter(sdkOrZod)).toEqual([]);
  // playwright-core drives the report's browser tests only (test/report-browser.mjs): no command reaches it.
  expect([...closure(graph, ['src/main.ts'], true)].filter(isPackage('playwright-core'))).toEqual([]);
});

test('only probe, the --mcp-config commands and verify of an expectations record load ajv; --version/--help, verify, report and serve load nothing of the MCP client', () => {
  const withAjv = Object.entries(loads).filter(([, mods]) => [...mods].some(isPackage('ajv'))).map(([name]) => name);
  expect(withAjv.sort()).toEqual([...CONFIGURED, 'probe', 'run --scenario (expectations) --mcp-config', 'verify (expectations record)'].sort());
  for (const name of ['--version/--help', 'verify', 'report', 'serve', 'serve --http']) expect({ name, client: [...loads[name]!].filter(isClient) }).toEqual({ name, client: [] });
});

/** The host profile's modules: what the lazy host units bring on top of a plain run (host-info.ts, two constants, is not among them). */
const hostOnly = [...new Set(HOST_SESSION.flatMap((unit) => [...closure(graph, [unit])]))].filter((m) => !loads['run']!.has(m));

test('without --mcp-config no command loads Ajv, listed-schema.ts, the host session or the CLI\'s configured-servers path; with it, run, check, tools and scenario new load them all', () => {
  for (const name of WITHOUT_CONFIG) {
    const mods = [...loads[name]!];
    // The host's name and version (bindings and verify name them) are constants in host-info.ts, a module that imports nothing.
    const host = mods.filter((m) => /^src\/mcp\/client\/host-/.test(m) && m !== 'src/mcp/client/host-info.ts');
    expect({ name, ajv: mods.filter(isPackage('ajv')), units: mods.filter((m) => MCP_CONFIG_UNITS.includes(m) || hostOnly.includes(m)), host }).toEqual({ name, ajv: [], units: [], host: [] });
  }
  expect(graph.edges.get('src/mcp/client/host-info.ts')).toEqual([]);
  // The check can see what it forbids: the host session is more than its two entry units, and each --mcp-config row has it all.
  expect(hostOnly.filter((m) => m.startsWith('src/mcp/client/host-')).length).toBeGreaterThan(HOST_SESSION.length);
  for (const name of CONFIGURED) {
    const mods = loads[name]!;
    expect({ name, missing: [...CONFIGURED_PATH, ...hostOnly, 'src/cli/configured.ts'].filter((m) => !mods.has(m)), ajv: [...mods].some(isPackage('ajv')) }).toEqual({ name, missing: [], ajv: true });
  }
});

test('the configured-servers path is reached only through dynamic imports: no module outside it imports any of it statically', () => {
  const inward = [...graph.edges].flatMap(([from, edges]) => edges.filter((e) => !e.dynamic && MCP_CONFIG_UNITS.includes(e.path) && !MCP_CONFIG_UNITS.includes(from)).map((e) => `${from} -> ${e.path}`));
  expect(inward).toEqual([]);
  // Who opens each door: the lazy edges into the path come from the modules that read --mcp-config (and the loaders of the MCP surface).
  const doors = [...graph.edges].flatMap(([from, edges]) => edges.filter((e) => e.dynamic && MCP_CONFIG_UNITS.includes(e.path)).map((e) => `${from} -> ${e.path}`));
  expect([...new Set(doors)].sort()).toEqual([
    'src/cli/check-command.ts -> src/cli/check-servers.ts',
    'src/cli/check-scenarios.ts -> src/cli/configured.ts',
    'src/cli/cli.ts -> src/cli/scenario-new.ts',
    'src/cli/info-commands.ts -> src/cli/tools-servers.ts',
    'src/cli/run-command.ts -> src/cli/configured.ts',
    'src/mcp/client/index.ts -> src/mcp/client/host-client.ts',
    'src/mcp/client/index.ts -> src/mcp/client/host-http-client.ts',
    'src/mcp/client/index.ts -> src/mcp/client/host-session.ts',
    'src/mcp/probe/index.ts -> src/mcp/probe/listed-schema.ts',
  ]);
});

test("the listed-schema unit's closure has Ajv, and the MCP surface reaches it only lazily", async () => {
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

test('the guard process loads only its program, its protocol, the platform value and the process-group helpers; of the built-ins only node:fs', () => {
  expect([...guardLoads].sort()).toEqual(['src/main.ts', 'src/platform/guard-process.ts', 'src/platform/guard-protocol.ts', 'src/platform/platform.ts', 'src/platform/proc.ts', 'src/platform/process-group.ts']);
  expect(graph.edges.get('src/platform/platform.ts')).toEqual([]);
  expect([...new Set([...guardLoads].flatMap((m) => graph.builtins.get(m) ?? []))]).toEqual(['node:fs']);
  // The check can see what it forbids: the client side (guard.ts, with the subreaper's bun:ffi) is in every run command.
  expect(loads['run']!.has('src/platform/guard.ts')).toBe(true);
});

test('--version/--help loads no pipeline, MCP, harness, platform (but the guard\'s argument) or package; serve loads nothing of the host', () => {
  const allowed = (m: string) => m.startsWith('src/cli/') || m.startsWith('src/base/') || ['src/main.ts', 'src/version.ts', 'src/platform/guard-protocol.ts'].includes(m);
  expect([...loads['--version/--help']!].filter((m) => !allowed(m))).toEqual([]);
  expect([...loads['serve']!].filter(isHost)).toEqual([]);
  expect([...loads['serve --http']!].filter(isHost)).toEqual([]);
  // Plain serve (stdio) loads none of the HTTP framing or serve's flags.
  expect([...loads['serve']!].filter((m) => m === 'src/mcp/server/serve-http.ts' || m === 'src/cli/serve-command.ts')).toEqual([]);
  // The check can see what it forbids: the host commands do load the host.
  expect([...loads['demo']!].filter(isHost).length).toBeGreaterThan(5);
});

test("the task's fixture server and its host side load apart: serve loads no task index, no host command loads the server", () => {
  const serverSide = (m: string) => m.startsWith(TASK.server.replace(/index\.ts$/, ''));
  expect([...loads['serve']!].filter((m) => m === TASK.host)).toEqual([]);
  expect([...loads['serve --http']!].filter((m) => m === TASK.host)).toEqual([]);
  expect([...loads['serve']!].some(serverSide)).toBe(true);
  for (const name of ['demo', 'run', 'check', 'tools', 'skills', 'verify', 'report']) expect({ name, server: [...loads[name]!].filter(serverSide) }).toEqual({ name, server: [] });
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

/**
 * The rows above are the graph's reading of what each command calls; this runs the commands and asks Bun
 * what they evaluated (`require.cache` holds every module loaded, ES modules too), written at exit by a preload.
 */
async function loadedBy(args: readonly string[], dir: string, name: string): Promise<{ code: number; stderr: string; loaded: Set<string> }> {
  const out = join(dir, `loaded-${name.replace(/\W+/g, '-')}.json`);
  const preload = join(dir, 'preload.ts');
  writeFileSync(preload, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { if (process.env.LOADED_OUT) writeFileSync(`${process.env.LOADED_OUT}.${process.pid}`, JSON.stringify(Object.keys(require.cache))); });\n");
  const proc = Bun.spawn([process.execPath, '--preload', preload, join(root, 'src/main.ts'), ...args], { cwd: root, env: { ...process.env, LOADED_OUT: out }, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  // Named by pid: the file of caplab's own process, not of any process it starts.
  const loaded = new Set<string>((JSON.parse(readFileSync(`${out}.${proc.pid}`, 'utf8')) as string[]).map((m) => relative(root, m)));
  return { code, stderr, loaded };
}

test('run as processes, the commands without --mcp-config evaluate none of the configured-servers path or Ajv, those with it all of it, and none evaluates a module of ours the graph leaves out', async () => {
  const dir = scratchDir('caplab-loaded-');
  const config = 'fixtures/examples/everything.mcp.json';
  const scenario = ['--scenario', 'fixtures/scenarios/happy.json'];
  const lines: Record<string, readonly string[]> = {
    demo: ['demo', '--out', join(dir, 'demo')],
    run: ['run', ...scenario, '--out', join(dir, 'run')],
    check: ['check', '--out', join(dir, 'check')],
    tools: ['tools'],
    'run --mcp-config': ['run', ...scenario, '--mcp-config', config, '--out', join(dir, 'run-config')],
    'check --mcp-config': ['check', '--mcp-config', config, '--out', join(dir, 'check-config')],
    'check --scenarios --mcp-config': ['check', '--scenarios', 'fixtures/examples', '--mcp-config', config, '--out', join(dir, 'check-scenarios')],
    'tools --mcp-config': ['tools', '--mcp-config', config],
    'scenario new': ['scenario', 'new', '--mcp-config', config, '--out', join(dir, 'starter.scenario.json')],
  };
  const runs = Object.fromEntries(await Promise.all(Object.entries(lines).map(async ([name, args]) => [name, await loadedBy(args, dir, name)] as const)));
  runs['verify'] = await loadedBy(['verify', join(dir, 'demo')], dir, 'verify');
  runs['report'] = await loadedBy(['report', join(dir, 'demo'), '--out', join(dir, 'demo.report.html')], dir, 'report');
  const ours = (m: string) => /^(src|fixtures)\/.*\.ts$/.test(m);
  for (const [name, { code, stderr, loaded }] of Object.entries(runs)) {
    const config = MCP_CONFIG_UNITS.filter((m) => loaded.has(m)).concat(hostOnly.filter((m) => loaded.has(m)));
    expect({ name, code, stderr: code === 0 ? '' : stderr, unlisted: [...loaded].filter((m) => ours(m) && !loads[name]!.has(m)), ajv: [...loaded].some(isPackage('ajv')) }).toEqual({ name, code: 0, stderr: '', unlisted: [], ajv: CONFIGURED.includes(name) });
    // The config has stdio entries only: the HTTP host client stays unloaded.
    expect({ name, http: HTTP_ONLY.filter((m) => loaded.has(m)) }).toEqual({ name, http: [] });
    if (CONFIGURED.includes(name)) expect({ name, missing: [...CONFIGURED_PATH, ...hostOnly].filter((m) => !loaded.has(m) && !HTTP_ONLY.includes(m)) }).toEqual({ name, missing: [] });
    else expect({ name, config }).toEqual({ name, config: [] });
  }
});
