/**
 * `caplab probe` against hostile servers (issue 20), as a user runs it: the
 * program from source, the server a process (src/mcp/probe/testing/hostile.ts), a
 * private TMPDIR. Servers that attack probe's bounds (depth, $ref loops,
 * 1e400, a backtracking pattern, 10,000 tools) and servers that attack the
 * reader of its report (bounded output, inert text, what a reader misses).
 * Every case is also held to the hostile-case invariants
 * (src/cli/testing/hostile-run.ts): no stack trace, with `--json` stdout one
 * JSON document, the process exit equal to the report's `exit`, no
 * `caplab-probe-*` folder and no server process left.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { until } from '../../test/until.ts';
import { LIMITS, sha256Hex } from '../contract/index.ts';
import { BIG } from '../mcp/probe/testing/hostile-values.ts';
import { probeHostile } from './testing/hostile-run.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const CALL = ['--call', 'judge_me'];

/** Characters a terminal acts on; in text mode only the line breaks probe writes itself may remain. */
const ACTIVE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * At most what one clipped value can take in `--json`: its head is at most
 * `reportValueBytes` of UTF-8, and JSON writes a byte as at most six
 * characters (`\u001b`); its size, hash and keys take less than another 1 KiB.
 */
const CLIPPED_JSON_BYTES = 6 * LIMITS.reportValueBytes + 1024;
/** Everything else a one-tool report holds (command, cwd, env names, listing counts, close report). */
const REPORT_FRAME_BYTES = 8 * 1024;

/** The JSON text of `{"a":…{"a":1}…}`, `depth` deep, written out directly. */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('bounded output', () => {
  test('20,000-deep annotations: --json under one clipped value plus the frame, with the bytes and sha256 of the whole', async () => {
    const { report, stdout } = await probeHostile('deep_annotations', { json: true, depth: 20_000 });
    expect(stdout.length).toBeLessThan(CLIPPED_JSON_BYTES + REPORT_FRAME_BYTES);
    const whole = nestedText(20_000);
    expect(report!['tools'][0].annotations).toEqual({ clipped: 'depth', bytes: whole.length, sha256: sha256Hex(whole), head: whole.slice(0, LIMITS.reportValueBytes) });
    expect(report!['exit']).toBe(0);
  });

  test('every server value past the bounds is clipped with the bytes and sha256 of the whole; stderr keeps its last 4 KiB', async () => {
    const { report, stdout } = await probeHostile('oversized', { json: true, depth: 20_000, flags: ['--call', 'fails', '--call', 'x'] });
    const big = { clipped: 'bytes', bytes: BIG.text.length, sha256: sha256Hex(BIG.text), head: BIG.text.slice(0, LIMITS.reportValueBytes) };
    const deep = nestedText(20_000);
    const r = report!;
    expect(r['serverInfo'].name).toEqual(big);
    expect(r['serverInfo'].websiteUrl).toMatchObject({ clipped: 'bytes', bytes: BIG.text.length + 'https://example.invalid/'.length });
    expect(r['serverInfo'].icons).toMatchObject({ clipped: 'depth', bytes: deep.length + 2, sha256: sha256Hex(`[${deep}]`) });
    expect(r['serverInfo'].extras).toMatchObject({ clipped: 'depth', sha256: sha256Hex(`{"vendor":${deep}}`) });
    expect(r['instructions']).toEqual(big);
    const [tool] = r['tools'];
    expect(tool.name).toMatchObject({ clipped: 'bytes', bytes: BIG.name.length, sha256: sha256Hex(BIG.name) });
    expect([tool.title, tool.description]).toEqual([big, big]);
    expect(tool.annotations).toMatchObject({ clipped: 'depth', sha256: sha256Hex(deep) });
    expect(tool.icons).toMatchObject({ clipped: 'bytes', sha256: sha256Hex(`[{"src":"${BIG.text}"}]`) });
    const [fails, x] = r['calls'];
    expect(fails.findings.map((f: any) => f.kind)).toEqual(['unlisted_tool', 'jsonrpc_error']);
    expect(x.text).toEqual(big);
    expect(x.content).toMatchObject({ clipped: 'depth' });
    // The name a finding gives is the tool's, clipped the same way.
    expect(r['findings'].find((f: any) => f.kind === 'tool_name').tool).toEqual(tool.name);
    for (const f of [...r['findings'], ...fails.findings, ...x.findings]) {
      expect([...f.evidence].length).toBeLessThanOrEqual(LIMITS.evidenceChars);
      expect(Buffer.byteLength(f.message)).toBeLessThanOrEqual(LIMITS.reportValueBytes + 3);
    }
    expect(Buffer.byteLength(r['stderr'])).toBeLessThanOrEqual(LIMITS.reportValueBytes);
    expect(r['stderr']).toEndWith('last line\n');
    // The server sent over a megabyte; the report grows with the number of values it clipped, not their size.
    const clipped = stdout.match(/"clipped": "(bytes|depth)"/g)?.length ?? 0;
    expect(clipped).toBe(14);
    expect(stdout.length).toBeLessThan(clipped * CLIPPED_JSON_BYTES + REPORT_FRAME_BYTES);
  });
});

