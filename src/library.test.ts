/**
 * The library surface (SPEC F-HOST): README's "Use as a library" example
 * type-checks and runs exactly as printed, importing only through package.json
 * `exports` (the package's self-reference, `caplab` and `caplab/…`); the root
 * entry exports a deliberate list; and a task with only `id`, `prompt`, `tools`
 * and `acceptance` runs through `createHost` with both models and `verify`
 * re-checks each by the task its record names.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import pkg from '../package.json' with { type: 'json' };
import { scratchDir } from '../test/scratch.ts';
import { sha256Hex } from './contract/index.ts';
import { readEvents } from './ledger/test-kit.ts';
import { createHost, defineTool, localProvider, ok, parseReplay, replayModel, Scenario, scriptedModel, textBlock, verify, type AcceptanceCheck, type Task } from './index.ts';

const root = join(import.meta.dir, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const section = readme.split(/^## /m).find((part) => part.startsWith('Use as a library\n'));

/** The ts code block and the text block after it in README's "Use as a library" section. */
function readmeExample(): { code: string; output: string } {
  if (!section) throw new Error('README has no "Use as a library" section');
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  expect(blocks.map((b) => b.lang)).toEqual(['ts', 'text']);
  return { code: blocks[0]!.body, output: blocks[1]!.body };
}

/** `import { a, type B, c } from 'caplab…'` → { 'caplab…': ['a', 'c'] }: the values the example takes. */
function valueImports(code: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const m of code.matchAll(/^import\s*\{([^}]*)\}\s*from\s*'(caplab(?:\/[^']+)?)'/gm)) {
    const names = m[1]!.split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type '));
    found[m[2]!] = [...(found[m[2]!] ?? []), ...names];
  }
  return found;
}

/**
 * Writes `code` as a file inside the checkout, so `caplab…` resolves through
 * this package.json's exports (its self-reference), and hands its folder to
 * `use`; the folder is removed after.
 */
