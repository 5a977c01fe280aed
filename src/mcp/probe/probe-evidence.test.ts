/**
 * What a reader of probe's report needs from every finding and every call:
 * evidence (cut at `evidenceChars`), the tool when it is about one, calls
 * the session never reached, and no finding where there is no tool to blame.
 */
import { describe, expect, test } from 'bun:test';
import { LIMITS } from '../../contract/index.ts';
import type { CallRequest } from './probe-calls.ts';
import type { ProbeFinding } from './probe-finding.ts';
import { probe, type ProbeReport, type ProbeTimeouts } from './probe.ts';
import { runProbe } from './probe-run.ts';
import { memoryServer } from '../../excerpt/testing/memory-server.ts';
import type { Mode } from '../../excerpt/testing/misbehave-server.ts';
import { misbehaveLaunch } from '../../excerpt/testing/misbehave-launch.ts';

const FAST: Partial<ProbeTimeouts> = { startupMs: 5_000, requestMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };
const READ: CallRequest = { name: 'read_source', arguments: { source_id: 'alpha' } };
const NOPE: CallRequest = { name: 'nope', arguments: {} };

/** Kinds that are about one listed tool or one call: each must name it. */
const TOOL_KINDS = new Set(['tool_name', 'duplicate_tool', 'input_schema', 'output_schema', 'oversized_description', 'remote_ref', 'schema_invalid', 'schema_unknown_keyword', 'schema_unknown_format', 'schema_strict', 'schema_dialect']);

function probeMode(mode: Mode, calls: readonly CallRequest[]): Promise<ProbeReport> {
  return probe(misbehaveLaunch(mode).command, { cwd: '/', env: {}, calls, maxPages: 5, timeouts: FAST });
}

/** Every finding of a run: the session's, each call's, and what ended it. */
const allFindings = (run: { findings: readonly ProbeFinding[]; calls: readonly { findings: readonly ProbeFinding[] }[]; failure?: ProbeFinding }) => [
  ...run.findings,
  ...run.calls.flatMap((call) => call.findings),
  ...(run.failure ? [run.failure] : []),
];

function heldToRule(mode: string, findings: readonly ProbeFinding[], callFindings: readonly ProbeFinding[]): void {
  for (const f of findings) {
    expect({ mode, kind: f.kind, evidence: typeof f.evidence === 'string' && f.evidence.length > 0 }).toEqual({ mode, kind: f.kind, evidence: true });
    expect([...f.evidence].length).toBeLessThanOrEqual(LIMITS.evidenceChars);
    if (TOOL_KINDS.has(f.kind)) expect({ mode, kind: f.kind, tool: typeof f.tool }).toEqual({ mode, kind: f.kind, tool: 'string' });
  }
  for (const f of callFindings) expect({ mode, kind: f.kind, tool: typeof f.tool }).toEqual({ mode, kind: f.kind, tool: 'string' });
}

describe('every finding has evidence; every finding about a tool names it', () => {
  test('over the protocol-level misbehaviours (in memory), calls included', async () => {
    const modes: Mode[] = ['bad_tools', 'text_only', 'no_structured', 'bad_output', 'odd_content', 'is_error', 'rpc_error', 'server_request', 'changes', 'undeclared_change', 'endless', 'empty_cursor', 'cursor', 'future', 'unknown_id', 'duplicate', 'hang'];
    const seen = new Set<string>();
    for (const mode of modes) {
      const server = memoryServer(mode);
      const run = await runProbe(server.transport, { calls: [READ, NOPE], maxPages: 5, timeouts: { startupMs: 5_000, requestMs: mode === 'hang' ? 100 : 5_000 } });
      heldToRule(mode, allFindings(run), run.calls.flatMap((call) => call.findings));
      for (const f of allFindings(run)) seen.add(f.kind);
    }
    // The kinds that had no evidence before are among those checked.
    for (const kind of ['text_without_structured', 'unlisted_tool', 'page_limit', 'missing_structured_content']) expect(seen).toContain(kind);
  });

  test('over a process: stray bytes (framing), a crash (connection_lost), a server that dies at start', async () => {
    const cases: [Mode, string][] = [['stray', 'framing'], ['crash', 'connection_lost'], ['die_start', 'connection_lost']];
    for (const [mode, kind] of cases) {
      const report = await probeMode(mode, [READ]);
      expect(report.failure?.kind).toBe(kind);
      heldToRule(mode, allFindings(report), report.calls.flatMap((call) => call.findings));
    }
    // A lost connection's evidence is what the server last said, or, if it said nothing, how it exited.
    const died = await probe(misbehaveLaunch('die_start').command, { env: {}, timeouts: FAST });
    expect(died.failure?.evidence).toBe('stderr ends "fatal: cannot find ./config.toml"');
    const crashed = await probeMode('crash', [READ]);
    expect(crashed.failure?.evidence).toBe('nothing on stderr; server exit code 3');
  });
});

describe('calls', () => {
  test('calls never sent because the session ended are listed as not_sent, with what ended it', async () => {
    const report = await probeMode('crash', [READ, NOPE, READ]);
    expect(report.calls.map((call) => call.outcome)).toEqual(['unknown', 'not_sent', 'not_sent']);
    expect(report.calls[1]).toMatchObject({ tool: 'nope', why: 'the session ended first: closed/connection_lost', findings: [] });
    const unstarted = await probe(['/nonexistent/server'], { cwd: '/', calls: [READ], timeouts: FAST });
    expect(unstarted.calls).toEqual([expect.objectContaining({ tool: 'read_source', outcome: 'not_sent', why: 'the server did not start: spawn/spawn_failed' })]);
  });

  test('an unlisted tool answered with an isError result: a note, and no is_error finding (there is no tool to blame)', async () => {
    const server = memoryServer('is_error');
    const run = await runProbe(server.transport, { calls: [NOPE, READ], timeouts: { startupMs: 5_000, requestMs: 5_000 } });
    const [unlisted, listed] = run.calls;
    expect(unlisted?.note).toContain('the spec lists unknown tools among protocol errors');
    expect(unlisted?.findings.map((f) => f.kind)).toEqual(['unlisted_tool']);
    expect(unlisted?.findings[0]?.evidence).toBe('answered "no such source"');
    // A listed tool's isError stays a finding.
    expect(listed?.findings.map((f) => f.kind)).toEqual(['is_error']);
    expect(listed?.note).toBeUndefined();
  });
});
