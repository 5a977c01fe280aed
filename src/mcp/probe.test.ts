import { basename, dirname } from 'node:path';
import { describe, expect, test } from 'bun:test';
import { exportContract } from '../contract/index.ts';
import { readSourceContract } from '../excerpt/contracts.ts';
import { DEV_SERVE_ENTRY } from './launch.ts';
import { probe, type ProbeReport } from './probe.ts';
import { isRunning, misbehaveLaunch, FAST } from './testing/servers.ts';
import type { Mode } from './testing/misbehave.ts';

const pinned = exportContract(readSourceContract);

function probeMode(mode: Mode, maxPages = 5): Promise<ProbeReport> {
  return probe(misbehaveLaunch(mode).command, { cwd: '/', envSource: { PATH: '/usr/bin:/bin', X_TOKEN: 'secret' }, maxPages, timeouts: FAST });
}

function gone(report: ProbeReport): void {
  expect(report.close?.survivors).toEqual([]);
}

describe('probe (general profile): reports instead of refusing', () => {
  test('the fixture server: one complete page, read_source with the pinned hashes, no findings', async () => {
    // `bun` is found through the allowlisted PATH and recorded as an absolute path.
    const PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const report = await probe([basename(process.execPath), ...DEV_SERVE_ENTRY], { envSource: { PATH, HOME: '/root', X_API_KEY: 'k' }, timeouts: FAST });
    expect(report.launch.command[0]).toBe(process.execPath);
    expect(report.launch.env).toEqual({ PATH, HOME: '/root' });
    expect(report).toMatchObject({ serverInfo: { name: 'caplab-fixture' }, protocolVersion: '2025-06-18', pages: 1, complete: true, findings: [] });
    expect(report.tools).toEqual([
      expect.objectContaining({ name: 'read_source', inputSchemaHash: pinned.inputSchemaHash, outputSchemaHash: pinned.resultSchemaHash }),
    ]);
    gone(report);
  });

  test('follows pagination to the end', async () => {
    const report = await probeMode('pages');
    expect(report).toMatchObject({ pages: 3, complete: true, findings: [] });
    expect(report.tools.map((tool) => tool.name)).toEqual(['read_source', 'extra_2', 'extra_3']);
    expect(report.launch.env).toEqual({ PATH: '/usr/bin:/bin' });
    gone(report);
  });

  test('a repeated cursor stops the listing with a finding', async () => {
    const report = await probeMode('cursor');
    expect(report).toMatchObject({ pages: 2, complete: false, findings: [{ class: 'protocol', kind: 'pagination_unsupported' }] });
    expect(report.findings[0]?.message).toContain('repeated cursor');
    gone(report);
  });

  test('an endless listing stops at the page limit', async () => {
    const report = await probeMode('endless', 4);
    expect(report).toMatchObject({ pages: 4, complete: false, findings: [{ kind: 'pagination_unsupported' }] });
    gone(report);
  });

  test('an older readable version is accepted and noted; extra tools are just listed', async () => {
    const older = await probeMode('version');
    expect(older).toMatchObject({ protocolVersion: '2025-03-26', complete: true, findings: [{ kind: 'version_mismatch' }] });
    const extra = await probeMode('extra_tool');
    expect(extra).toMatchObject({ complete: true, findings: [] });
    expect(extra.tools.map((tool) => tool.name)).toEqual(['read_source', 'delete_everything']);
    gone(older);
    gone(extra);
  });

  test('a banner still ends the session (unreadable), reported as protocol/framing', async () => {
    const report = await probeMode('banner');
    expect(report).toMatchObject({ complete: false, findings: [{ class: 'protocol', kind: 'framing' }] });
    gone(report);
  });

  test('a command that cannot start is a spawn finding', async () => {
    const report = await probe(['/nonexistent/server'], { timeouts: FAST });
    expect(report).toMatchObject({ pages: 0, findings: [{ class: 'spawn' }] });
  });
});

test('probe leaves no process (checked in /proc)', async () => {
  const report = await probeMode('grandchild');
  expect(report.complete).toBe(true);
  const match = /grandchild=(\d+)/.exec(report.stderr);
  expect(match).not.toBeNull();
  expect(isRunning(Number(match![1]))).toBe(false);
});
