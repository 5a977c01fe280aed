import { expect, test } from 'bun:test';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../contract/index.ts';
import { discoverPackages, discoverSkills, PROJECT_SKILLS } from './index.ts';
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
  expect(discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: dir }).ok).toBe(true);
});

test('a bad package in DIR is listed as refused with its reason; the others are still read', () => {
  const dir = tempDir();
  cpSync(join(ROOT, 'fixtures/skills/valid-minimal'), join(dir, 'valid-minimal'), { recursive: true });
  cpSync(join(ROOT, 'fixtures/skills/hash-mismatch'), join(dir, 'hash-mismatch'), { recursive: true });
  const found = discoverSkills({ dirs: [dir], stages: STAGES, cwd: dir });
  if (!found.ok) throw new Error(found.message);
  expect(found.value.packages.map((p) => p.name)).toEqual(['excerpt-card', 'valid-minimal']);
  expect(found.value.refused.map((r) => [r.name, r.origin, `${r.failure.class}/${r.failure.kind}`])).toEqual([
    ['hash-mismatch', { kind: 'dir', path: join(dir, 'hash-mismatch') }, 'evidence/hash_mismatch'],
  ]);
  // A run goes on without it, and stops on it only when it names it.
  const unnamed = discoverPackages({ dirs: [dir], stages: STAGES, cwd: dir, named: 'valid-minimal' });
  expect(unnamed.ok && unnamed.value.map((p) => p.name)).toEqual(['excerpt-card', 'valid-minimal']);
  const named = discoverPackages({ dirs: [dir], stages: STAGES, cwd: dir, named: 'hash-mismatch' });
  expect(named.ok ? 'ok' : `${named.kind}: ${named.message}`).toStartWith(`hash_mismatch: package ${join(dir, 'hash-mismatch')}: `);
});

test('a package with no frontmatter, bad YAML or past a limit is refused by name; a folder without SKILL.md too', () => {
  const dir = tempDir();
  const write = (name: string, text: string) => (mkdirSync(join(dir, name)), writeFileSync(join(dir, name, 'SKILL.md'), text));
  write('no-front', '# Just a body\n');
  write('bad-yaml', '---\nname: [unclosed\n---\nbody\n');
  write('too-big', `---\ndescription: big\n---\n${'x'.repeat(LIMITS.skillMdBytes)}`);
  mkdirSync(join(dir, 'empty'));
  const found = discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: dir });
  if (!found.ok) throw new Error(found.message);
  expect(found.value.packages).toEqual([]);
  expect(found.value.refused.map((r) => [r.name, r.failure.kind])).toEqual([
    ['bad-yaml', 'bad_package'],
    ['empty', 'missing_resource'],
    ['no-front', 'bad_package'],
    ['too-big', 'too_large'],
  ]);
});

test('more than LIMITS.skillPackages package folders refuse the set before any is parsed', () => {
  const dir = tempDir();
  // Folders with no SKILL.md: parsing any of them would list it as refused, so a refusal of the set shows none was.
  for (let i = 0; i < LIMITS.skillPackages; i++) mkdirSync(join(dir, `p${String(i).padStart(3, '0')}`));
  const atLimit = discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: dir });
  expect(atLimit.ok && atLimit.value.refused.length).toBe(LIMITS.skillPackages);
  const over = discoverSkills({ dirs: [dir], stages: STAGES, cwd: dir });
  expect(over.ok ? 'ok' : `${over.class}/${over.kind}`).toBe('invalid_arguments/too_many_skills');
  expect(over.ok ? '' : over.message).toContain(`more than ${LIMITS.skillPackages} method packages (limit ${LIMITS.skillPackages}): --skills ${dir} brings them to ${LIMITS.skillPackages + 1}`);
});

/** A project root whose ./.claude/skills/ holds one plain package. */
function project(): string {
  const root = tempDir();
  mkdirSync(join(root, PROJECT_SKILLS, 'proj-notes'), { recursive: true });
  writeFileSync(join(root, PROJECT_SKILLS, 'proj-notes/SKILL.md'), '---\ndescription: Project notes.\n---\nRead the project notes.\n');
  return root;
}

