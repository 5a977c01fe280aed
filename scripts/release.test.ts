/**
 * The release's pure parts, offline: its arguments, refusals, the files and
 * sums it writes, and what it does when a target cannot be built. The builds
 * here are fakes that write a fixture header (scripts/release/headers.test.ts
 * has the formats); the real release is run by hand (it fetches runtimes).
 */
import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFlags, RELEASE_TARGETS, type ReleaseTarget } from './build.ts';
import { fileName, parseReleaseArgs, release, type ReleaseDeps } from './release.ts';
import { expectedHeader } from './release/headers.ts';
import { allPassed, manifestOf, type CheckRun } from './release/manifest.ts';
import { runsHere } from './release/checks.ts';
import { scratchDir } from '../test/scratch.ts';

/** A fixture executable header for `target`, as its format lays it out. */
function fixture(target: ReleaseTarget, machine = expectedHeader(target).machine): Uint8Array {
  const { format } = expectedHeader(target);
  const bytes = new Uint8Array(256);
  if (format === 'elf') bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, machine === 'x64' ? 62 : 183, 0]);
  else if (format === 'macho') bytes.set([0xcf, 0xfa, 0xed, 0xfe, machine === 'x64' ? 7 : 12, 0, 0, 1]);
  else bytes.set([0x4d, 0x5a]), bytes.set([0x80], 0x3c), bytes.set([0x50, 0x45, 0, 0, 0x64, 0x86], 0x80);
  bytes.set(new TextEncoder().encode(target), 200); // each file different, so the sums differ
  return bytes;
}

function fakeDeps(outDir: string, overrides: Partial<ReleaseDeps> = {}): ReleaseDeps & { built: string[] } {
  const built: string[] = [];
  return {
    outDir,
    gitState: () => ({ commit: 'c'.repeat(40), dirty: false }),
    build: async (target, outfile) => {
      built.push(target);
      writeFileSync(outfile, fixture(target));
      writeFileSync(`${outfile}.map`, '{}'); // what --sourcemap leaves beside
      writeFileSync(join(outfile, '..', 'main-x1.js.map'), '{}');
      return { code: 0, output: '' };
    },
    checks: async (target) => (target === 'linux-x64' ? [{ check: 'test/binary.test.ts', outcome: 'passed', detail: '12 pass, 0 fail' }] : [{ check: 'run', outcome: 'skipped', detail: 'only built' }]),
    bun: '1.4.4',
    lockfileSha256: 'a'.repeat(64),
    log: () => undefined,
    built,
    ...overrides,
  };
}

test('arguments: none is all six targets, --target NAME one; an unknown name or a stray word is refused, naming the six', () => {
  expect(parseReleaseArgs([])).toEqual({ ok: true, targets: RELEASE_TARGETS });
  expect(parseReleaseArgs(['--target', 'darwin-arm64'])).toEqual({ ok: true, targets: ['darwin-arm64'] });
  expect(parseReleaseArgs(['--target', 'macos'])).toEqual({ ok: false, message: `--target takes one of ${RELEASE_TARGETS.join(', ')}; got "macos"` });
  expect(parseReleaseArgs(['--target']).ok).toBe(false);
  expect(parseReleaseArgs(['--target', 'linux-x64', 'x']).ok).toBe(false);
  expect(RELEASE_TARGETS.map(fileName)).toEqual(['caplab-linux-x64', 'caplab-linux-x64-baseline', 'caplab-linux-arm64', 'caplab-darwin-arm64', 'caplab-darwin-x64', 'caplab-windows-x64.exe']);
});

test('a release writes the six files, no .map, SHA256SUMS that sha256sum -c accepts, and release.json with each file\'s build and checks', async () => {
  const out = join(scratchDir('caplab-release-'), 'release');
  const deps = fakeDeps(out);
  const result = await release(RELEASE_TARGETS, deps);
  expect(result).toMatchObject({ ok: true, passed: true });
  expect(readdirSync(out).sort()).toEqual([...RELEASE_TARGETS.map(fileName), 'SHA256SUMS', 'release.json'].sort());
  // The real tool checks the sums file.
  const checked = Bun.spawnSync(['sha256sum', '-c', 'SHA256SUMS'], { cwd: out });
  expect([checked.exitCode, checked.stdout.toString().trim().split('\n').length]).toEqual([0, 6]);
  const manifest = JSON.parse(readFileSync(join(out, 'release.json'), 'utf8'));
  expect([manifest.version, manifest.commit, manifest.bun, manifest.lockfile_sha256]).toEqual(['0.1.0', 'c'.repeat(40), '1.4.4', 'a'.repeat(64)]);
  expect(manifest.files.map((f: any) => [f.name, f.target, f.bytes, f.build])).toEqual(RELEASE_TARGETS.map((t) => [fileName(t), t, 256, buildFlags(t)]));
  expect(manifest.files[0].ran_here.map((r: CheckRun) => [r.check, r.outcome])).toEqual([['header', 'passed'], ['test/binary.test.ts', 'passed']]);
  expect(manifest.files[3].ran_here.map((r: CheckRun) => [r.check, r.outcome])).toEqual([['header', 'passed'], ['run', 'skipped']]);
  expect(buildFlags('darwin-arm64')).toContain('--target=bun-darwin-arm64');
});

