import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, test } from 'bun:test';
import { exportContract } from '../contract/index.ts';
import { readSourceContract } from '../excerpt/contracts.ts';
import { DEV_SERVE_ENTRY } from './launch.ts';
import { probe, type ProbeOptions, type ProbeReport, type ProbeTimeouts } from './probe.ts';
import type { CallRequest } from './probe-calls.ts';
import { isRunning, misbehaveLaunch } from './testing/servers.ts';
import type { Mode } from './testing/misbehave.ts';

const pinned = exportContract(readSourceContract);
const FAST: Partial<ProbeTimeouts> = { startupMs: 5_000, requestMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };
const READ: CallRequest = { name: 'read_source', arguments: { source_id: 'alpha' } };

function probeMode(mode: Mode, options: ProbeOptions = {}): Promise<ProbeReport> {
  return probe(misbehaveLaunch(mode).command, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, maxPages: 5, ...options, timeouts: { ...FAST, ...options.timeouts } });
}

function gone(report: ProbeReport): void {
  expect(report.close?.survivors).toEqual([]);
}

const kinds = (report: ProbeReport): string[] => report.findings.map((f) => f.kind);

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

  test('start-up has its own deadline: a slow start within it is fine even past the per-request one; a silent server fails it', async () => {
    const slow = await probeMode('slow_start', { timeouts: { startupMs: 5_000, requestMs: 150 } });
    expect(slow).toMatchObject({ complete: true, findings: [] });
    expect(slow.failure).toBeUndefined();
    const silent = await probeMode('silent_init', { timeouts: { startupMs: 200, requestMs: 5_000 } });
    expect(silent.failure).toMatchObject({ class: 'timeout', kind: 'deadline' });
    expect(silent.failure?.message).toContain('initialize #1: no answer within 200 ms');
    gone(slow);
    gone(silent);
  });

  test('follows pagination to the end', async () => {
    const report = await probeMode('pages');
    expect(report).toMatchObject({ pages: 3, complete: true, findings: [] });
    expect(report.tools.map((tool) => tool.name)).toEqual(['read_source', 'extra_2', 'extra_3']);
    gone(report);
  });

  test('a repeated cursor and an endless listing stop with findings; an empty cursor is reported, never sent back', async () => {
    const repeated = await probeMode('cursor');
    expect(repeated).toMatchObject({ pages: 2, complete: false, findings: [{ kind: 'repeated_cursor', basis: 'caplab host rule' }, { kind: 'duplicate_tool' }] });
    const endless = await probeMode('endless', { maxPages: 4 });
    expect(endless).toMatchObject({ pages: 4, complete: false, findings: [{ kind: 'page_limit' }] });
    const empty = await probeMode('empty_cursor');
    // One page: the empty cursor was not sent back as a second request.
    expect(empty).toMatchObject({ pages: 1, complete: false, findings: [{ kind: 'empty_cursor', evidence: '""' }] });
    expect(empty.tools.map((t) => t.name)).toEqual(['read_source']);
    for (const report of [repeated, endless, empty]) gone(report);
  });

  test('each listing finding names the tool, its evidence and basis', async () => {
    const report = await probeMode('bad_tools');
    const by = (kind: string) => report.findings.filter((f) => f.kind === kind);
    expect(by('tool_name').map((f) => f.tool)).toEqual(['has space', 'n'.repeat(200)]);
    expect(by('tool_name')[0]?.basis).toBe('caplab host rule'); // a SHOULD only from 2025-11-25
    expect(by('duplicate_tool')).toEqual([expect.objectContaining({ tool: 'twice', evidence: '2 entries' })]);
    expect(by('input_schema')).toEqual([expect.objectContaining({ tool: 'string_input', basis: 'spec MUST' })]);
    expect(by('schema_invalid')).toEqual([expect.objectContaining({ tool: 'broken_output', basis: 'spec MUST' })]);
    expect(by('remote_ref')).toEqual([expect.objectContaining({ tool: 'remote_ref', evidence: 'https://example.invalid/a.json' })]);
    expect(by('schema_unknown_keyword')).toEqual([expect.objectContaining({ tool: 'unknown_keyword' })]);
    expect(by('schema_unknown_format')).toEqual([expect.objectContaining({ tool: 'unknown_format' })]);
    expect(by('oversized_description')).toEqual([expect.objectContaining({ tool: 'long_description' })]);
    expect(report.tools.find((t) => t.name === 'hinted')?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(report.findings.every((f) => ['spec MUST', 'spec SHOULD', 'caplab host rule'].includes(f.basis))).toBe(true);
    expect(report.findings.filter((f) => f.tool === 'hinted' || f.tool === 'read_source')).toEqual([]);
    gone(report);
  });

  test('list_changed: re-listed; a finding only when the list changed or was never declared', async () => {
    const changed = await probeMode('changes');
    expect(changed.listChanged).toEqual({ declared: true, received: 1, relisted: true, changed: true });
    expect(kinds(changed)).toEqual(['tools_changed']);
    expect(changed.findings[0]?.evidence).toContain('added [added_later]');
    const undeclared = await probeMode('undeclared_change');
    expect(undeclared.listChanged).toEqual({ declared: false, received: 1, relisted: true, changed: false });
    expect(kinds(undeclared)).toEqual(['list_changed_undeclared']);
    gone(changed);
    gone(undeclared);
  });

  test('a server request other than ping is a finding (ping is answered and not reported)', async () => {
    const report = await probeMode('server_request');
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'server_request', basis: 'spec MUST', evidence: 'sampling/createMessage' })]);
    gone(report);
  });

  test('versions: 2025-11-25, 2025-03-26 and 2024-11-05 are listed with notes, not findings; others end the session', async () => {
    const newer = await probeMode('v2025_11');
    expect(newer).toMatchObject({ protocolVersion: '2025-11-25', complete: true, findings: [] });
    expect(newer.versionNotes?.notChecked).toContain('icons');
    const older = await probeMode('v2025_03');
    expect(older).toMatchObject({ protocolVersion: '2025-03-26', complete: true, findings: [] });
    expect(older.versionNotes?.notApplicable.join(' ')).toContain('structuredContent');
    const oldest = await probeMode('v2024', { calls: [READ] });
    expect(oldest).toMatchObject({ protocolVersion: '2024-11-05', complete: true, findings: [] });
    expect(oldest.tools.map((t) => t.name)).toEqual(['read_source']);
    // No structured-content checks for a revision without them: the plain text result is clean.
    expect(oldest.calls).toEqual([expect.objectContaining({ outcome: 'result', findings: [] })]);
    const future = await probeMode('future');
    expect(future.failure).toMatchObject({ kind: 'version_mismatch', basis: 'spec SHOULD' });
    expect(future.tools).toEqual([]);
    for (const report of [newer, older, oldest, future]) gone(report);
  });

  test('a tool name rule breach is the spec SHOULD for a 2025-11-25 server', async () => {
    // bad_tools speaks 2025-06-18: caplab's own rule. The basis follows the revision (profile table).
    const { versionProfile } = await import('./probe-versions.ts');
    expect(versionProfile('2025-11-25')?.nameRule).toBe('spec SHOULD');
    expect(versionProfile('2025-06-18')?.nameRule).toBe('caplab host rule');
  });

  test('protocol failures after initialize end the session: stray stdout, duplicate response, invalid UTF-8', async () => {
    for (const [mode, kind] of [['stray', 'framing'], ['duplicate', 'duplicate_response'], ['bad_utf8', 'encoding']] as const) {
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
    expect(report).toMatchObject({ pages: 0, failure: { class: 'spawn' } });
  });
});

