import { expect, test } from 'bun:test';
import { chmodSync, cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { reportCommand } from './report-command.ts';
import { loadRechecks } from './tasks.ts';
import { testIo } from './test-io.ts';
import { demoRunDir } from './verify-test-kit.ts';

const parent = scratchDir('caplab-report-');
const demo = await demoRunDir(parent);

async function report(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = testIo(cwd);
  const code = await cli(['report', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

test('report writes ./<basename>.report.html by default, says where, and exits 0 for a record that verifies', async () => {
  const cwd = scratchDir('caplab-report-cwd-');
  const { code, out, err } = await report(cwd, demo);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  const page = readFileSync(join(cwd, `${basename(demo)}.report.html`), 'utf8');
  expect(out).toBe(`report: ${join(cwd, `${basename(demo)}.report.html`)} (${Buffer.byteLength(page)} bytes); the record verifies\n`);
  expect(page).toContain('data-verdict="verifies"');
  expect(page).not.toContain('<script');
  expect(readdirSync(cwd)).toEqual([`${basename(demo)}.report.html`]);
});

test('a tampered record: the page is written, the verdict names class/kind and the file, exit 1', async () => {
  const copy = join(scratchDir('caplab-report-t-'), 'run');
  cpSync(demo, copy, { recursive: true });
  const payload = join(copy, 'requests/02-request.json');
  const bytes = readFileSync(payload);
  bytes[10] = bytes[10]! ^ 1;
  writeFileSync(payload, bytes);
  const out = join(scratchDir('caplab-report-o-'), 'page.html');
  const { code, out: said } = await report('/', copy, '--out', out);
  expect(code).toBe(1);
  expect(said).toContain('the record does not verify: evidence/hash_mismatch');
  const page = readFileSync(out, 'utf8');
  expect(page).toContain('does not verify: evidence/hash_mismatch at requests/02-request.json');
  expect(page.match(/unverified: as found/g)?.length).toBeGreaterThanOrEqual(6);
});

test('RUN_DIR that is missing, a file or a symlink: exit 2, nothing written (verify says exit 1 for a missing one)', async () => {
  const cwd = scratchDir('caplab-report-cwd-');
  const file = join(cwd, 'plain.txt');
  writeFileSync(file, 'x');
  const link = join(cwd, 'link');
  symlinkSync(demo, link);
  for (const dir of [join(cwd, 'gone'), file, link]) {
    const { code, err } = await report(cwd, dir);
    expect({ dir, code, err: err.split('\n')[0]!.startsWith('caplab report: RUN_DIR ') }).toEqual({ dir, code: 2, err: true });
  }
  expect(readdirSync(cwd).sort()).toEqual(['link', 'plain.txt']);
  const io = testIo(cwd);
  expect(await cli(['verify', join(cwd, 'gone')], io)).toBe(1);
});

test('--out a folder, a symlink or a path inside a run dir: exit 2, nothing written; usage errors exit 2', async () => {
  const cwd = scratchDir('caplab-report-cwd-');
  const folder = join(cwd, 'folder');
  mkdirSync(folder);
  const link = join(cwd, 'link.html');
  symlinkSync(join(cwd, 'elsewhere.html'), link);
  for (const out of [folder, link, join(demo, 'page.html'), join(demo, 'requests', 'page.html'), join(cwd, 'no-such-folder', 'page.html')]) {
    const { code, err } = await report(cwd, demo, '--out', out);
    expect({ out, code, bad: err.includes('--out') }).toEqual({ out, code: 2, bad: true });
  }
  for (const args of [[], [demo, demo], [''], [demo, '--out', ''], [demo, '--bogus'], [demo, '--out', 'a', '--out', 'b']]) {
    expect({ args, code: (await report(cwd, ...args)).code }).toEqual({ args, code: 2 });
  }
  expect(readdirSync(cwd).sort()).toEqual(['folder', 'link.html']);
  expect(readdirSync(demo).some((name) => name.endsWith('.html'))).toBe(false);
  // The default file lands in the working directory: inside a run dir it is refused too.
  expect((await report(join(demo, 'requests'), demo)).code).toBe(2);
});

test('an existing page is replaced whole, keeping its mode; a page that cannot be written is exit 3', async () => {
  const cwd = scratchDir('caplab-report-cwd-');
  const out = join(cwd, 'page.html');
  writeFileSync(out, 'old');
  chmodSync(out, 0o640);
  expect((await report(cwd, demo, '--out', out)).code).toBe(0);
  expect(readFileSync(out, 'utf8')).toStartWith('<!DOCTYPE html>');
  expect(lstatSync(out).mode & 0o777).toBe(0o640);
  expect(readdirSync(cwd)).toEqual(['page.html']);
  // A device is refused before any work (exit 2).
  expect((await report(cwd, demo, '--out', '/dev/full')).code).toBe(2);
});

test('a page that cannot be written (its folder gone while verify ran) is exit 3, and nothing is left behind', async () => {
  const cwd = scratchDir('caplab-report-cwd-');
  const folder = join(cwd, 'pages');
  mkdirSync(folder);
  const io = testIo(cwd);
  // The folder vanishes after --out was checked, while the record is verified.
  const code = await reportCommand([demo, '--out', join(folder, 'page.html')], io, async (ids) => {
    rmSync(folder, { recursive: true });
    return loadRechecks(ids);
  });
  expect(code).toBe(3);
  expect(io.err()).toContain('caplab report: business/write_failed');
  expect(io.out()).toBe('');
  expect(readdirSync(cwd)).toEqual([]);
});
