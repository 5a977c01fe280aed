/** Package files are inputs from outside: read bounded and by kind; a bad --skills entry is refused, not thrown. */
import { afterAll, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS, sha256Hex } from '../contract/index.ts';
import { discoverSkills, diskReader, parsePackage } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

const FIXTURE = join(import.meta.dir, '../../fixtures/skills/valid-minimal');
const scratch = mkdtempSync(join(tmpdir(), 'caplab-skill-bounded-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const kindOf = (outcome: { ok: boolean; class?: string; kind?: string }) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);

/** A copy of valid-minimal under `name`/valid-minimal; returns the package folder. */
function copy(name: string): string {
  const folder = join(scratch, name, 'valid-minimal');
  cpSync(FIXTURE, folder, { recursive: true });
  return folder;
}

const parse = (folder: string) => parsePackage('valid-minimal', { kind: 'dir', path: folder }, diskReader(folder), STAGES);

test('the copied control package parses (so each refusal below is the limit, not the copy)', () => {
  expect(kindOf(parse(copy('control')))).toBe('ok');
});

test('a SKILL.md past LIMITS.skillMdBytes is refused as too_large (a 100 MB body was once sent whole)', () => {
  const folder = copy('big-skill');
  const skill = join(folder, 'SKILL.md');
  writeFileSync(skill, `${readFileSync(skill, 'utf8')}\n${'x'.repeat(LIMITS.skillMdBytes)}\n`);
  const parsed = parse(folder);
  expect(kindOf(parsed)).toBe('precondition/too_large');
  expect(parsed.ok ? '' : parsed.message).toContain('SKILL.md');
});

/** A copy whose reference holds `bytes` bytes, its hash declared. */
function withReference(name: string, bytes: number): string {
  const folder = copy(name);
  const text = 'y'.repeat(bytes);
  writeFileSync(join(folder, 'references/notes.md'), text);
  const skill = join(folder, 'SKILL.md');
  writeFileSync(skill, readFileSync(skill, 'utf8').replace(/notes\.md@[0-9a-f]{64}/, `notes.md@${sha256Hex(text)}`));
  return folder;
}

test('a reference of LIMITS.skillReferenceBytes is read; one byte more is too_large, even with its hash declared', () => {
  expect(kindOf(parse(withReference('reference-at-limit', LIMITS.skillReferenceBytes)))).toBe('ok');
  const parsed = parse(withReference('reference-past-limit', LIMITS.skillReferenceBytes + 1));
  expect(kindOf(parsed)).toBe('precondition/too_large');
  expect(parsed.ok ? '' : parsed.message).toContain('references/notes.md');
});

test('the size limits hold for any reader (embedded packages too), not only on disk', () => {
  const skill = new Uint8Array(readFileSync(join(FIXTURE, 'SKILL.md')));
  const padded = new Uint8Array(LIMITS.skillMdBytes + 1).fill(0x20);
  padded.set(skill);
  const parsed = parsePackage('valid-minimal', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? padded : undefined), STAGES);
  expect(kindOf(parsed)).toBe('precondition/too_large');
});

test('a SKILL.md or a reference that is a FIFO is refused by kind, never read', () => {
  for (const file of ['SKILL.md', 'references/notes.md']) {
    const folder = copy(`fifo-${file.replace('/', '-')}`);
    unlinkSync(join(folder, file));
    expect(Bun.spawnSync(['mkfifo', join(folder, file)]).exitCode).toBe(0);
    const parsed = parse(folder);
    expect(kindOf(parsed)).toBe('precondition/not_regular_file');
    expect(parsed.ok ? '' : parsed.message).toContain(file);
  }
});

test('--skills DIR holding a dangling symlink or a symlink loop is refused by kind, not thrown', () => {
  for (const [name, make] of [
    ['dangling', (dir: string) => symlinkSync(join(dir, 'nowhere'), join(dir, 'broken'))],
    ['loop', (dir: string) => symlinkSync(join(dir, 'loop'), join(dir, 'loop'))],
  ] as const) {
    const dir = join(scratch, `skills-${name}`);
    mkdirSync(dir);
    cpSync(FIXTURE, join(dir, 'valid-minimal'), { recursive: true });
    make(dir);
    const found = discoverSkills({ dirs: [dir], embedded: false, stages: STAGES, cwd: scratch });
    expect(kindOf(found)).toBe('invalid_arguments/bad_skills_dir');
    expect(found.ok ? '' : found.message).toContain(name === 'dangling' ? "'broken'" : "'loop'");
  }
});

test('a SKILL.md that is a symlink is refused as one (not_regular_file), never read or called missing', () => {
  const elsewhere = join(scratch, 'elsewhere-SKILL.md');
  cpSync(join(FIXTURE, 'SKILL.md'), elsewhere);
  for (const [name, target] of [['inside', 'real-SKILL.md'], ['outside', elsewhere], ['dangling', join(scratch, 'nowhere.md')]] as const) {
    const folder = copy(`symlink-${name}`);
    if (name === 'inside') cpSync(join(folder, 'SKILL.md'), join(folder, target));
    unlinkSync(join(folder, 'SKILL.md'));
    symlinkSync(target, join(folder, 'SKILL.md'));
    const parsed = parse(folder);
    expect([name, kindOf(parsed)]).toEqual([name, 'precondition/not_regular_file']);
    expect(parsed.ok ? '' : parsed.message).toContain('`SKILL.md`');
    expect(parsed.ok ? '' : parsed.message).toContain('a symbolic link');
  }
});
