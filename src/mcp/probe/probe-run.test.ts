import { describe, expect, test } from 'bun:test';
import type { CallRequest } from './probe-calls.ts';
import { runProbe, type ProbeRun, type ProbeRunOptions } from './probe-run.ts';
import { memoryServer, type MemoryServer } from '../../excerpt/testing/memory-server.ts';
import type { Mode } from '../../excerpt/testing/misbehave-server.ts';

/**
 * The general profile over the misbehaving server in memory (no process):
 * what probe finds in each protocol-level misbehaviour. What only a process
 * shows (start-up death, exit codes, stray bytes, forks, cwd) is in probe.test.ts.
 */
const FAST: ProbeRunOptions['timeouts'] = { startupMs: 5_000, requestMs: 5_000 };
const READ: CallRequest = { name: 'read_source', arguments: { source_id: 'alpha' } };

async function probeMode(mode: Mode, options: Partial<ProbeRunOptions> = {}): Promise<ProbeRun<void> & { server: MemoryServer }> {
  const server = memoryServer(mode);
  const run = await runProbe(server.transport, { maxPages: 5, ...options, timeouts: { ...FAST, ...options.timeouts } });
  // Probe always closes what it opened.
  expect(server.closed()).toBe(true);
  return { ...run, server };
}

const kinds = (run: ProbeRun<void>): string[] => run.findings.map((f) => f.kind);

