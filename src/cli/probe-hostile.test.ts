/**
 * Probe against servers that attack the reader of its report (bounded output,
 * what a reader misses): the real program over a real process, each case
 * also held to the hostile-case invariants (src/mcp/testing/hostile-run.ts).
 */
import { describe, expect, test } from 'bun:test';
import { LIMITS, sha256Hex } from '../contract/index.ts';
import { BIG } from '../mcp/testing/hostile-values.ts';
import { probeHostile } from '../mcp/testing/hostile-run.ts';

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
