/** Settings files are inputs from outside: read bounded, by kind, and an untrusted one not at all. */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '../../contract/index.ts';
import { loadSettings, type ReadText } from './load.ts';
import { PROJECT_SETTINGS, resolveSettings } from './resolve.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-settings-bounded-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const kindOf = (outcome: { ok: boolean; class?: string; kind?: string }) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);

function write(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

test('a FIFO or a directory named with --settings is refused by kind, never opened for reading', async () => {
  const fifo = join(scratch, 'settings.fifo');
  expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
  expect(kindOf(await loadSettings(fifo))).toBe('precondition/not_regular_file');
  const dir = join(scratch, 'settings-dir');
  mkdirSync(dir);
  expect(kindOf(await loadSettings(dir))).toBe('precondition/not_regular_file');
});

test('a settings file past LIMITS.settingsBytes is too_large, naming the file', async () => {
  const path = write('big.json', `{"permissions":{"deny":[]},"pad":"${'x'.repeat(LIMITS.settingsBytes)}"}`);
  const loaded = await loadSettings(path);
  expect(kindOf(loaded)).toBe('precondition/too_large');
  expect(loaded.ok ? '' : loaded.message).toContain(path);
});

test('nesting past LIMITS.fileJsonDepth and non-finite numbers are refused by kind', async () => {
  const deep = write('deep.json', `{"permissions":{"deny":${'['.repeat(LIMITS.fileJsonDepth)}${']'.repeat(LIMITS.fileJsonDepth)}}}`);
  expect(kindOf(await loadSettings(deep))).toBe('invalid_arguments/too_deep');
  const infinite = write('infinite.json', '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","timeout":1e400}]}]}}');
  const loaded = await loadSettings(infinite);
  expect(kindOf(loaded)).toBe('invalid_arguments/non_finite_number');
  expect(loaded.ok ? '' : loaded.message).toContain('$.hooks.PreToolUse[0].hooks[0].timeout');
});

test('an untrusted project file is never read, only noticed — whatever is there (FIFO, directory, dangling symlink)', async () => {
  for (const kind of ['fifo', 'dir', 'dangling', 'file'] as const) {
    const root = join(scratch, `project-${kind}`);
    mkdirSync(join(root, '.caplab'), { recursive: true });
    const path = join(root, PROJECT_SETTINGS);
    if (kind === 'fifo') expect(Bun.spawnSync(['mkfifo', path]).exitCode).toBe(0);
    if (kind === 'dir') mkdirSync(path);
    if (kind === 'dangling') symlinkSync(join(root, 'nowhere.json'), path);
    if (kind === 'file') writeFileSync(path, '{}');
    const reads: string[] = [];
    const readText: ReadText = async (p) => (reads.push(p), undefined);
    const resolved = await resolveSettings({ trustProject: false, cwd: root, readText });
    if (!resolved.ok) throw new Error(resolved.message);
    expect(reads).toEqual([]);
    expect(resolved.value.notices).toHaveLength(1);
    expect(resolved.value.notices[0]).toContain(`ignored untrusted project settings ${path}`);
  }
});

test('a trusted project FIFO is refused by kind (it would have hung the run)', async () => {
  const root = join(scratch, 'trusted-fifo');
  mkdirSync(join(root, '.caplab'), { recursive: true });
  expect(Bun.spawnSync(['mkfifo', join(root, PROJECT_SETTINGS)]).exitCode).toBe(0);
  expect(kindOf(await resolveSettings({ trustProject: true, cwd: root }))).toBe('precondition/not_regular_file');
});
