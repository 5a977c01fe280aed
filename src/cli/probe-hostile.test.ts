/**
 * `caplab probe` against hostile servers (issue 20), as a user runs it: the
 * program from source, the server a process (src/mcp/testing/hostile.ts),
 * a private TMPDIR. Every case also holds what a hostile case must: no stack
 * trace, stdout one JSON document, the process exit equal to the report's
 * `exit`, no `caplab-probe-*` folder and no server process left.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../../test/until.ts';
import { scratchDir } from '../../test/scratch.ts';
import { LIMITS } from '../contract/index.ts';
import { isRunning } from '../mcp/testing/servers.ts';
import type { HostileMode } from '../mcp/testing/hostile-server.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const root = join(import.meta.dir, '../..');
const MAIN = join(root, 'src/main.ts');
const HOSTILE = join(root, 'src/mcp/testing/hostile.ts');
const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const CALL = ['--call', 'judge_me'];
const started: Bun.Subprocess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) {
    child.kill('SIGKILL');
    await child.exited;
  }
});

interface Ran {
  readonly code: number;
  readonly stderr: string;
  readonly report: { exit: number; stderr: string; [key: string]: any };
}

/** Starts `caplab probe --json FLAGS -- bun hostile.ts MODE COUNT` in a private TMPDIR; `during` may act on caplab's pid meanwhile. */
async function probeHostile(mode: HostileMode, count: number, flags: readonly string[] = [], during?: (pid: number) => Promise<void>): Promise<Ran> {
  const tmp = scratchDir('caplab-hostile-');
  const child = Bun.spawn([process.execPath, MAIN, 'probe', '--json', ...flags, '--', process.execPath, HOSTILE, mode, String(count)], {
    cwd: tmp,
    env: { PATH, TMPDIR: tmp },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  started.push(child);
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  await during?.(child.pid);
  const [stdout, stderr, code] = await output;
  // No stack trace: no Bun crash banner, no `at …` frame.
  expect(stderr).not.toMatch(/^\s+at .+/m);
  expect(stderr).not.toContain(`Bun v${Bun.version}`);
  // stdout is one JSON document, and its `exit` is the process's.
  const report = JSON.parse(stdout) as Ran['report'];
  expect(report.exit).toBe(code);
  // Nothing left: the temp cwd is removed, the server is gone.
  expect(readdirSync(tmp).filter((name) => name.startsWith('caplab-probe-'))).toEqual([]);
  const pid = Number(/hostile=(\d+)/.exec(report.stderr)?.[1]);
  expect(pid).toBeGreaterThan(0);
  await until(() => !isRunning(pid));
  expect(isRunning(pid)).toBe(false);
  return { code, stderr, report };
}

const kinds = (findings: readonly { tool?: string; kind: string }[]) => findings.map((f) => `${f.tool}: ${f.kind}`);

describe('probe against hostile servers: a finding, never a crash or a hang, nothing left', () => {
  test('a schema 1,000 levels deep: schema_too_deep, exit 1', async () => {
    const { code, report } = await probeHostile('deep_schema', 1_000);
    expect([code, kinds(report['findings'])]).toEqual([1, ['deep: schema_too_deep']]);
  });

  test('$ref cycles that never descend: schema_ref_loop on each, exit 1', async () => {
    const { code, report } = await probeHostile('ref_loop', 0);
    expect([code, kinds(report['findings'])]).toEqual([1, ['self_ref: schema_ref_loop', 'def_cycle: schema_ref_loop']]);
  });

  test('1e400 in a schema: non_finite_number on that tool, exit 1', async () => {
    const { code, report } = await probeHostile('non_finite', 0);
    expect([code, kinds(report['findings'])]).toEqual([1, ['huge_max: non_finite_number']]);
  });

  test('a result 60,000 levels deep: result_too_deep on the call, its checks not made, exit 1', async () => {
    const { code, report } = await probeHostile('deep_result', 60_000, CALL);
    expect(code).toBe(1);
    expect(report['calls']).toEqual([expect.objectContaining({ tool: 'judge_me', outcome: 'failed', notChecked: expect.arrayContaining(['outputSchema']), findings: [expect.objectContaining({ kind: 'result_too_deep' })] })]);
  });

  test('with --timeout-ms 500, 100 strings against a backtracking pattern end judging_timeout; judging time is shown apart', async () => {
    const { code, report } = await probeHostile('backtrack', 0, [...CALL, '--timeout-ms', '500']);
    expect(code).toBe(1);
    const [call] = report['calls'];
    expect(call).toMatchObject({ outcome: 'result', outputSchema: 'not_checked', notChecked: ['outputSchema', 'text'], findings: [{ class: 'timeout', kind: 'judging_timeout', basis: 'caplab host rule' }] });
    expect(call.judgingMs).toEqual(expect.any(Number));
  });

  test('SIGTERM while judging the backtracking case: exit 143 (judging holds no signal back), and the report says 143', async () => {
    const judging = async (pid: number): Promise<void> => {
      // The judging worker exists only once a result is being judged.
      const threads = () => readdirSync(`/proc/${pid}/task`).map((task) => readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim());
      await until(() => threads().includes('Worker'), 20_000);
      process.kill(pid, 'SIGTERM');
    };
    const { code, stderr, report } = await probeHostile('backtrack', 0, [...CALL, '--timeout-ms', '600000'], judging);
    expect(code).toBe(143);
    expect(report['calls']).toEqual([expect.objectContaining({ outcome: 'result', outputSchema: 'not_checked', findings: [] })]);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('caplab: interrupted by SIGTERM');
  });

  test(`${LIMITS.probeTools} tools are reported in full (exit 0); one more gives too_many_tools (exit 1)`, async () => {
    const full = await probeHostile('tools', LIMITS.probeTools);
    expect([full.code, full.report['tools'].length, full.report['complete']]).toEqual([0, LIMITS.probeTools, true]);
    const over = await probeHostile('tools', LIMITS.probeTools + 1);
    expect([over.code, over.report['tools'].length, kinds(over.report['findings'])]).toEqual([1, LIMITS.probeTools, ['undefined: too_many_tools']]);
  });
});

test('--args with 1e400 is exit 2 invalid_arguments/non_finite_number: nothing is started (it was sent as null)', async () => {
  const io = testIo('/', { PATH });
  expect(await cli(['probe', '--call', 'judge_me', '--args', '{"n":1e400}', '--', '/nonexistent/server'], io)).toBe(2);
  expect(io.err()).toContain('--args for judge_me: invalid_arguments/non_finite_number: non-finite number at $.n');
});