test('the project\'s ./.claude/skills/ is read only when trusted; without trust it is a notice and nothing in it is read', () => {
  const root = project();
  const untrusted = discoverSkills({ stages: STAGES, cwd: root });
  if (!untrusted.ok) throw new Error(untrusted.message);
  expect(untrusted.value.packages.map((p) => p.name)).toEqual(['excerpt-card']);
  expect(untrusted.value.notices).toEqual([
    `ignored untrusted project skills ${join(root, PROJECT_SKILLS)} (no package in it was read; pass --trust, or --skills ${PROJECT_SKILLS}, to read them)`,
  ]);
  const trusted = discoverSkills({ stages: STAGES, cwd: root, trust: true });
  if (!trusted.ok) throw new Error(trusted.message);
  expect(trusted.value.packages.map((p) => [p.name, p.origin])).toEqual([
    ['excerpt-card', { kind: 'embedded' }],
    ['proj-notes', { kind: 'project', path: join(root, PROJECT_SKILLS, 'proj-notes') }],
  ]);
  expect(trusted.value.notices).toEqual([]);
  // Named untrusted: refused saying why, not "unknown"; named trusted: found.
  const named = discoverPackages({ stages: STAGES, cwd: root, named: 'proj-notes' });
  expect(named.ok ? 'ok' : `${named.kind}: ${named.message}`).toContain("untrusted_skill: method package \"proj-notes\" is in the project's untrusted .claude/skills/");
  expect(discoverPackages({ stages: STAGES, cwd: root, named: 'proj-notes', trust: true }).ok).toBe(true);
  // No project folder: no notice, trusted or not.
  expect(discoverSkills({ stages: STAGES, cwd: tempDir() })).toMatchObject({ ok: true, value: { notices: [] } });
});

test('--skills naming the project folder reads it once, as that folder, with no notice and no duplicate', () => {
  const root = project();
  const found = discoverSkills({ dirs: [join(root, PROJECT_SKILLS)], stages: STAGES, cwd: root, trust: true });
  if (!found.ok) throw new Error(found.message);
  expect(found.value.packages.map((p) => [p.name, p.origin.kind])).toEqual([['excerpt-card', 'embedded'], ['proj-notes', 'dir']]);
  expect(found.value.notices).toEqual([]);
});

test('a trusted project package whose name another source has is a duplicate, as any other', () => {
  const root = project();
  const dir = tempDir();
  mkdirSync(join(dir, 'proj-notes'));
  writeFileSync(join(dir, 'proj-notes/SKILL.md'), '---\ndescription: Other notes.\n---\nOther.\n');
  const found = discoverSkills({ dirs: [dir], stages: STAGES, cwd: root, trust: true });
  expect(found.ok ? 'ok' : found.kind).toBe('duplicate_package');
  expect(found.ok ? '' : found.message).toContain(join(root, PROJECT_SKILLS, 'proj-notes'));
});

test('DIR must be a folder of packages: not a package itself, not missing; a folder without SKILL.md is a refused package', () => {
  const only = (dir: string) => discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: dir });
  const itself = only(join(ROOT, 'fixtures/skills/valid-minimal'));
  const missing = only(join(tempDir(), 'nope'));
  for (const result of [itself, missing]) {
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.kind).toBe('bad_skills_dir');
  }
  expect(!itself.ok && itself.message).toContain('package itself');
  const dir = tempDir();
  mkdirSync(join(dir, 'empty'));
  const empty = only(dir);
  const refused = empty.ok ? empty.value.refused[0]?.failure : undefined;
  expect(refused && [refused.kind, refused.message.includes('`SKILL.md`: file missing')]).toEqual(['missing_resource', true]);
});

test('a dangling symlink or a symlink loop in DIR is a named usage error, not a crash', () => {
  const dir = tempDir();
  try {
    cpSync(join(ROOT, 'fixtures/skills/valid-minimal'), join(dir, 'valid-minimal'), { recursive: true });
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    const only = () => discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: dir });
    const dangling = only();
    expect(!dangling.ok && [dangling.class, dangling.kind]).toEqual(['invalid_arguments', 'bad_skills_dir']);
    expect(!dangling.ok && dangling.message).toContain("entry 'dangling' cannot be resolved");
    rmSync(join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    const loop = only();
    expect(!loop.ok && [loop.kind, loop.message.includes("entry 'loop' cannot be resolved")]).toEqual(['bad_skills_dir', true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
