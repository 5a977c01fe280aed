import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asOlderFormat, copyRun, demoRunDir, readEvents, rechain } from '../cli/verify-test-kit.ts';
import { canonicalHash, sha256Hex } from '../contract/index.ts';
import { excerptTask, fixtureSnapshot } from '../excerpt/index.ts';
import { LEDGER_FORMAT, LEDGER_FORMAT_2, LEDGER_FORMAT_3, verify } from '../ledger/index.ts';
import { inProcessHook } from '../pipeline/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { scriptedModel } from './scenario.ts';
import { happyScenario } from './testing/happy.ts';
import { testHost } from './testing/test-host.ts';

const temp = mkdtempSync(join(tmpdir(), 'caplab-record-checks-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let demo = '';
// The demo as a record of format 2 looks (made before format 4): readable exactly as before.
let demo2 = '';
beforeAll(async () => {
  demo = await demoRunDir(temp);
  demo2 = asOlderFormat(demo, temp, LEDGER_FORMAT_2);
});

const kindOf = (dir: string) => {
  const report = verify(dir, { recheck: recheckAcceptance(excerptTask) });
  return report.ok ? `verifies ${report.value.format}` : report.kind;
};

/** Re-labels a copy of the format 2 demo run as `format`, seal and run_end both, as a careful forger would. */
function relabelled(format: string, edit = (e: Record<string, unknown>) => e): string {
  const dir = copyRun(demo2, temp);
  const seal = join(dir, 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace(LEDGER_FORMAT_2, format));
  rechain(dir, (events) => events.map((e) => edit(e.type === 'run_end' ? { ...e, format } : e)) as typeof events);
  return dir;
}

test('a demo run is format 4 and verifies; as format 2 and 3 made it, it verifies too; relabelled as 3 it uses none of 3’s shapes: format_mismatch', () => {
  expect(kindOf(demo)).toBe(`verifies ${LEDGER_FORMAT}`);
  expect(kindOf(demo2)).toBe(`verifies ${LEDGER_FORMAT_2}`);
  const hooked = asOlderFormat(demo, temp, LEDGER_FORMAT_3);
  rechain(hooked, (events) => events.map((e) => (e.type === 'run_start' ? { ...e, method: { ...(e['method'] as object), plain: true, body: { sha256: '0'.repeat(64), bytes: 0 } } } : e)));
  expect(kindOf(hooked)).toBe(`verifies ${LEDGER_FORMAT_3}`);
  expect(kindOf(relabelled(LEDGER_FORMAT_3))).toBe('format_mismatch');
  // A format 4 record carries shapes 2 and 3 have none of: relabelled, it is no record of theirs.
  const seal = join(copyRun(demo, temp), 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace(LEDGER_FORMAT, LEDGER_FORMAT_2));
  rechain(join(seal, '..'), (events) => events.map((e) => (e.type === 'run_end' ? (({ format: _f, ...end }) => end)(e) as typeof e : e)));
  expect(kindOf(join(seal, '..'))).toBe('format_mismatch');
});

test('a format 2 record carrying a format 3 shape (hook block hashes) is refused', () => {
  const dir = copyRun(demo2, temp);
  rechain(dir, (events) => events.map((e) => (e.type === 'call' && e['tool_call_id'] === 'toolu_01' ? { ...e, hook_text_sha256: ['0'.repeat(64)] } : e)));
  expect(kindOf(dir)).toBe('format_mismatch');
});

test('the seal alone moved to another format than run_end names: format_mismatch', () => {
  const dir = copyRun(demo, temp);
  const seal = join(dir, 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace(LEDGER_FORMAT, LEDGER_FORMAT_3));
  expect(kindOf(dir)).toBe('format_mismatch');
});

test('format 3 claimed with a method that only says plain (false, or true without a body) is refused', () => {
  for (const plain of [false, true]) {
    const dir = relabelled(LEDGER_FORMAT_3, (e) => (e.type === 'run_start' ? { ...e, method: { ...(e['method'] as object), plain } } : e));
    expect([plain, kindOf(dir)]).toEqual([plain, 'format_mismatch']);
  }
});

/** The tool_result answering `toolCallId` in a request payload of `dir`. */
const resultIn = (dir: string, file: string, toolCallId: string) =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')).messages as { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[])
    .flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []))
    .find((b) => b.type === 'tool_result' && b.tool_use_id === toolCallId)!;