test('a target that cannot be built (its runtime not fetched) fails naming it, and no SHA256SUMS or release.json is written', async () => {
  const out = join(scratchDir('caplab-release-'), 'release');
  const ok = fakeDeps(out);
  const deps = fakeDeps(out, {
    build: async (target, outfile, state) => (target === 'darwin-arm64' ? { code: 1, output: 'error: failed to download bun-darwin-aarch64 (ENOTFOUND registry.npmjs.org)' } : ok.build(target, outfile, state)),
  });
  const result = await release(RELEASE_TARGETS, deps);
  expect(result.ok).toBe(false);
  expect(!result.ok && result.message).toStartWith('darwin-arm64: bun build --target=bun-darwin-arm64 failed (exit 1;');
  expect(!result.ok && result.message).toContain('ENOTFOUND registry.npmjs.org');
  expect(ok.built).toEqual(['linux-x64', 'linux-x64-baseline', 'linux-arm64']);
  expect(['SHA256SUMS', 'release.json'].filter((f) => existsSync(join(out, f)))).toEqual([]);
  expect(readdirSync(out).filter((f) => f.startsWith('.stage') || f.endsWith('.map'))).toEqual([]);
});

test('a file whose header is not its target\'s (arm64 under an x64 name) fails the release before any sums', async () => {
  const out = join(scratchDir('caplab-release-'), 'release');
  const deps = fakeDeps(out, { build: async (_target, outfile) => (writeFileSync(outfile, fixture('linux-x64', 'arm64')), { code: 0, output: '' }) });
  expect(await release(['linux-x64'], deps)).toEqual({ ok: false, message: 'caplab-linux-x64: header check failed: linux-x64: the header says elf arm64, want elf x64' });
  expect(existsSync(join(out, 'SHA256SUMS'))).toBe(false);
});

test('a tree with changes, or no git, is refused before anything is built or removed', async () => {
  const out = join(scratchDir('caplab-release-'), 'release');
  for (const state of [{ commit: 'c'.repeat(40), dirty: true }, { commit: null, dirty: null }]) {
    const deps = fakeDeps(out, { gitState: () => state });
    const result = await release(RELEASE_TARGETS, deps);
    expect({ ok: result.ok, built: deps.built, out: existsSync(out) }).toEqual({ ok: false, built: [], out: false });
  }
});

test('the manifest says a skipped and a failed check as they went: never passed, and a failed one fails the release', () => {
  const files = [{ name: 'caplab-linux-arm64', target: 'linux-arm64' as const, bytes: 3, sha256: 'f'.repeat(64), build: buildFlags('linux-arm64') }];
  const skipped: CheckRun = { check: 'demo --transport local under qemu-aarch64-static', outcome: 'skipped', detail: 'qemu-aarch64-static is not installed' };
  const failed: CheckRun = { check: 'test/binary.test.ts', outcome: 'failed', detail: '11 pass, 1 fail' };
  const facts = { version: '0.1.0', commit: 'c'.repeat(40), bun: '1.4.4', lockfileSha256: 'a'.repeat(64) };
  const manifest = manifestOf(facts, files, new Map([['caplab-linux-arm64', [skipped, failed]]])) as { files: { ran_here: CheckRun[] }[] };
  expect(manifest.files[0]!.ran_here).toEqual([skipped, failed]);
  expect(allPassed(new Map([['a', [skipped, failed]]]))).toBe(false);
  expect(allPassed(new Map([['a', [skipped]]]))).toBe(true);
  // A file with no check recorded lists none, not a pass.
  expect((manifestOf(facts, files, new Map()) as { files: { ran_here: CheckRun[] }[] }).files[0]!.ran_here).toEqual([]);
});

test('which targets this machine runs natively (the release runs test/binary.test.ts on those)', () => {
  expect(RELEASE_TARGETS.filter((t) => runsHere(t, 'linux', 'x64'))).toEqual(['linux-x64', 'linux-x64-baseline']);
  expect(RELEASE_TARGETS.filter((t) => runsHere(t, 'darwin', 'arm64'))).toEqual(['darwin-arm64']);
  expect(RELEASE_TARGETS.filter((t) => runsHere(t, 'win32', 'x64'))).toEqual(['windows-x64']);
});
