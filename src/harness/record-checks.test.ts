import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyRun, demoRunDir, rechain } from '../cli/verify-test-kit.ts';
import { excerptTask } from '../excerpt/index.ts';
import { LEDGER_FORMAT, LEDGER_FORMAT_3, verify } from '../ledger/index.ts';
import { recheckAcceptance } from './recheck.ts';

const temp = mkdtempSync(join(tmpdir(), 'caplab-record-checks-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let demo = '';
beforeAll(async () => {
  demo = await demoRunDir(temp);
});

const kindOf = (dir: string) => {
  const report = verify(dir, { recheck: recheckAcceptance(excerptTask) });
  return report.ok ? `verifies ${report.value.format}` : report.kind;
};

/** Re-labels a copy of the demo run as `format`, seal and run_end both, as a careful forger would. */
function relabelled(format: string, edit = (e: Record<string, unknown>) => e): string {
  const dir = copyRun(demo, temp);
  const seal = join(dir, 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace(LEDGER_FORMAT, format));
  rechain(dir, (events) => events.map((e) => edit(e.type === 'run_end' ? { ...e, format } : e)) as typeof events);
  return dir;
}

test('a demo run is format 2 and verifies; relabelled as 3 (seal and run_end) it uses none of 3’s shapes: format_mismatch', () => {
  expect(kindOf(demo)).toBe(`verifies ${LEDGER_FORMAT}`);
  expect(kindOf(relabelled(LEDGER_FORMAT_3))).toBe('format_mismatch');
});

test('a format 2 record carrying a format 3 shape (hook block hashes) is refused', () => {
  const dir = copyRun(demo, temp);
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
