import { afterAll, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTools } from '../harness/testing/replace-tool.ts';
import { writeReport } from './report-file.ts';
import { cli } from './cli.ts';
import { EXIT } from './exit.ts';
import { parseRunFlags, runCommand } from './run-command.ts';
import { testIo } from './test-io.ts';
import { excerptTask } from '../excerpt/index.ts';
import { excerptCli } from './testing/excerpt-cli.ts';
import { unwritableDir } from '../../test/unwritable.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-paths-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = join(scratch, `c${n++}`);
  mkdirSync(dir);
  return dir;
};
const hooks = join(import.meta.dir, '../../fixtures/hooks');

/** The task over a provider that fails the test if anything gets as far as starting tools. */
const untouchable = withTools(excerptTask, () => [
  {
    offers: [],
    open: async () => {
      throw new Error('tools were started: the path should have been refused first');
    },
  },
]);

test.each([['.'], ['..'], ['-x'], ['.hidden'], ['a/b'], [''], ['x'.repeat(65)]])('--run-id %p is a usage error (exit 2) and writes nothing', async (id) => {
  const cwd = fresh();
  const io = testIo(cwd);
  expect(await cli(['demo', '--transport', 'local', `--run-id=${id}`], io)).toBe(EXIT.usage);
  expect(io.err()).toContain('starting with a letter, digit or _');
  expect(readdirSync(cwd)).toEqual([]);
  const check = testIo(cwd);
  expect(await cli(['check', `--run-id=${id}`], check)).toBe(EXIT.usage);
  expect(readdirSync(cwd)).toEqual([]);
});

test('ordinary run ids still pass: letters, digits, _ . - inside', () => {
  for (const id of ['r1', '_x', '2026.11.30-a_b', 'x'.repeat(64)]) expect(parseRunFlags(['--run-id', id], 'demo', excerptCli()).ok).toBe(true);
});

test('--out "" is a usage error: it would write into the working directory', async () => {
  const cwd = fresh();
  for (const argv of [['demo', '--transport', 'local', '--out', ''], ['check', '--out', '']]) {
    const io = testIo(cwd);
    expect(await cli(argv, io)).toBe(EXIT.usage);
    expect(io.err()).toContain('--out needs a folder');
  }
  expect(readdirSync(cwd)).toEqual([]);
});

test.each([
  ['a file', (cwd: string) => (writeFileSync(join(cwd, 'f'), 'x'), 'f'), 'exists and is not a folder'],
  ['under a file', (cwd: string) => (writeFileSync(join(cwd, 'f'), 'x'), 'f/run'), 'is not a folder'],
  ['a non-empty folder', (cwd: string) => (mkdirSync(join(cwd, 'd')), writeFileSync(join(cwd, 'd/x'), 'x'), 'd'), 'not empty'],
])('--out naming %s: usage error (exit 2) before any tool starts', async (_, make, says) => {
  const cwd = fresh();
  const out = make(cwd);
  const parsed = parseRunFlags(['--out', out], 'demo', excerptCli());
  if (!parsed.ok) throw new Error(parsed.message);
  const flags = parsed.value;
  const io = testIo(cwd);
  expect(await runCommand(flags, io, excerptCli(untouchable))).toBe(EXIT.usage);
  expect(io.err()).toContain(says);
  const check = testIo(cwd);
  expect(await cli(['check', '--out', out], check)).toBe(EXIT.usage);
  expect(check.out()).toBe('');
});

test('check --junit into a missing folder or onto a folder: usage error before any scenario runs, nothing written', async () => {
  const cwd = fresh();
  mkdirSync(join(cwd, 'report.xml'));
  for (const junit of ['missing/report.xml', 'report.xml']) {
    const io = testIo(cwd);
    expect(await cli(['check', '--junit', junit, '--run-id', 'j'], io)).toBe(EXIT.usage);
    expect(io.err()).toContain('--junit');
    expect(io.out()).toBe('');
  }
  expect(readdirSync(cwd)).toEqual(['report.xml']);
});

test('a report whose rename fails leaves no temp file; a write that fails removes its partial temp too', () => {
  const dir = fresh();
  const target = join(dir, 'report.xml');
  const renameFails = { ...nodeFs, renameSync: () => { throw Object.assign(new Error('EXDEV'), { code: 'EXDEV' }); } };
  expect(writeReport(target, '<x/>', renameFails)?.kind).toBe('write_failed');
  expect(readdirSync(dir)).toEqual([]);
  const writeFails = {
    ...nodeFs,
    writeFileSync: (p: string) => {
      writeFileSync(p, 'partial', { flag: 'wx' });
      throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    },
    renameSync: () => undefined,
  };
  expect(writeReport(target, '<x/>', writeFails as never)?.kind).toBe('write_failed');
  expect(readdirSync(dir)).toEqual([]);
  expect(writeReport(target, '<x/>')).toBeUndefined();
  expect(readdirSync(dir)).toEqual(['report.xml']);
});