describe('probe --call: sent once, judged', () => {
  test('a result whose text carries the serialized structuredContent, valid against the outputSchema: clean', async () => {
    const report = await probeMode('serialized', { calls: [READ] });
    expect(report.calls).toEqual([expect.objectContaining({ tool: 'read_source', outcome: 'result', outputSchema: 'valid', structuredContent: true, contentTypes: ['text'], findings: [] })]);
    expect(report.findings).toEqual([]);
    gone(report);
  });

  test('a draft-07 outputSchema is read as draft-07', async () => {
    const report = await probeMode('draft07', { calls: [READ] });
    expect(report.findings).toEqual([]);
    expect(report.calls[0]).toMatchObject({ outputSchema: 'valid', findings: [] });
  });

  test('findings per call: schema violation, missing structuredContent, text without it (SHOULD), isError, unknown content type', async () => {
    const cases: [Mode, string, string][] = [
      ['bad_output', 'output_schema_violation', 'spec MUST'],
      ['no_structured', 'missing_structured_content', 'spec MUST'],
      ['text_only', 'text_without_structured', 'spec SHOULD'],
      ['is_error', 'is_error', 'caplab host rule'],
      ['odd_content', 'content_type', 'spec MUST'],
      ['rpc_error', 'jsonrpc_error', 'caplab host rule'],
    ];
    for (const [mode, kind, basis] of cases) {
      const report = await probeMode(mode, { calls: [READ] });
      expect([mode, report.calls[0]?.findings.map((f) => [f.kind, f.basis, f.tool])]).toEqual([mode, [[kind, basis, 'read_source']]]);
      expect(report.failure).toBeUndefined();
      gone(report);
    }
  });

  test('a --call of a name the server did not list: an unlisted_tool finding (caplab host rule), still sent, and what came back is judged', async () => {
    // This server answers every tools/call name alike: it runs a tool it never listed.
    const report = await probeMode('ok', { calls: [{ name: 'hidden_tool', arguments: { source_id: 'alpha' } }, READ] });
    expect(report.calls.map((c) => [c.tool, c.outcome, c.findings.map((f) => [f.kind, f.basis])])).toEqual([
      ['hidden_tool', 'result', [['unlisted_tool', 'caplab host rule']]],
      ['read_source', 'result', []],
    ]);
    expect(report.calls[0]!.findings[0]!.message).toContain('sent as asked, outcome result');
    gone(report);
  });

  test('a call past its deadline: timeout, outcome unknown, never re-sent', async () => {
    const report = await probeMode('slow', { calls: [READ], timeouts: { requestMs: 100 } });
    expect(report.calls).toEqual([expect.objectContaining({ outcome: 'unknown', findings: [expect.objectContaining({ class: 'timeout', kind: 'deadline' })] })]);
    // The server saw the call once: the late answer was dropped, the call not sent again.
    expect(report.stderr.match(/tools\/call #\d+ received/g)).toEqual(['tools/call #3 received']);
    gone(report);
  });

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
  const deadline = performance.now() + 5_000;
  while (isRunning(Number(match![1])) && performance.now() < deadline) await Bun.sleep(20);
  expect(isRunning(Number(match![1]))).toBe(false);
});