const editCall = (dir: string, toolCallId: string, edit: (e: Record<string, unknown>) => Record<string, unknown>) =>
  rechain(dir, (events) => events.map((e) => (e.type === 'call' && e['tool_call_id'] === toolCallId ? { ...edit(e), type: 'call' } : e)));

test("a call records model_content_sha256: the sha256 of the canonical JSON of its tool_result's blocks as the next request carries them", () => {
  const call = readEvents(demo).find((e) => e.type === 'call' && e['tool_call_id'] === 'toolu_01')!;
  const result = resultIn(demo, 'requests/02-request.json', 'toolu_01');
  expect(call['model_content_sha256']).toBe(canonicalHash(result.content));
  expect(result.content).toEqual([{ type: 'text', text: fixtureSnapshot().sources[0]!.text }]);
});

test('a call whose recorded content hash is not the content its tool_result carries does not verify (result_mismatch)', () => {
  const dir = copyRun(demo, temp);
  editCall(dir, 'toolu_01', (e) => ({ ...e, model_content_sha256: canonicalHash([{ type: 'text', text: 'another answer' }]) }));
  expect(kindOf(dir)).toBe('result_mismatch');
});

test('a record from before the content hash ties each block by its text hash (model_text_sha256): as made it verifies, edited it does not; with neither hash it is a bad event', () => {
  const text = fixtureSnapshot().sources[0]!.text;
  const legacy = (textSha256: string) => (e: Record<string, unknown>) => {
    const { model_content_sha256: _, ...rest } = e;
    return { ...rest, model_text_sha256: textSha256 };
  };
  const asMade = asOlderFormat(demo, temp, LEDGER_FORMAT_2);
  expect(kindOf(asMade)).toBe(`verifies ${LEDGER_FORMAT_2}`);
  expect(readEvents(asMade).find((e) => e['tool_call_id'] === 'toolu_01')!['model_text_sha256']).toBe(sha256Hex(text));
  const edited = copyRun(asMade, temp);
  editCall(edited, 'toolu_01', legacy(sha256Hex(`${text} `)));
  expect(kindOf(edited)).toBe('result_mismatch');
  // Format 4 has no text hash: a format 4 call with it instead of the content hash is a call of 2 and 3, not of 4.
  const mixed = copyRun(demo, temp);
  editCall(mixed, 'toolu_01', legacy(sha256Hex(text)));
  expect(kindOf(mixed)).toBe('format_mismatch');
  const neither = copyRun(demo, temp);
  editCall(neither, 'toolu_01', (e) => {
    const { model_content_sha256: _, ...rest } = e;
    return rest;
  });
  expect(kindOf(neither)).toBe('bad_event');
});

test("a hooked call's block hashes are tied too: a hook hash edited while the content hash stands does not verify", async () => {
  const note = inProcessHook('PostToolUse', 'read_source', 'note', () => ({ block: 'looked at' }));
  const runDir = join(temp, 'hooked');
  const outcome = await runTask({ task: excerptTask, model: scriptedModel(happyScenario()), runId: 'hooked', runDir, ...testHost(), hooks: [note] });
  if (!outcome.ok) throw new Error(outcome.message);
  expect(kindOf(runDir)).toBe(`verifies ${LEDGER_FORMAT}`);
  const result = resultIn(runDir, 'requests/02-request.json', 'toolu_01');
  expect((result.content as { text: string }[]).map((b) => b.text).at(-1)).toBe('[PostToolUse hook note: looked at]');
  const dir = copyRun(runDir, temp);
  editCall(dir, 'toolu_01', (e) => ({ ...e, hook_text_sha256: [sha256Hex('[PostToolUse hook note: looked away]')] }));
  expect(kindOf(dir)).toBe('result_mismatch');
});
