import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPLAB_VERSION } from './version.ts';

test('CAPLAB_VERSION is the version package.json declares', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dir, '..', 'package.json'), 'utf8'));
  expect(CAPLAB_VERSION).toBe(pkg.version);
});

test('from source --version --json: build and target null, commit and dirtiness from git in this checkout; other arguments a usage error', async () => {
  const { cli } = await import('./cli/index.ts');
  const { testIo } = await import('./cli/test-io.ts');
  const io = testIo('/');
  expect(await cli(['--version', '--json'], io)).toBe(0);
  const doc = JSON.parse(io.out());
  const head = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: join(import.meta.dir, '..') }).stdout.toString().trim();
  const status = Bun.spawnSync(['git', 'status', '--porcelain'], { cwd: join(import.meta.dir, '..') }).stdout.toString().trim();
  expect(doc).toEqual({ version: CAPLAB_VERSION, commit: head, dirty: status !== '', bun: Bun.version, target: null, platform: process.platform, arch: process.arch, build: null });
  expect(Object.keys(doc)).toEqual(['version', 'commit', 'dirty', 'bun', 'target', 'platform', 'arch', 'build']);
  expect(head).toMatch(/^[0-9a-f]{40}$/);
  for (const argv of [['--version', '--json', 'x'], ['--version', '--jsonx'], ['-v', 'extra']]) {
    const bad = testIo('/');
    expect({ argv, code: await cli(argv, bad), out: bad.out() }).toEqual({ argv, code: 2, out: '' });
  }
});

test('from source without git on PATH, --version --json says commit and dirty null', () => {
  const result = Bun.spawnSync([process.execPath, join(import.meta.dir, 'main.ts'), '--version', '--json'], { env: { PATH: '/nonexistent' }, stdout: 'pipe', stderr: 'pipe' });
  expect(result.exitCode).toBe(0);
  expect(JSON.parse(result.stdout.toString())).toMatchObject({ commit: null, dirty: null, build: null, target: null });
});
