import { expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { scratchDir } from '../../test/scratch.ts';

/**
 * Run dirs written by earlier releases (fixtures/records, made by caplab at
 * 21a9ae1, before the open host core): every earlier record format stays
 * readable, and its acceptance is re-computed by the task it names — a record
 * without `task` is the excerpt task's.
 */
const RECORDS = [
  { dir: 'v2-demo-local', format: 'caplab.ledger/2' },
  { dir: 'v2-demo-mcp', format: 'caplab.ledger/2' },
  { dir: 'v3-plain-local', format: 'caplab.ledger/3' },
] as const;
const ROOT = join(import.meta.dir, '../../fixtures/records');

async function verifyJson(dir: string) {
  const io = testIo('/');
  const code = await cli(['verify', dir, '--json'], io);
  return { code, doc: JSON.parse(io.out()) };
}

for (const record of RECORDS) {
  test(`a committed ${record.format} run dir (${record.dir}) verifies, acceptance re-computed`, async () => {
    const dir = join(ROOT, record.dir);
    expect(JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format).toBe(record.format);
    expect(readFileSync(join(dir, 'ledger.jsonl'), 'utf8')).not.toContain('"task"');
    const { code, doc } = await verifyJson(dir);
    expect({ code, verified: doc.verified, rechecked: doc.rechecked, accepted: doc.recheck?.accepted }).toEqual({ code: 0, verified: true, rechecked: true, accepted: true });
  });
}

test('a committed caplab.ledger/5 run dir (v5-configured-local: the happy scenario with server-everything configured, at W4) verifies, its servers re-checked', async () => {
  const dir = join(ROOT, 'v5-configured-local');
  expect(JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format).toBe('caplab.ledger/5');
  const start = JSON.parse(readFileSync(join(dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect(start.servers.map((s: { key: string; status: string; tools: unknown[] }) => [s.key, s.status, s.tools.length])).toEqual([['everything', 'started', 13]]);
  const { code, doc } = await verifyJson(dir);
  expect({ code, verified: doc.verified, rechecked: doc.rechecked, accepted: doc.recheck?.accepted }).toEqual({ code: 0, verified: true, rechecked: true, accepted: true });
});

test('a committed caplab.ledger/6 run dir (v6-expectations-everything: the expectations example against server-everything, at W5) verifies, every check re-computed from its scenario copy and result files', async () => {
  const dir = join(ROOT, 'v6-expectations-everything');
  expect(JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format).toBe('caplab.ledger/6');
  const start = JSON.parse(readFileSync(join(dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect([start.task, start.files.map((f: { role: string; path: string }) => `${f.role}:${f.path}`)]).toEqual(['expectations', ['scenario:scenario/everything.json']]);
  const { code, doc } = await verifyJson(dir);
  expect({ code, verified: doc.verified, accepted: doc.recheck?.accepted, checks: doc.recheck?.checks.length }).toEqual({ code: 0, verified: true, accepted: true, checks: 10 });
});

test('a seal naming another format than the run\'s end is format_mismatch at ledger.head, before any event is read in it', async () => {
  const run = testIo(scratchDir('caplab-records-'));
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 's'], run)).toBe(0);
  const copy = join(scratchDir('caplab-records-'), 'run');
  cpSync(JSON.parse(run.out()).run_dir, copy, { recursive: true });
  const seal = join(copy, 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace('caplab.ledger/4', 'caplab.ledger/3'));
  const { code, doc } = await verifyJson(copy);
  expect(code).not.toBe(0);
  expect([doc.error.kind, doc.error.at.file, doc.error.message]).toEqual(['format_mismatch', 'ledger.head', 'ledger.head names format caplab.ledger/3, the run\'s end names "caplab.ledger/4"']);
});

test('a committed caplab.ledger/9 run dir (v9-skill-tool-local: the skill-tool scenario at W8 before dynamic discovery, b40194f) verifies: no skill_packages, so no discovery to re-derive', async () => {
  const dir = join(ROOT, 'v9-skill-tool-local');
  expect(JSON.parse(readFileSync(join(dir, 'ledger.head'), 'utf8')).format).toBe('caplab.ledger/9');
  const start = JSON.parse(readFileSync(join(dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect([start.skill_mode, 'skill_packages' in start]).toEqual(['tool', false]);
  const { code, doc } = await verifyJson(dir);
  expect({ code, verified: doc.verified, rechecked: doc.rechecked, accepted: doc.recheck?.accepted }).toEqual({ code: 0, verified: true, rechecked: true, accepted: true });
});
