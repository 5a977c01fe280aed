import { expect, test } from 'bun:test';
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { discoverPackages, packagesInDir } from './index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { STAGES } from '../excerpt/stages.ts';

const ROOT = join(import.meta.dir, '../..');

function tempDir(): string {
  return scratchDir('caplab-skills-');
}

test('embedded packages are found without touching the disk layout', () => {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  expect(found.value.map((p) => [p.name, p.origin.kind])).toEqual([['excerpt-card', 'embedded']]);
});

test('--skills DIR adds the packages in its sub-folders after the embedded ones', () => {
  const dir = tempDir();
  cpSync(join(ROOT, 'fixtures/skills/valid-minimal'), join(dir, 'valid-minimal'), { recursive: true });
  const found = discoverPackages({ dirs: [dir], stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  expect(found.value.map((p) => p.name)).toEqual(['excerpt-card', 'valid-minimal']);
  expect(found.value[1]!.origin).toEqual({ kind: 'dir', path: join(dir, 'valid-minimal') });
});

test('a name given twice is refused, naming both origins', () => {
  const dir = tempDir();
  cpSync(join(ROOT, 'skills/excerpt-card'), join(dir, 'excerpt-card'), { recursive: true });
  const found = discoverPackages({ dirs: [dir], stages: STAGES });
  expect(found.ok).toBe(false);
  if (found.ok) return;
  expect([found.class, found.kind]).toEqual(['invalid_arguments', 'duplicate_package']);
  expect(found.message).toContain('embedded');
  expect(found.message).toContain(join(dir, 'excerpt-card'));
  // The same copy alone (no embedded set) is a valid package: the refusal was the duplicate.
  expect(packagesInDir(dir, STAGES).ok).toBe(true);
});

test('a bad package in DIR refuses the set with that package’s reason', () => {
  const dir = tempDir();
  cpSync(join(ROOT, 'fixtures/skills/valid-minimal'), join(dir, 'valid-minimal'), { recursive: true });
  cpSync(join(ROOT, 'fixtures/skills/hash-mismatch'), join(dir, 'hash-mismatch'), { recursive: true });
  const found = discoverPackages({ dirs: [dir], stages: STAGES });
  expect(found.ok).toBe(false);
  if (!found.ok) expect([found.class, found.kind]).toEqual(['evidence', 'hash_mismatch']);
});

test('DIR must be a folder of packages: not a package itself, not missing, no folder without SKILL.md', () => {
  const itself = packagesInDir(join(ROOT, 'fixtures/skills/valid-minimal'), STAGES);
  const missing = packagesInDir(join(tempDir(), 'nope'), STAGES);
  for (const result of [itself, missing]) {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.kind).toBe('bad_skills_dir');
  }
  expect(!itself.ok && itself.message).toContain('package itself');
  const dir = tempDir();
  mkdirSync(join(dir, 'empty'));
  const empty = packagesInDir(dir, STAGES);
  expect(!empty.ok && [empty.kind, empty.message.includes('`SKILL.md`: file missing')]).toEqual(['missing_resource', true]);
});

test('a dangling symlink or a symlink loop in DIR is a named usage error, not a crash', () => {
  const dir = tempDir();
  try {
    cpSync(join(ROOT, 'fixtures/skills/valid-minimal'), join(dir, 'valid-minimal'), { recursive: true });
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    const dangling = packagesInDir(dir, STAGES);
    expect(!dangling.ok && [dangling.class, dangling.kind]).toEqual(['invalid_arguments', 'bad_skills_dir']);
    expect(!dangling.ok && dangling.message).toContain("entry 'dangling' cannot be resolved");
    rmSync(join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    const loop = packagesInDir(dir, STAGES);
    expect(!loop.ok && [loop.kind, loop.message.includes("entry 'loop' cannot be resolved")]).toEqual(['bad_skills_dir', true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
