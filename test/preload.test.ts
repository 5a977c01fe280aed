/**
 * The leak check in test/preload.ts, run on a planted suite: a test that
 * leaves a folder in the temp folder makes `bun test` fail and names it; the
 * same suite cleaning up passes; either way the private temp root is removed.
 */
import { expect, test } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch.ts';

async function plantedSuite(body: string) {
  const cwd = scratchDir('caplab-planted-suite-');
  const outerTemp = scratchDir('caplab-planted-tmp-');
  writeFileSync(join(cwd, 'bunfig.toml'), `[test]\npreload = [${JSON.stringify(join(import.meta.dir, 'preload.ts'))}]\n`);
  writeFileSync(
    join(cwd, 'planted.test.ts'),
    `import { test } from 'bun:test';\nimport { mkdtempSync, rmSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\ntest('planted', () => { ${body} });\n`,
  );
  const child = Bun.spawn([process.execPath, 'test'], { cwd, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: outerTemp }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: out + err, left: readdirSync(outerTemp) };
}

test('a test that leaves a folder in the temp folder fails the run, naming it', async () => {
  const run = await plantedSuite(`mkdtempSync(join(tmpdir(), 'caplab-leaked-'));`);
  expect(run.code).not.toBe(0);
  expect(run.output).toMatch(/tests left 1 entry in the temp folder .*caplab-leaked-/);
  expect(run.left).toEqual([]);
});

test('the same suite removing its folder passes, and leaves nothing behind', async () => {
  const run = await plantedSuite(`rmSync(mkdtempSync(join(tmpdir(), 'caplab-leaked-')), { recursive: true });`);
  expect({ code: run.code, output: run.output }).toEqual({ code: 0, output: expect.stringContaining('1 pass') });
  expect(run.left).toEqual([]);
});