async function inCheckout<T>(code: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(root, '.tmp', `library-example-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, 'example.ts'), code);
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

async function spawned(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn(argv, { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

test("README's library example is at most 25 lines with no cast, runs from inside the checkout as printed, and prints what README says", async () => {
  const { code, output } = readmeExample();
  expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(25);
  // A namespace import (`import * as v`) is no cast; any other `as` is.
  expect(code.replace(/^import \* as \w+ from /gm, 'import ').match(/\bas\b/g)).toBeNull();
  for (const needed of ['defineTool(', 'createHost()', 'scriptedModel(', 'verify(']) expect(code).toContain(needed);
  // The task it defines has exactly id, prompt, tools and acceptance.
  expect([...(code.match(/const task: Task = \{([\s\S]*?)\n\};/)?.[1] ?? '').matchAll(/(?:^|[{,]\s*|\n\s*)(\w+):/g)].map((m) => m[1]).filter((k) => ['id', 'prompt', 'tools', 'acceptance', 'grant', 'method', 'start', 'requestFields', 'artifact'].includes(k!))).toEqual(['id', 'prompt', 'tools', 'acceptance']);
  const run = await inCheckout(code, (dir) => spawned([process.execPath, join(dir, 'example.ts')], dir));
  expect(run).toEqual({ code: 0, stdout: output, stderr: '' });
});

test("README's library example type-checks as printed, through the package's own exports", async () => {
  const { code } = readmeExample();
  const checked = await inCheckout(code, async (dir) => {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['example.ts', '../../src/assets/text.d.ts'], exclude: [] }));
    return { dir, ...(await spawned([join(root, 'node_modules/.bin/tsc'), '--noEmit', '--listFiles', '-p', dir], root)) };
  });
  expect([checked.code, checked.stdout.split('\n').filter((line) => line.includes('error TS'))]).toEqual([0, []]);
  // The program held the example and reached the library through `caplab` (the exports map), not a path.
  const files = checked.stdout.split('\n').map((line) => line.trim());
  expect(files).toContain(join(checked.dir, 'example.ts'));
  expect(files).toContain(join(root, 'src/index.ts'));
}, 120_000); // one tsc over the library's program, seconds

test('the example imports caplab only through the exports map', () => {
  const { code } = readmeExample();
  const specifiers = [...code.matchAll(/from\s*'([^']+)'/g)].map((m) => m[1]!);
  expect(specifiers.filter((s) => s !== 'valibot' && s !== 'caplab' && !s.startsWith('caplab/'))).toEqual([]);
  const subpaths = Object.keys(valueImports(code)).map((s) => (s === 'caplab' ? '.' : `./${s.slice('caplab/'.length)}`));
  expect(subpaths).toEqual(['.']);
  for (const subpath of subpaths) expect(Object.keys(pkg.exports)).toContain(subpath);
});

test('every exports entry resolves through the package name and exposes what the example uses', async () => {
  const used = valueImports(readmeExample().code);
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const specifier = subpath === '.' ? 'caplab' : `caplab/${subpath.slice(2)}`;
    expect(Bun.resolveSync(specifier, import.meta.dir)).toBe(join(root, target));
    const surface: Record<string, unknown> = await import(specifier);
    expect(Object.keys(surface).length).toBeGreaterThan(0);
    for (const name of used[specifier] ?? []) expect({ name, defined: surface[name] !== undefined }).toEqual({ name, defined: true });
  }
});

/** Names a surface file exports: `export { a, b as c }` and `export type { … }` lines, as [values, types]. */
function exportedNames(surface: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  for (const m of surface.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    for (const item of m[2]!.split(',').map((n) => n.trim()).filter((n) => n !== '')) {
      const name = item.replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!;
      (m[1] || item.startsWith('type ') ? types : values).push(name);
    }
  }
  return { values: values.sort(), types: types.sort() };
}

test('the root entry is a deliberate list: explicit named exports, types under `export type`, nothing else', async () => {
  const surface = readFileSync(join(root, 'src/index.ts'), 'utf8');
  expect(surface).not.toMatch(/^export\s+\*/m);
  expect(surface).not.toMatch(/^export\s+(?:async\s+)?(?:function|const|class|interface|type\s+\w)/m);
  const { values, types } = exportedNames(surface);
  // What a library user takes at run time is exactly the value list; every type is erased.
  expect(Object.keys(await import('caplab')).sort()).toEqual(values);
  expect(values).toEqual(['Scenario', 'createHost', 'defineTool', 'fail', 'loadReplay', 'loadScenario', 'localProvider', 'ok', 'parseReplay', 'replayModel', 'runTask', 'scriptedModel', 'summaryOf', 'textBlock', 'verify']);
  expect(types).toEqual(['AcceptanceCheck', 'Contract', 'Failure', 'Host', 'HostOptions', 'HostRunOptions', 'HostedTask', 'LocalTool', 'Model', 'Outcome', 'RecheckReport', 'Replay', 'RunEnding', 'RunOptions', 'RunOutcome', 'RunVerification', 'Task', 'ToolDefinition', 'ToolProvider']);
  // README's paragraph on the root entry names only what it exports.
  const paragraph = section?.split('\n\n').find((part) => part.startsWith('The root entry')) ?? '';
  const named = [...paragraph.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
  expect(named.length).toBeGreaterThan(10);
  for (const name of named) expect({ name, exported: [...values, ...types].includes(name) }).toEqual({ name, exported: true });
});

test("the section's bullets name only what their entry exports (values and types)", () => {
  const bullets = [...section!.matchAll(/^- `caplab\/(\w+)`([\s\S]*?)(?=^- |^\n)/gm)];
  expect(bullets.map((b) => b[1])).toEqual(['pipeline', 'mcp', 'harness']);
  for (const [, folder, text] of bullets) {
    const surface = readFileSync(join(root, 'src', folder!, 'index.ts'), 'utf8');
    const exported = new Set([...surface.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().replace(/^type\s+/, ''))));
    for (const m of surface.matchAll(/^export\s+(?:async\s+)?(?:function|const|class|interface|type)\s+(\w+)/gm)) exported.add(m[1]!);
    const named = [...text!.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect({ name, exported: exported.has(name) }).toEqual({ name, exported: true });
  }
});

// An echo task through the root entry alone: only id, prompt, tools and acceptance.
const echo = defineTool({
  contract: {
    name: 'echo',
    version: '1.0.0',
    discovery: 'Echo a word.',
    description: 'Returns the word it is given.',
    input: v.strictObject({ word: v.pipe(v.string(), v.minLength(1)) }),
    result: v.strictObject({ echoed: v.string() }),
    effect: 'read',
    readOnly: true,
    destructive: false,
    idempotent: true,
    concurrencySafe: true,
    openWorld: false,
    identity: 'test',
    preconditions: [],
    limits: { timeoutMs: 1000, maxResultBytes: 64 },
    completionEvidence: 'bytes computed now',
    errorClasses: ['invalid_arguments'],
  },
  version: 'echo/1',
  handler: async ({ word }) => ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes computed now' }),
});
const echoed = (calls: readonly { name: string; outcome: { ok: boolean } }[]): AcceptanceCheck[] => {
  const n = calls.filter((c) => c.name === 'echo' && c.outcome.ok).length;
  return [{ id: 'echoed', object: 'echo calls', condition: 'an echo call succeeded', evidence: `${n} successful`, verdict: n > 0 ? 'pass' : 'fail' }];
};
const echoTask: Task = {
  id: 'echo',
  prompt: { user: 'Echo one word.', rule: 'Echo exactly once.' },
  tools: () => [localProvider([echo])],
  acceptance: { live: (run) => ({ checks: echoed(run.calls), files: [], fields: {} }), recorded: (run) => ok(echoed(run.calls)) },
};
/** Another task, so that verify must pick the echo task by the id its record names (it is listed first). */
const otherTask: Task = { ...echoTask, id: 'other', acceptance: { ...echoTask.acceptance, recorded: () => ok([{ ...echoed([])[0]!, id: 'other' }]) } };

const usage = { input_tokens: 1, output_tokens: 1 };
const scenario = v.parse(Scenario, {
  name: 'echo-once',
  description: 'echo, then done',
  expect: { accepted: true },
  responses: [{ tool_calls: [{ id: 't1', name: 'echo', arguments: { word: 'hi' } }], usage }, { text: 'done', usage }],
});
const replayText = [
  { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test-1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: { word: 'hi' } }], stop_reason: 'tool_use', usage: { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 3 } },
  { id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-test-1', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage: { input_tokens: 20, output_tokens: 2 } },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

test('a task with only id, prompt, tools and acceptance runs through createHost with both models, and verify re-checks each by the task its record names', async () => {
  expect(Object.keys(echoTask).sort()).toEqual(['acceptance', 'id', 'prompt', 'tools']);
  const responses = parseReplay(replayText, 'echo.replay.jsonl');
  if (!responses.ok) throw new Error(responses.message);
  const replay = { file: 'echo.replay.jsonl', sha256: sha256Hex(replayText), bytes: new TextEncoder().encode(replayText).byteLength, responses: responses.value };
  const cwd = scratchDir('caplab-library-');
  const host = createHost({ cwd });
  for (const [label, model] of [['scripted', scriptedModel(scenario)], ['replayed', replayModel(replay)]] as const) {
    const run = await host.run(echoTask, model, { runId: `echo-${label}` });
    if (!run.ok) throw new Error(`${run.kind}: ${run.message}`);
    expect([run.value.runDir, run.value.model.origin, run.value.ending, run.value.loop.calls.map((c) => c.outcome.ok)]).toEqual([join(cwd, 'caplab-runs', `echo-${label}`), label, { type: 'accepted' }, [true]]);
    const start = readEvents(run.value.runDir).find((e) => e['type'] === 'run_start')!;
    expect([start['task'], (start['model'] as { name: string }).name]).toEqual(['echo', label === 'scripted' ? 'scripted:echo-once' : 'replayed:claude-test-1']);
    const verified = verify(run.value.runDir, [otherTask, echoTask]);
    expect(verified.ok ? verified.value.recheck : verified.message).toEqual({ decided: true, accepted: true, checks: echoed([{ name: 'echo', outcome: { ok: true } }]) });
    // Without the task its record names, the record does not verify.
    const without = verify(run.value.runDir, [otherTask]);
    expect(without.ok ? 'verified' : [without.kind, without.message]).toEqual(['unknown_task', 'run_start names task "echo", which this caplab does not know']);
  }
});