test('--settings given twice applies both, in order: the deny rule of the first still refuses create_card', async () => {
  const cwd = fresh();
  const io = testIo(cwd, { PATH: process.env['PATH'] ?? '/usr/bin:/bin' });
  const deny = join(hooks, 'deny-rule.settings.json');
  const rewrite = join(hooks, 'rewrite-input.settings.json');
  expect(await cli(['demo', '--transport', 'local', '--json', '--settings', deny, '--settings', rewrite], io)).toBe(EXIT.failed);
  const doc = JSON.parse(io.out());
  const create = doc.calls.find((c: { name: string }) => c.name === 'create_card');
  expect([create.result.class, create.result.kind]).toEqual(['permission_denied', 'rule']);
  // The second file's hook ran too (it rewrote the input before the rule refused the call).
  expect(create.hooks).toHaveLength(1);
  expect(existsSync(join(doc.run_dir, 'card'))).toBe(false);
});

test('--skills DIR holding a dangling symlink: exit 2 with the entry named, for run and for skills', async () => {
  const dir = fresh();
  symlinkSync(join(dir, 'gone'), join(dir, 'broken'));
  for (const argv of [['demo', '--transport', 'local', '--skills', dir, '--run-id', 's'], ['skills', '--skills', dir]]) {
    const io = testIo(fresh());
    expect(await cli(argv, io)).toBe(EXIT.usage);
    expect(io.err()).toContain("entry 'broken' cannot be resolved");
  }
});

test.each([
  ['inside a run dir (its ledger.jsonl)', (cwd: string) => (mkdirSync(join(cwd, 'run')), writeFileSync(join(cwd, 'run/ledger.jsonl'), ''), 'run/inner'), 'inside the run dir'],
  ['deeper in a run dir (its ledger.head)', (cwd: string) => (mkdirSync(join(cwd, 'run/outputs'), { recursive: true }), writeFileSync(join(cwd, 'run/ledger.head'), ''), 'run/outputs/x/y'), 'inside the run dir'],
  ['under /proc', () => '/proc/self/caplab-run', 'is under /proc, a kernel filesystem'],
  ['under /sys', () => '/sys/kernel/caplab-run', 'is under /sys, a kernel filesystem'],
  ['a name longer than 255 bytes', () => `a/${'x'.repeat(300)}`, 'ENAMETOOLONG'],
])('--out %s: invalid_arguments/bad_path, exit 2, for demo and check, before any output; nothing made', async (_, make, says) => {
  const cwd = fresh();
  const out = make(cwd);
  const before = readdirSync(cwd, { recursive: true }).sort();
  for (const argv of [['demo', '--transport', 'local', '--out', out], ['demo', '--transport', 'local', '--json', '--out', out], ['check', '--out', out]]) {
    const io = testIo(cwd);
    expect(await cli(argv, io)).toBe(EXIT.usage);
    expect(io.err()).toContain(says);
    if (argv.includes('--json')) expect(JSON.parse(io.out()).error).toMatchObject({ class: 'invalid_arguments', kind: 'bad_path' });
    else expect(io.out()).toBe('');
  }
  expect(readdirSync(cwd, { recursive: true }).sort()).toEqual(before);
});

test('demo prints its header only once every check has passed: a bad --deny-tool prints nothing on stdout', async () => {
  const cwd = fresh();
  const io = testIo(cwd);
  expect(await cli(['demo', '--transport', 'local', '--deny-tool', 'no_such_tool'], io)).toBe(EXIT.usage);
  expect(io.out()).toBe('');
  expect(io.err()).toContain('no_such_tool');
  expect(readdirSync(cwd)).toEqual([]);
});

test('the run dir is taken before the header: its ledger is open when the first line is printed', async () => {
  const cwd = fresh();
  let ledgerAtFirstLine: boolean | undefined;
  const io = { ...testIo(cwd), stdout: (text: string) => void (ledgerAtFirstLine ??= text.length > 0 && existsSync(join(cwd, 'r/ledger.jsonl'))) };
  expect(await cli(['demo', '--transport', 'local', '--out', 'r'], io)).toBe(EXIT.ok);
  expect(ledgerAtFirstLine).toBe(true);
});

test('parallel checks on one --out: one runs, the others exit 2 target_exists before any output', async () => {
  const cwd = fresh();
  const ios = [testIo(cwd), testIo(cwd), testIo(cwd)];
  const codes = await Promise.all(ios.map((io) => cli(['check', '--out', 'shared'], io)));
  expect([...codes].sort()).toEqual([EXIT.ok, EXIT.usage, EXIT.usage]);
  for (const [index, io] of ios.entries()) {
    if (codes[index] === EXIT.ok) continue;
    expect(io.err()).toContain('target_exists');
    expect(io.out()).toBe('');
  }
  const winner = ios[codes.indexOf(EXIT.ok)]!;
  expect(winner.out()).toContain('all scenarios ended as expected');
  // One whole check runs: the bound is for a loaded machine, not a threshold.
}, 60_000);

test('--out in a folder the system refuses to write (EPERM/EACCES): bad_path naming the errno, exit 2, before any output', async () => {
  const cwd = fresh();
  const locked = unwritableDir(cwd);
  if (!locked) throw new Error('this machine offers no unwritable folder (neither chattr +i as root nor a mode)');
  try {
    for (const argv of [['demo', '--transport', 'local', '--out', 'locked/run'], ['check', '--out', 'locked/check']]) {
      const io = testIo(cwd);
      expect(await cli(argv, io)).toBe(EXIT.usage);
      expect(io.err()).toMatch(/invalid_arguments\/bad_path: .*cannot be a run dir: (EPERM|EACCES)/);
      expect(io.out()).toBe('');
    }
    expect(readdirSync(locked.path)).toEqual([]);
  } finally {
    locked.restore();
  }
});