describe('text mode writes nothing a terminal acts on', () => {
  test('control sequences, bidi overrides and a CR LF in a tool name are escaped; the only exit line is probe’s own', async () => {
    const { stdout, code } = await probeHostile('controls', { flags: ['--call', 'x'] });
    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => ACTIVE.test(line))).toEqual([]);
    expect(lines.filter((line) => /^\s*exit\s/.test(line))).toEqual([`  exit      ${code} (findings)`]);
    expect(lines.at(-1)).toBe(`  exit      ${code} (findings)`);
    // Shown, not acted on: the name with its CR LF written out, the title sequence, the override.
    expect(stdout).toContain('read\\x0d\\x0a  exit      0 (ok)');
    expect(stdout).toContain('\\x1b]0;owned\\x07');
    expect(stdout).toContain('hostile\\u202eevil');
    expect(stdout).toContain('1\\x9b31m\\x7f');
  });
});

describe('what a reader missed', () => {
  test('a call whose text says it failed, without isError, shows that text and the stderr tail (exit 0: no finding)', async () => {
    const { stdout, code } = await probeHostile('fetch_failed', { flags: ['--call', 'fetch'] });
    expect(code).toBe(0);
    expect(stdout).toContain('    text    "Error: request to https://api.example.invalid/v1 failed, reason: fetch failed"');
    expect(stdout).toContain('  stderr    (last lines)\n    | warning: no network\n');
  });
});

const kinds = (findings: readonly { tool?: string; kind: string }[]) => findings.map((f) => `${f.tool}: ${f.kind}`);

describe('probe against hostile servers: a finding, never a crash or a hang, nothing left', () => {
  test('a schema 1,000 levels deep: schema_too_deep, a warning (host rule): exit 0, 1 under --fail-on warning', async () => {
    const { code, report } = await probeHostile('deep_schema', { json: true, depth: 1_000 });
    expect([code, kinds(report!['findings']), report!['findings'][0].level]).toEqual([0, ['deep: schema_too_deep'], 'warning']);
    const strict = await probeHostile('deep_schema', { json: true, depth: 1_000, flags: ['--fail-on', 'warning'] });
    expect([strict.code, strict.report!['failOn']]).toEqual([1, 'warning']);
  });

  test('$ref cycles that never descend: schema_ref_loop on each, a warning: exit 0', async () => {
    const { code, report } = await probeHostile('ref_loop', { json: true, depth: 0 });
    expect([code, kinds(report!['findings'])]).toEqual([0, ['self_ref: schema_ref_loop', 'def_cycle: schema_ref_loop']]);
  });

  test('1e400 in a schema: non_finite_number on that tool, a warning: exit 0', async () => {
    const { code, report } = await probeHostile('non_finite', { json: true, depth: 0 });
    expect([code, kinds(report!['findings'])]).toEqual([0, ['huge_max: non_finite_number']]);
  });

  test('a result 60,000 levels deep: result_too_deep on the call, its checks not made, a warning: exit 0', async () => {
    const { code, report } = await probeHostile('deep_result', { json: true, depth: 60_000, flags: CALL });
    expect(code).toBe(0);
    expect(report!['calls']).toEqual([expect.objectContaining({ tool: 'judge_me', outcome: 'failed', notChecked: expect.arrayContaining(['outputSchema']), findings: [expect.objectContaining({ kind: 'result_too_deep' })] })]);
  });

  test('with --timeout-ms 500, 100 strings against a backtracking pattern end judging_timeout; judging time is shown apart', async () => {
    const { code, report } = await probeHostile('backtrack', { json: true, depth: 0, flags: [...CALL, '--timeout-ms', '500'] });
    expect(code).toBe(0);
    const [call] = report!['calls'];
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
    const { code, stderr, report } = await probeHostile('backtrack', { json: true, depth: 0, flags: [...CALL, '--timeout-ms', '600000'], during: judging });
    expect(code).toBe(143);
    expect(report!['calls']).toEqual([expect.objectContaining({ outcome: 'result', outputSchema: 'not_checked', findings: [] })]);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('caplab: interrupted by SIGTERM');
  });

  test(`${LIMITS.probeTools} tools are reported in full (exit 0); one more gives too_many_tools (a warning: exit 0)`, async () => {
    const full = await probeHostile('tools', { json: true, depth: LIMITS.probeTools });
    expect([full.code, full.report!['tools'].length, full.report!['complete']]).toEqual([0, LIMITS.probeTools, true]);
    const over = await probeHostile('tools', { json: true, depth: LIMITS.probeTools + 1 });
    expect([over.code, over.report!['tools'].length, kinds(over.report!['findings'])]).toEqual([0, LIMITS.probeTools, ['undefined: too_many_tools']]);
  });
});

test('--args with 1e400 is exit 2 invalid_arguments/non_finite_number: nothing is started (it was sent as null)', async () => {
  const io = testIo('/', { PATH });
  expect(await cli(['probe', '--call', 'judge_me', '--args', '{"n":1e400}', '--', '/nonexistent/server'], io)).toBe(2);
  expect(io.err()).toContain('--args for judge_me: invalid_arguments/non_finite_number: non-finite number at $.n');
});
