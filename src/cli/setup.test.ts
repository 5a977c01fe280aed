import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolNames } from '../pipeline/index.ts';
import { cli } from './cli.ts';
import { offeredTools } from '../harness/index.ts';
import { testIo } from './test-io.ts';
import { excerptTask } from '../excerpt/index.ts';
import type { TaskRun } from '../harness/index.ts';
import { withTools } from '../harness/testing/replace-tool.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { loadTask } from './tasks.ts';
import { excerptCli } from './testing/excerpt-cli.ts';

const hooks = join(import.meta.dir, '../../fixtures/hooks');
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const scratch = mkdtempSync(join(tmpdir(), 'caplab-setup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const fresh = () => mkdtempSync(join(scratch, `${dirs++}-`));

/** A settings file with one PreToolUse command hook that always blocks (exit 2). */
function blockingSettings(matcher: string): string {
  const path = join(fresh(), 'settings.json');
  const hook = { type: 'command', command: `sh ${join(hooks, 'exit-with.sh')} 2` };
  writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [hook] }] } }));
  return path;
}

async function demo(args: string[]) {
  const io = testIo(fresh(), env);
  const code = await cli(['demo', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const bound = (runDir: string): string[] => {
  const lines = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8').trim().split('\n');
  const start = lines.map((line) => JSON.parse(line)).find((e) => e.type === 'run_start');
  return start.bindings.flatMap((b: any) => toolNames({ binding: b, contract: b.contract })).sort();
};

test('over MCP, a hook matcher mcp__caplab-fixture__read_source blocks the MCP read: permission_denied/hook', async () => {
  const { code, out } = await demo(['--json', '--run-id', 'hook-mcp', '--settings', blockingSettings('mcp__caplab-fixture__read_source')]);
  const doc = JSON.parse(out);
  expect([code, doc.transport]).toEqual([1, 'mcp']);
  const reads = doc.calls.filter((c: any) => c.name === 'read_source');
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) {
    expect([read.result.class, read.result.kind, read.handler_entered, read.hooks[0].exitCode]).toEqual(['permission_denied', 'hook', false, 2]);
  }
});

test('--deny-tool=mcp__fixture__read_source names an unknown server: exit 2 naming what exists, nothing runs', async () => {
  const { code, out, err } = await demo(['--deny-tool=mcp__fixture__read_source']);
  expect(code).toBe(2);
  expect(err).toContain('invalid_arguments/unknown_name');
  expect(err).toContain('--deny-tool=mcp__fixture__read_source');
  expect(err).toContain('mcp__caplab-fixture__read_source');
  expect(err).toContain('known servers: mcp__caplab-fixture');
  expect(out).not.toContain('req-01');
});

test.each([
  [['--allow-tool=read_sauce'], 'read_sauce'],
  [['--transport', 'local', '--deny-tool=mcp__caplab-fixture'], 'known servers: (none)'],
  [['--transport', 'local', '--settings', join(hooks, 'deny-rule.settings.json'), '--deny-tool=mcp__caplab-fixture__read_source'], 'transport local'],
])('unknown names in rules and flags are usage errors: %p', async (args, says) => {
  const { code, err } = await demo(args);
  expect(code).toBe(2);
  expect(err).toContain(says);
});

test('an mcp__ hook matcher naming nothing known is a usage error; a plain one is a notice', async () => {
  const mcp = await demo(['--settings', blockingSettings('mcp__fixture__.*')]);
  expect(mcp.code).toBe(2);
  expect(mcp.err).toContain('PreToolUse hook matcher "mcp__fixture__.*"');
  const plain = await demo(['--transport', 'local', '--json', '--settings', blockingSettings('Bash')]);
  expect(plain.code).toBe(0);
  expect(plain.err).toContain('caplab: PreToolUse hook matcher "Bash"');
  expect(plain.err).toContain('matches no tool of this run');
});

test('offeredTools names exactly what a run binds, for each transport', async () => {
  const excerpt = await loadTask({ envSource: env });
  for (const transport of ['local', 'mcp'] as const) {
    const { code, out } = await demo(['--transport', transport, '--json', '--run-id', `names-${transport}`]);
    expect(code).toBe(0);
    const expected = offeredTools(transport === 'mcp' ? excerpt.overMcp! : excerpt.task).flatMap((tool) => toolNames(tool)).sort();
    expect(bound(JSON.parse(out).run_dir)).toEqual(expected);
  }
});

test('a task whose providers offer one name twice is a usage error before any work: nothing opened, no run dir', async () => {
  let opened = 0;
  const twice = withTools(excerptTask, (run) => [...excerptTask.tools(run), ...excerptTask.tools(run)].map((p) => ({ offers: p.offers, open: (at: TaskRun) => (opened++, p.open(at)) })));
  const cwd = fresh();
  const io = testIo(cwd, env);
  const flags = parseRunFlags(['--transport', 'local', '--run-id', 'twice'], 'demo', excerptCli());
  if (!flags.ok) throw new Error(flags.message);
  expect(await runCommand(flags.value, io, { ...excerptCli(), task: twice })).toBe(2);
  expect(io.err()).toContain('invalid_arguments/duplicate_tool: two tools of this run answer to "read_source"');
  expect([io.out(), opened, readdirSync(cwd)]).toEqual(['', 0, []]);
});
