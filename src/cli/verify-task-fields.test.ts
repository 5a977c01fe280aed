import { expect, test } from 'bun:test';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { rechain } from '../ledger/test-kit.ts';
import { scratchDir } from '../../test/scratch.ts';

async function verifyJson(dir: string): Promise<{ code: number; doc: any }> {
  const io = testIo('/');
  const code = await cli(['verify', dir, '--json'], io);
  return { code, doc: JSON.parse(io.out()) };
}

async function demoRun(): Promise<string> {
  const io = testIo(scratchDir('caplab-task-fields-'));
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 'f'], io)).toBe(0);
  return JSON.parse(io.out()).run_dir;
}

const withField = (type: string, key: string) => (events: Record<string, unknown>[]) => events.map((e) => (e['type'] === type ? { ...e, [key]: 'forged' } : e));

test('a format 4 record verifies with the fields its task names, and refuses one neither the ledger nor the task names, in run_start, request and acceptance', async () => {
  const dir = await demoRun();
  expect((await verifyJson(dir)).code).toBe(0);
  for (const type of ['run_start', 'request', 'acceptance']) {
    const copy = join(scratchDir('caplab-task-fields-'), 'run');
    cpSync(dir, copy, { recursive: true });
    rechain(copy, withField(type, 'approved_by'));
    const { code, doc } = await verifyJson(copy);
    expect(code).not.toBe(0);
    expect(JSON.stringify(doc)).toContain(`${type} has a field \\"approved_by\\" that neither the ledger (caplab.ledger/4) nor task \\"excerpt\\" names`);
  }
});

test('a /2 record: an unnamed acceptance field is refused too (run_start and request were strict in /2 already)', async () => {
  const copy = join(scratchDir('caplab-task-fields-'), 'run');
  cpSync(join(import.meta.dir, '../../fixtures/records/v2-demo-local'), copy, { recursive: true });
  rechain(copy, withField('acceptance', 'approved_by'));
  // rechain seals in today's format; the record stays a /2 one.
  const seal = join(copy, 'ledger.head');
  writeFileSync(seal, readFileSync(seal, 'utf8').replace('caplab.ledger/4', 'caplab.ledger/2'));
  const { code, doc } = await verifyJson(copy);
  expect(code).not.toBe(0);
  expect(JSON.stringify(doc)).toContain('acceptance has a field \\"approved_by\\" that neither the ledger (caplab.ledger/2) nor task \\"excerpt\\" names');
});
