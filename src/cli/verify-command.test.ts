import { expect, test } from 'bun:test';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { canonicalHash } from '../contract/index.ts';
import { cli } from './cli.ts';
import { rechain } from '../ledger/test-kit.ts';
import { testIo } from './test-io.ts';
import { asOlderFormat } from './verify-test-kit.ts';
import { scratchDir } from '../../test/scratch.ts';

async function demoRunDir(): Promise<string> {
  const io = testIo(scratchDir('caplab-verify-'));
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 'v'], io)).toBe(0);
  return JSON.parse(io.out()).run_dir;
}

const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

async function verifyJson(dir: string) {
  const io = testIo('/');
  const code = await cli(['verify', dir, '--json'], io);
  return { code, doc: JSON.parse(io.out()) };
}

test('an untouched demo run dir verifies, with acceptance re-computed from the recorded bytes', async () => {
  const dir = await demoRunDir();
  const { code, doc } = await verifyJson(dir);
  expect(code).toBe(0);
  expect(doc.verified).toBe(true);
  expect(doc.rechecked).toBe(true);
  expect(doc.recheck.accepted).toBe(true);
});

test('flipping one byte of any file of a real run dir fails verify and names that file or its event', async () => {
  const dir = await demoRunDir();
  const files = filesOf(dir);
  expect(files).toEqual(expect.arrayContaining(['ledger.jsonl', 'ledger.head', 'card/excerpt-card.md', 'requests/02-request.json', 'snapshot/beta.md']));
  let trials = 0;
  for (const file of files) {
    const size = readFileSync(join(dir, file)).byteLength;
    for (const at of new Set([0, Math.floor(size / 2), size - 2, size - 1])) {
      const copy = join(scratchDir('caplab-flip-'), 'run');
      cpSync(dir, copy, { recursive: true });
      const bytes = readFileSync(join(copy, file));
      bytes[at] = bytes[at]! ^ 0x01;
      writeFileSync(join(copy, file), bytes);
      const { code, doc } = await verifyJson(copy);
      expect(code).toBe(1);
      expect(doc.verified).toBe(false);
      // A recorded file is named directly; a ledger edit is named by its line (or the seal by its file).
      const named = doc.error.at.file === file || (file === 'ledger.jsonl' && doc.error.at.file === 'ledger.head') || doc.error.message.includes(file);
      expect({ file, at, named }).toEqual({ file, at, named: true });
      trials++;
    }
  }
  expect(trials).toBeGreaterThan(files.length * 3);
});

test('verify: usage errors exit 2; a missing dir exits 1', async () => {
  const io = testIo('/');
  expect(await cli(['verify'], io)).toBe(2);
  expect(await cli(['verify', 'a', 'b'], io)).toBe(2);
  expect(await cli(['verify', '/nonexistent/run'], io)).toBe(1);
});

test("verify '' is a usage error (exit 2), not the working directory, even where that is a run dir", async () => {
  const dir = await demoRunDir();
  const io = testIo(dir);
  expect(await cli(['verify', ''], io)).toBe(2);
  expect([io.out(), io.err()]).toEqual(['', 'caplab verify: RUN_DIR needs a path; an empty one would mean the working directory\n']);
  expect(await cli(['verify', '.'], testIo(dir))).toBe(0);
});

test('verify of a RUN_DIR that is a symlink to a good run dir: does not verify (exit 1, unexpected_entry), nothing followed', async () => {
  const dir = await demoRunDir();
  const cwd = scratchDir('caplab-verify-link-');
  symlinkSync(dir, join(cwd, 'run'));
  const io = testIo(cwd);
  expect(await cli(['verify', 'run', '--json'], io)).toBe(1);
  const doc = JSON.parse(io.out());
  expect([doc.verified, doc.error.class, doc.error.kind, doc.error.at]).toEqual([false, 'evidence', 'unexpected_entry', { file: '.' }]);
  expect(doc.error.message).toContain('is a symbolic link');
  const text = testIo(cwd);
  expect(await cli(['verify', 'run/'], text)).toBe(1);
  expect(text.out()).toContain('does not verify: evidence/unexpected_entry');
});

test('verify --json on a forged, re-chained demo run names the acceptance check the forgery breaks, in the message and the issues', async () => {
  const io = testIo(scratchDir('caplab-verify-forged-'));
  {
    expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 'f'], io)).toBe(0);
    const dir = JSON.parse(io.out()).run_dir;
    rechain(dir, (events) => {
      const acceptance = events.find((e) => e['type'] === 'acceptance')!;
      const receipt = acceptance['receipt'] as Record<string, unknown>;
      receipt['sha256'] = '0'.repeat(64);
      // A careful forger keeps the acceptance's card summary repeating the receipt.
      acceptance['card'] = { path: receipt['path'], sha256: receipt['sha256'] };
      // …and the create call's hash of the data it returned, which verify ties the receipt to.
      const create = events.find((e) => e['type'] === 'call' && e['name'] === 'create_card')!;
      (create['outcome'] as Record<string, unknown>)['data_sha256'] = canonicalHash(receipt);
      // …and the object version that call reported, which must be the receipt's sha256.
      (create['outcome'] as Record<string, unknown>)['object_version'] = receipt['sha256'];
      return events;
    });
    const { code, doc } = await verifyJson(dir);
    expect([code, doc.verified, doc.error.kind, doc.error.at.type]).toEqual([1, false, 'acceptance_mismatch', 'acceptance']);
    expect(doc.error.message).toContain('acceptance check card_hash re-computes to fail');
    expect(doc.error.issues.filter((i: string) => i.includes(', re-computed fail '))).toEqual([expect.stringMatching(/^card_hash: recorded "pass", re-computed fail /)]);
  }
});

test('a run that ended interrupted after its acceptance was decided is not shown as accepted', async () => {
  // The audit: "ended interrupted, not accepted" and "verdict accepted (re-computed)" on consecutive lines.
  const io = testIo(scratchDir('caplab-verify-interrupted-'));
  expect(await cli(['demo', '--transport', 'local', '--json', '--run-id', 'i'], io)).toBe(0);
  const dir = JSON.parse(io.out()).run_dir;
  rechain(dir, (events) => events.map((e) => (e['type'] === 'run_end' ? { ...e, ending: 'interrupted', accepted: false, exit_code: 130, cause: 'SIGINT: new work stopped', summary: undefined } : e)));
  const verified = testIo('/');
  expect(await cli(['verify', dir], verified)).toBe(0);
  expect(verified.out()).toContain('  verdict none: the run ended interrupted after its acceptance was decided, accepted (re-computed)\n');
  expect(verified.out()).not.toContain('  verdict accepted');
});

test('verify re-checks a record with the task its run_start names: none (every earlier record) is the excerpt, an unknown one is unknown_task', async () => {
  const dir = await demoRunDir();
  expect((await verifyJson(dir)).doc.recheck.accepted).toBe(true);
  // A record before format 4 names no task: the excerpt's.
  const unnamed = await verifyJson(asOlderFormat(dir, scratchDir('caplab-verify-'), 'caplab.ledger/2'));
  expect([unnamed.code, unnamed.doc.verified, unnamed.doc.recheck?.accepted]).toEqual([0, true, true]);
  rechain(dir, (events) => events.map((e) => (e['type'] === 'run_start' ? { ...e, task: 'nosuch' } : e)));
  const unknown = await verifyJson(dir);
  expect([unknown.code, unknown.doc.error.class, unknown.doc.error.kind, unknown.doc.error.at.type]).toEqual([1, 'evidence', 'unknown_task', 'run_start']);
  expect(unknown.doc.error.message).toContain('"nosuch"');
});
