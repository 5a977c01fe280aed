/**
 * Runs end truthfully (issue 11): once the run dir exists, its ledger ends in
 * a run_end — `completed`, or `failed` with the cause — before the seal; when
 * not even that can be written, the dir stays unsealed and verify says so.
 */
import { afterAll, expect, test } from 'bun:test';
import * as nodeFs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail, ok, type Outcome } from '../contract/index.ts';
import { EXCERPT_SCENARIOS, excerptTask } from '../excerpt/index.ts';
import { verify, type RunDirFs } from '../ledger/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask, type RunOptions, type RunOutcome } from './run.ts';
import { loadScenario, scriptedModel } from './scenario.ts';
import { changingTools, withTools } from './testing/replace-tool.ts';
import type { ToolProvider } from './tools.ts';
import { testHost } from './testing/test-host.ts';
import { exitCodeOf } from '../base/index.ts';

const temp = mkdtempSync(join(tmpdir(), 'caplab-run-end-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let runs = 0;

function options(overrides: Partial<RunOptions> = {}): RunOptions {
  const scenario = loadScenario(EXCERPT_SCENARIOS.folder, 'happy');
  if (!scenario.ok) throw new Error(scenario.message);
  return {
    task: excerptTask,
    model: scriptedModel(scenario.value),
    runId: 'r',
    runDir: join(temp, `run-${++runs}`),
    ...testHost(),
    ...overrides,
  };
}

const lastEvent = (dir: string) => JSON.parse(readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').at(-1)!);
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });

test('a normal run ends `completed` and verifies, saying so', async () => {
  const run = options();
  const outcome = await runTask(run);
  expect(outcome.ok).toBe(true);
  expect(lastEvent(run.runDir)).toMatchObject({ type: 'run_end', ending: 'completed', accepted: true, exit_code: 0, summary: 'accepted' });
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(report.ok && report.value.end).toEqual({ ending: 'completed', accepted: true, exitCode: 0 });
});

test('a file write that fails mid-run is recorded as run_end failed with its cause, then sealed; the record verifies', async () => {
  const fs: RunDirFs = {
    ...nodeFs,
    linkSync: (from, to) => {
      if (String(to).endsWith('02-request.json')) throw enospc();
      return nodeFs.linkSync(from, to);
    },
  };
  const run = options({ fs });
  const outcome = await runTask(run);
  expect(!outcome.ok && [outcome.class, outcome.kind]).toEqual(['business', 'record_write_failed']);
  expect(lastEvent(run.runDir)).toMatchObject({ type: 'run_end', ending: 'failed', accepted: false, exit_code: 1 });
  expect(lastEvent(run.runDir).cause).toContain('ENOSPC');
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  if (!report.ok) throw new Error(report.message);
  expect(report.value.end.ending).toBe('failed');
  expect(report.value.end.cause).toContain('ENOSPC');
  expect(report.value.recheck?.decided).toBe(false);
});

test('a failed ledger write leaves the run dir unsealed, and verify names that', async () => {
  let ledgerFd: number | undefined;
  let lines = 0;
  const fs: RunDirFs = {
    ...nodeFs,
    openSync: ((path: nodeFs.PathLike, flags: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
      const fd = nodeFs.openSync(path, flags, mode);
      if (String(path).endsWith('ledger.jsonl')) ledgerFd = fd;
      return fd;
    }) as typeof nodeFs.openSync,
    writeSync: ((fd: number, ...rest: unknown[]) => {
      if (fd === ledgerFd && ++lines > 3) throw enospc();
      return (nodeFs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }) as typeof nodeFs.writeSync,
  };
  const run = options({ fs });
  const outcome = await runTask(run);
  expect(!outcome.ok && outcome.kind).toBe('record_write_failed');
  expect(!outcome.ok && outcome.message).toContain('left unsealed');
  expect(nodeFs.existsSync(join(run.runDir, 'ledger.head'))).toBe(false);
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(!report.ok && report.kind).toBe('unsealed');
});

test('a crash in the loop after the card was written: run_end failed (cause named) vouches for the card, sealed, still thrown', async () => {
  const run = options({
    onStep: (step) => {
      if (step.type === 'call' && step.record.name === 'create_card') throw new Error('boom in the loop');
    },
  });
  await expect(runTask(run)).rejects.toThrow('boom in the loop');
  expect(lastEvent(run.runDir)).toMatchObject({ type: 'run_end', ending: 'failed', accepted: false, cause: 'crash: Error: boom in the loop' });
  expect(lastEvent(run.runDir).files).toEqual([expect.objectContaining({ role: 'left_by_failure', path: 'card/excerpt-card.md' })]);
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(report.ok && report.value.end.ending).toBe('failed');
});

test('tools that fail to start: run_start then run_end failed (exit 3); every snapshot file is referenced and the record verifies', async () => {
  const run = options({ task: withTools(excerptTask, () => [{ offers: [], open: async (): Promise<Outcome<never>> => fail('spawn', 'spawn_failed', 'no such server') }]) });
  const outcome: Outcome<RunOutcome> = await runTask(run);
  expect(!outcome.ok && outcome.kind).toBe('spawn_failed');
  expect(lastEvent(run.runDir)).toMatchObject({ type: 'run_end', ending: 'failed', exit_code: 3, cause: 'spawn/spawn_failed: no such server' });
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  if (!report.ok) throw new Error(`${report.kind}: ${report.message}`);
  expect(report.value.end).toMatchObject({ ending: 'failed', exitCode: 3 });
});

test('a run whose start cannot be recorded (a value JSON cannot hold) stays unsealed, and verify names that', async () => {
  const run = options({ method: { record: { weight: Number.NaN }, blocks: () => [], adoption: () => null } });
  await expect(runTask(run)).rejects.toThrow('non-finite');
  expect(nodeFs.existsSync(join(run.runDir, 'ledger.head'))).toBe(false);
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(!report.ok && report.kind).toBe('unsealed');
});

test('an interruption closes the tools at once: a call in flight ends as closed (outcome unknown), not at its timeout; run_end interrupted', async () => {
  const controller = new AbortController();
  const releases: (() => void)[] = [];
  const closed: string[] = [];
  // read_source hangs until the tool set is closed, as an MCP call does until its connection ends.
  const handler = async (): Promise<Outcome<never>> => {
    const released = new Promise<void>((resolve) => releases.push(resolve));
    controller.abort('SIGINT');
    await released;
    return fail('closed', 'connection_lost', 'closed while the call was in flight');
  };
  const hang = (provider: ToolProvider): ToolProvider => {
    const changed = changingTools(provider, (t) => (t.contract.name === 'read_source' ? { ...t, attributes: { ...t.attributes, timeoutMs: 600_000 }, handler } : t));
    const open: ToolProvider['open'] = async (at) => {
      const set = await changed.open(at);
      return set.ok ? ok({ ...set.value, close: async () => (closed.push('close'), releases.forEach((release) => release()), undefined) }) : set;
    };
    return { offers: changed.offers, open };
  };
  const hanging = withTools(excerptTask, (run) => excerptTask.tools(run).map(hang));
  const run = options({ task: hanging, signal: controller.signal });
  const outcome = await runTask(run);
  expect(outcome.ok && [exitCodeOf(outcome.value.ending), outcome.value.loop.stop]).toEqual([130, 'interrupted']);
  expect(outcome.ok && outcome.value.loop.calls.map((c) => (c.outcome.ok ? 'ok' : c.outcome.kind))).toEqual(['connection_lost', 'run_interrupted']);
  expect(closed).toEqual(['close']);
  expect(lastEvent(run.runDir)).toMatchObject({ type: 'run_end', ending: 'interrupted', exit_code: 130, accepted: false, cause: expect.stringContaining('SIGINT') });
  const report = verify(run.runDir, { recheck: recheckAcceptance(excerptTask) });
  expect(report.ok && report.value.end).toMatchObject({ ending: 'interrupted', exitCode: 130 });
});

/** An fs that counts fsyncs of the ledger file. */
function ledgerSyncs(): { fs: RunDirFs; count: () => number } {
  const ledgerFds = new Set<number>();
  let count = 0;
  const fs: RunDirFs = {
    ...nodeFs,
    openSync: ((path: nodeFs.PathLike, flags: nodeFs.OpenMode, mode?: nodeFs.Mode) => {
      const fd = nodeFs.openSync(path, flags, mode);
      if (String(path).endsWith('ledger.jsonl')) ledgerFds.add(fd);
      return fd;
    }) as typeof nodeFs.openSync,
    fsyncSync: (fd: number) => {
      if (ledgerFds.has(fd)) count += 1;
      nodeFs.fsyncSync(fd);
    },
  };
  return { fs, count: () => count };
}

test('the ledger is synced once per run by default, and once per event with durable; both verify', async () => {
  for (const durable of [false, true]) {
    const counted = ledgerSyncs();
    const run = options({ fs: counted.fs, durable });
    const outcome = await runTask(run);
    if (!outcome.ok) throw new Error(outcome.message);
    expect({ durable, syncs: counted.count() }).toEqual({ durable, syncs: durable ? outcome.value.events : 1 });
    expect(verify(run.runDir, { recheck: recheckAcceptance(excerptTask) }).ok).toBe(true);
  }
});
