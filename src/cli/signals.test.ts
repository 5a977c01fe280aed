/**
 * SIGINT/SIGTERM and processes that escape with setsid (SPEC F-LIMITS), on the
 * real program: caplab is spawned from source as a user runs it, signalled
 * once its hook has started, and every process it started is looked for
 * afterwards by a marker argument (polled with a deadline).
 */
import { afterEach, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { descendants, killAllWith, livingWith, setsidSleep, stillRuns, waitNoneWith } from '../platform/testing/find.ts';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const root = join(import.meta.dir, '../..');
const main = join(root, 'src/main.ts');
const misbehave = join(root, 'src/excerpt/testing/misbehave.ts');
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const markers: string[] = [];
const started: Bun.Subprocess[] = [];

/** A sleep duration no other process uses (a valid number for sleep), to find exactly this test's processes. */
function marker(): string {
  const m = `${700 + markers.length}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  markers.push(m);
  return m;
}

afterEach(async () => {
  for (const child of started.splice(0)) {
    child.kill('SIGKILL');
    await child.exited;
  }
  for (const m of markers.splice(0)) killAllWith(m);
});

async function until(condition: () => boolean, withinMs = 20_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!condition()) {
    if (performance.now() >= deadline) throw new Error('condition not met before the deadline');
    await Bun.sleep(20);
  }
}

function settings(dir: string, matcher: string, command: string): string {
  const file = join(dir, 'settings.json');
  writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command, timeout: 600 }] }] } }));
  return file;
}

function spawnCaplab(args: string[], cwd: string) {
  const child = Bun.spawn([process.execPath, main, ...args], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  started.push(child);
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]).then(([stdout, stderr, code]) => ({ stdout, stderr, code }));
  return { child, output };
}

async function verify(runDir: string) {
  const io = testIo(root);
  const code = await cli(['verify', runDir, '--json'], io);
  return { code, doc: JSON.parse(io.out()) };
}

for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  for (const transport of ['local', 'mcp'] as const) {
    test(`${signal} during a hung hook (${transport}): exit ${code}, one stderr line, no process left, the run verifies as interrupted`, async () => {
      const dir = scratchDir('caplab-signal-');
      const m = marker();
      const file = settings(dir, 'read_source', `touch ${join(dir, 'started')}; sleep ${m}`);
      const runDir = join(dir, 'run');
      const { child, output } = spawnCaplab(['demo', '--transport', transport, '--settings', file, '--out', runDir], dir);
      await until(() => existsSync(join(dir, 'started')) && livingWith(m).length > 0);
      const family = descendants(child.pid);
      expect(family.length).toBeGreaterThan(0);
      child.kill(signal);
      const { stderr, code: exit } = await output;
      expect(exit).toBe(code);
      expect(stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`interrupted by ${signal}`)]);
      expect(await waitNoneWith(m)).toEqual([]);
      // Every process caplab started (hooks, and over MCP the server) is gone: a pid still alive is
      // one of them only if its command line is still the same.
      await until(() => !family.some(stillRuns), 5000);
      const { code: verified, doc } = await verify(runDir);
      expect(verified).toBe(0);
      expect(doc.end).toEqual({ ending: 'interrupted', accepted: false, exitCode: code, cause: expect.stringContaining(signal) });
    });
  }
}

test('a hook that starts `setsid sleep … &` leaves no such sleep after the run; run_end names what was killed', async () => {
  const dir = scratchDir('caplab-setsid-');
  const m = marker();
  // The hook waits until the background sleep runs in its own session, so its group kill cannot reach it.
  const file = settings(dir, 'create_card', setsidSleep(m));
  const runDir = join(dir, 'run');
  const { output } = spawnCaplab(['demo', '--transport', 'local', '--settings', file, '--out', runDir], dir);
  const { code, stderr } = await output;
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(await waitNoneWith(m)).toEqual([]);
  const end = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).at(-1);
  expect(end.orphans).toEqual({ subreaper: true, killed: [{ name: 'sleep', count: 1 }], survivors: [] });
  expect((await verify(runDir)).code).toBe(0);
});

test('probe: a server grandchild that called setsid is killed at close, and the report says so', async () => {
  const dir = scratchDir('caplab-probe-setsid-');
  const m = marker();
  const { output } = spawnCaplab(['probe', '--', process.execPath, misbehave, 'setsid_grandchild', m], dir);
  const { code, stdout } = await output;
  expect(code).toBe(0);
  expect(stdout).toContain('no survivors; killed escaped (setsid) sleep ×1');
  expect(await waitNoneWith(m)).toEqual([]);
});

test('in-process: an aborted io.interrupt ends the run as interrupted (143), kills the hook and never calls process.exit', async () => {
  const dir = scratchDir('caplab-interrupt-');
  const m = marker();
  const file = settings(dir, 'read_source', `touch ${join(dir, 'started')}; sleep ${m}`);
  const controller = new AbortController();
  const io = { ...testIo(dir, env), interrupt: controller.signal };
  const running = cli(['demo', '--transport', 'local', '--settings', file, '--out', 'run', '--json'], io);
  await until(() => existsSync(join(dir, 'started')) && livingWith(m).length > 0);
  controller.abort('SIGTERM');
  expect(await running).toBe(143);
  expect(io.err().trimEnd().split('\n')).toEqual([expect.stringContaining('interrupted by SIGTERM')]);
  const doc = JSON.parse(io.out());
  expect([doc.exit_code, doc.stop, doc.accepted]).toEqual([143, 'interrupted', false]);
  expect(doc.calls.map((c: { result: { kind?: string } }) => c.result.kind)).toEqual(['run_interrupted', 'run_interrupted']);
  expect(await waitNoneWith(m)).toEqual([]);
  expect((await verify(join(dir, 'run'))).doc.end.ending).toBe('interrupted');
});

test('a usage error still wins over an interruption (2 > 130/143)', async () => {
  const controller = new AbortController();
  controller.abort('SIGINT');
  const io = { ...testIo(scratchDir('caplab-interrupt-')), interrupt: controller.signal };
  expect(await cli(['demo', '--transport', 'carrier-pigeon'], io)).toBe(2);
});

test('check interrupted between scenarios: the rest do not run (no run dir), exit 130, one stderr line', async () => {
  const dir = scratchDir('caplab-check-interrupt-');
  const controller = new AbortController();
  const base = testIo(dir);
  let lines = 0;
  // Interrupt once the first scenario's line is out.
  const io = { ...base, stdout: (text: string) => (base.stdout(text), ++lines === 3 && controller.abort('SIGINT'), undefined), interrupt: controller.signal };
  expect(await cli(['check', '--out', 'out'], io)).toBe(130);
  expect(base.err()).toBe('caplab: interrupted by SIGINT\n');
  expect(base.out()).toContain('observed: did not run: precondition/run_interrupted');
  expect(readdirSync(join(dir, 'out')).length).toBeLessThan(3);
});
