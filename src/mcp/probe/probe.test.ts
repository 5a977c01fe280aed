import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, test } from 'bun:test';
import { until } from '../../../test/until.ts';
import { exportContract } from '../../contract/index.ts';
import { readSourceContract } from '../../excerpt/contracts.ts';
import { DEV_SERVE_ENTRY } from '../../cli/tasks.ts';
import { probe, type ProbeOptions, type StdioProbeReport as ProbeReport, type ProbeTimeouts } from './probe.ts';
import type { CallRequest } from './probe-calls.ts';
import { isRunning } from '../wire/testing/processes.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';
import type { Mode } from '../../excerpt/testing/misbehave.ts';

const pinned = exportContract(readSourceContract);
const FAST: Partial<ProbeTimeouts> = { startupMs: 5_000, requestMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };
const READ: CallRequest = { name: 'read_source', arguments: { source_id: 'alpha' } };

function probeMode(mode: Mode, options: ProbeOptions = {}): Promise<ProbeReport> {
  return probe(misbehaveLaunch(mode).command, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, maxPages: 5, ...options, timeouts: { ...FAST, ...options.timeouts } });
}

function gone(report: ProbeReport): void {
  expect(report.close?.survivors).toEqual([]);
}

/**
 * probe over a real process: what only stdio shows — the command found
 * through PATH, the temp cwd, start-up death with its exit code and stderr,
 * stray bytes, crashes, forks. What probe finds in the protocol is tested
 * without a process in probe-run.test.ts.
 */
describe('probe (general profile): reports instead of refusing', () => {
  test('the fixture server: one complete page, read_source with the pinned hashes, no findings; env names only', async () => {
    // `bun` is found through the server's PATH and run as an absolute path.
    const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const report = await probe([basename(process.execPath), ...DEV_SERVE_ENTRY], { env: { PATH, HOME: '/root' }, timeouts: FAST });
    expect(report.envNames).toEqual(['HOME', 'PATH']);
    expect(JSON.stringify(report)).not.toContain('/usr/bin:/bin');
    expect(report).toMatchObject({ serverInfo: { name: 'caplab-fixture' }, protocolVersion: '2025-06-18', pages: 1, complete: true, findings: [] });
    expect(report.failure).toBeUndefined();
    expect(report.tools).toEqual([
      expect.objectContaining({ name: 'read_source', inputSchemaHash: pinned.inputSchemaHash, outputSchemaHash: pinned.resultSchemaHash }),
    ]);
    gone(report);
  });

  test('the default cwd is a fresh empty directory, removed at close', async () => {
    const report = await probe(misbehaveLaunch('ok').command, { env: {}, timeouts: FAST });
    expect(report.cwdIsTemp).toBe(true);
    expect(report.cwd).toContain('caplab-probe-');
    expect(existsSync(report.cwd)).toBe(false);
  });

  test('a server that dies at start: failure with its exit code and stderr, and the --cwd . hint', async () => {
    const report = await probe(misbehaveLaunch('die_start').command, { env: {}, timeouts: FAST });
    expect(report.failure).toMatchObject({ class: 'closed', kind: 'connection_lost', basis: 'caplab host rule' });
    expect(report.close?.exitCode).toBe(7);
    expect(report.stderr).toContain('cannot find ./config.toml');
    expect(report.hint).toContain('--cwd .');
  });

  test('protocol failures after initialize end the session: stray stdout, invalid UTF-8', async () => {
    for (const [mode, kind] of [['stray', 'framing'], ['bad_utf8', 'encoding']] as const) {
      const report = await probeMode(mode, { calls: [READ] });
      expect(report.serverInfo).toBeDefined();
      expect(report.failure).toMatchObject({ class: 'protocol', kind, basis: 'spec MUST' });
      gone(report);
    }
  });

  test('a banner before initialize ends the session as protocol/framing', async () => {
    const report = await probeMode('banner');
    expect(report).toMatchObject({ complete: false, failure: { class: 'protocol', kind: 'framing' } });
    gone(report);
  });

  test('a command that cannot start is a spawn failure', async () => {
    const report = await probe(['/nonexistent/server'], { cwd: '/', timeouts: FAST });
    expect(report).toMatchObject({ pages: 0, failure: { class: 'spawn', kind: 'spawn_failed' } });
  });
});

describe('probe --call over a process', () => {
  test('a server that crashes in a call: outcome unknown, and the session ended', async () => {
    const report = await probeMode('crash', { calls: [READ] });
    expect(report.calls[0]?.outcome).toBe('unknown');
    expect(report.failure).toMatchObject({ class: 'closed' });
    expect(report.close?.exitCode).toBe(3);
  });
});

test('probe leaves no process (checked in /proc), a forking server included', async () => {
  const report = await probeMode('grandchild');
  expect(report.complete).toBe(true);
  const match = /grandchild=(\d+)/.exec(report.stderr);
  expect(match).not.toBeNull();
  await until(() => !isRunning(Number(match![1])));
  expect(isRunning(Number(match![1]))).toBe(false);
});
