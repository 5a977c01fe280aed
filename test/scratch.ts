/**
 * Temp folders for tests that remove themselves. Inside a test the folder is
 * removed when that test finishes; at a file's top level (outside any test) it
 * is removed after the file's last test. test/preload.ts fails the suite if
 * anything is left in the temp folder, so a test that makes a folder some
 * other way must remove it itself.
 */
import { afterAll, onTestFinished } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the temp folder, removed when the current test (or file) ends. */
export function scratchDir(prefix = 'caplab-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    // Bun refuses onTestFinished outside a running test: this call is at a file's top level.
    afterAll(remove);
  }
  return dir;
}
