/**
 * Loaded before every test file (bunfig.toml `[test] preload`). Gives the
 * suite a private temp folder and fails the run if any test leaves an entry in
 * it. Private, so other processes using the machine's temp folder at the same
 * time neither trip the check nor hide a leak.
 *
 * Setting TMPDIR here reaches os.tmpdir() in every test and the children
 * spawned with an env built from process.env (or by node:child_process).
 * Bun.spawn without `env` passes the environment Bun started with, so such a
 * child would use the outer temp folder, unseen by this check; to see those
 * too, start the suite with its own TMPDIR and check that it stays empty.
 */
import { afterAll } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'caplab-suite-'));
process.env['TMPDIR'] = root;

afterAll(() => {
  const left = readdirSync(root).sort();
  rmSync(root, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(`tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder (each test must remove what it creates): ${left.join(', ')}`);
  }
});