describe('runProbe (general profile): reports instead of refusing', () => {
  test('start-up has its own deadline: a slow start within it is fine even past the per-request one; a silent server fails it', async () => {
    const slow = await probeMode('slow_start', { timeouts: { startupMs: 5_000, requestMs: 150 } });
    expect(slow).toMatchObject({ complete: true, findings: [] });
    expect(slow.failure).toBeUndefined();
    const silent = await probeMode('silent_init', { timeouts: { startupMs: 200, requestMs: 5_000 } });
    expect(silent.failure).toMatchObject({ class: 'timeout', kind: 'deadline' });
    expect(silent.failure?.message).toContain('initialize #1: no answer within 200 ms');
    expect(silent.started).toBe(false);
  });

  test('follows pagination to the end', async () => {
    const run = await probeMode('pages');
    expect(run).toMatchObject({ pages: 3, complete: true, findings: [] });
    expect(run.tools.map((tool) => tool.name)).toEqual(['read_source', 'extra_2', 'extra_3']);
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
    expect(empty.server.received.filter((m) => m.method === 'tools/list')).toHaveLength(1);
  });

  test('each listing finding names the tool, its evidence and basis', async () => {
    const run = await probeMode('bad_tools');
    const by = (kind: string) => run.findings.filter((f) => f.kind === kind);
    expect(by('tool_name').map((f) => f.tool)).toEqual(['has space', 'n'.repeat(200)]);
    expect(by('tool_name')[0]?.basis).toBe('caplab host rule'); // a SHOULD only from 2025-11-25
    expect(by('duplicate_tool')).toEqual([expect.objectContaining({ tool: 'twice', evidence: '2 entries' })]);
    expect(by('input_schema')).toEqual([expect.objectContaining({ tool: 'string_input', basis: 'spec MUST' })]);
    expect(by('schema_invalid')).toEqual([expect.objectContaining({ tool: 'broken_output', basis: 'spec MUST' })]);
    expect(by('remote_ref')).toEqual([expect.objectContaining({ tool: 'remote_ref', evidence: 'https://example.invalid/a.json' })]);
    expect(by('schema_unknown_keyword')).toEqual([expect.objectContaining({ tool: 'unknown_keyword' })]);
    expect(by('schema_unknown_format')).toEqual([expect.objectContaining({ tool: 'unknown_format' })]);
    expect(by('oversized_description')).toEqual([expect.objectContaining({ tool: 'long_description' })]);
    expect(run.tools.find((t) => t.name === 'hinted')?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(run.findings.every((f) => ['spec MUST', 'spec SHOULD', 'caplab host rule'].includes(f.basis))).toBe(true);
    expect(run.findings.filter((f) => f.tool === 'hinted' || f.tool === 'read_source')).toEqual([]);
  });

  test('list_changed: re-listed; a finding only when the list changed or was never declared', async () => {
    const changed = await probeMode('changes');
    expect(changed.listChanged).toEqual({ declared: true, received: 1, relisted: true, changed: true });
    expect(kinds(changed)).toEqual(['tools_changed']);
    expect(changed.findings[0]?.evidence).toContain('added 1 [added_later], removed 0 []');
    const undeclared = await probeMode('undeclared_change');
    expect(undeclared.listChanged).toEqual({ declared: false, received: 1, relisted: true, changed: false });
    expect(kinds(undeclared)).toEqual(['list_changed_undeclared']);
  });

  test('a server request other than ping is a finding (ping is answered and not reported)', async () => {
    const run = await probeMode('server_request');
    expect(run.findings).toEqual([expect.objectContaining({ kind: 'server_request', basis: 'spec MUST', evidence: 'sampling/createMessage' })]);
  });

  test('versions: 2025-11-25, 2025-03-26 and 2024-11-05 are listed with notes, not findings; others end the session', async () => {
    const newer = await probeMode('v2025_11');
    expect(newer).toMatchObject({ protocolVersion: '2025-11-25', complete: true, findings: [] });
    // Tasks and icons are read at 2025-11-25; what a task's input_required would ask for is not.
    expect(newer.versionNotes?.notChecked.join(' ')).toContain('input_required');
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
  });

  test('a tool name rule breach is the spec SHOULD for a 2025-11-25 server', async () => {
    // bad_tools speaks 2025-06-18: caplab's own rule. The basis follows the revision (profile table).
    const { versionProfile } = await import('../client/index.ts');
    expect(versionProfile('2025-11-25')?.nameRule).toBe('spec SHOULD');
    expect(versionProfile('2025-06-18')?.nameRule).toBe('caplab host rule');
  });

  test('a duplicate response after initialize ends the session as protocol/duplicate_response (spec MUST)', async () => {
    const run = await probeMode('duplicate', { calls: [READ] });
    expect(run.serverInfo).toBeDefined();
    expect(run.failure).toMatchObject({ class: 'protocol', kind: 'duplicate_response', basis: 'spec MUST' });
  });
});

describe('runProbe --call: sent once, judged', () => {
  test('a result whose text carries the serialized structuredContent, valid against the outputSchema: clean', async () => {
    const run = await probeMode('serialized', { calls: [READ] });
    expect(run.calls).toEqual([expect.objectContaining({ tool: 'read_source', outcome: 'result', outputSchema: 'valid', structuredContent: true, contentTypes: ['text'], findings: [] })]);
    expect(run.findings).toEqual([]);
  });

  test('a draft-07 outputSchema is read as draft-07', async () => {
    const run = await probeMode('draft07', { calls: [READ] });
    expect(run.findings).toEqual([]);
    expect(run.calls[0]).toMatchObject({ outputSchema: 'valid', findings: [] });
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
      const run = await probeMode(mode, { calls: [READ] });
      expect([mode, run.calls[0]?.findings.map((f) => [f.kind, f.basis, f.tool])]).toEqual([mode, [[kind, basis, 'read_source']]]);
      expect(run.failure).toBeUndefined();
    }
  });

  test('a result that breaks its shape is malformed_result (spec MUST), the call failed: isError "true"; blocks without what their type requires', async () => {
    const quoted = await probeMode('is_error_string', { calls: [READ] });
    expect(quoted.calls).toEqual([expect.objectContaining({ outcome: 'failed', findings: [expect.objectContaining({ kind: 'malformed_result', basis: 'spec MUST', tool: 'read_source', evidence: '"true"' })] })]);
    expect(quoted.calls[0]?.findings[0]?.message).toContain('isError is not a boolean');
    const blocks = await probeMode('bad_blocks', { calls: [READ] });
    const found = blocks.calls[0]?.findings ?? [];
    expect([blocks.calls[0]?.outcome, found.map((f) => [f.kind, f.basis, f.tool])]).toEqual(['failed', [['malformed_result', 'spec MUST', 'read_source']]]);
    expect(found[0]?.message).toBe(
      'tools/call result is not an MCP CallToolResult: content[1] (text) needs a string text; content[2] (image) needs string data and mimeType; ' +
        'content[3] (audio) needs string data and mimeType; content[4] (resource) needs a resource with a string uri and a string text or blob; ' +
        'content[5] (resource) needs a resource with a string uri and a string text or blob',
    );
    expect(found[0]?.evidence).toBe('{"type":"text"}');
    const { judgeResult } = await import('./probe-calls.ts');
    const { versionProfile } = await import('../client/index.ts');
    // No outputSchema: the judging worker is never asked.
    const unused = { judge: { validate: () => Promise.reject(new Error('not asked')) }, timeoutMs: 1_000 };
    const many = await judgeResult('t', { content: Array.from({ length: 7 }, () => ({ type: 'text', text: 1 })) }, undefined, versionProfile('2025-06-18')!, 0, unused);
    expect(many.findings[0]?.message).toEndWith('content[4] (text) needs a string text (and 2 more)');
    expect([quoted.failure, blocks.failure]).toEqual([undefined, undefined]);
  });

  test('a result whose id is written 3.0, or with a key twice, ends the session (unknown_id, duplicate_key) over any transport', async () => {
    const float = await probeMode('float_id', { calls: [READ] });
    expect(float.failure).toMatchObject({ class: 'protocol', kind: 'unknown_id', basis: 'spec MUST' });
    expect(float.calls[0]).toMatchObject({ outcome: 'failed', findings: [expect.objectContaining({ kind: 'unknown_id', tool: 'read_source' })] });
    const twice = await probeMode('dup_key', { calls: [READ] });
    expect(twice.failure).toMatchObject({ class: 'protocol', kind: 'duplicate_key', basis: 'caplab host rule' });
  });

  test('a --call of a name the server did not list: an unlisted_tool finding (caplab host rule), still sent, and what came back is judged', async () => {
    // This server answers every tools/call name alike: it runs a tool it never listed.
    const run = await probeMode('ok', { calls: [{ name: 'hidden_tool', arguments: { source_id: 'alpha' } }, READ] });
    expect(run.calls.map((c) => [c.tool, c.outcome, c.findings.map((f) => [f.kind, f.basis])])).toEqual([
      ['hidden_tool', 'result', [['unlisted_tool', 'caplab host rule']]],
      ['read_source', 'result', []],
    ]);
    expect(run.calls[0]!.findings[0]!.message).toContain('sent as asked, outcome result');
  });

  test('a call past its deadline: timeout, outcome unknown, never re-sent', async () => {
    const run = await probeMode('slow', { calls: [READ], timeouts: { ...FAST, requestMs: 100 } });
    expect(run.calls).toEqual([expect.objectContaining({ outcome: 'unknown', findings: [expect.objectContaining({ class: 'timeout', kind: 'deadline' })] })]);
    // The server saw the call once: the late answer was dropped, the call not sent again.
    expect(run.server.stderr().match(/tools\/call #\d+ received/g)).toEqual(['tools/call #3 received']);
  });

  test('aborted (SIGINT): the session closes at once and the probe ends with what it has', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await probeMode('ok', { signal: controller.signal });
    expect(run).toMatchObject({ started: false, failure: { class: 'closed', kind: 'session_closed' } });
  });
});
