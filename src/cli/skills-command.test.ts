import { expect, test } from 'bun:test';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { NOT_APPLIED, splitSkillMd, UNKNOWN_FIELD } from '../skill/index.ts';
import { LIMITS } from '../contract/index.ts';
import { cli } from './cli.ts';
import { HELP } from './help.ts';
import { testIo } from './test-io.ts';

const CC = join(import.meta.dir, '../../fixtures/skills-cc');

/** The fixture's frontmatter keys that neither Agent Skills' informational fields nor caplab's honoured ones are. */
function fixtureNotApplied(): string[] {
  const split = splitSkillMd(readFileSync(join(CC, 'cc-review/SKILL.md'), 'utf8'));
  if (!split.ok) throw new Error(split.message);
  const keys = Object.keys(Bun.YAML.parse(split.value.yaml) as object);
  const read = ['name', 'description', 'when_to_use', 'disable-model-invocation', 'paths', 'allowed-tools', 'license', 'compatibility', 'metadata'];
  return keys.filter((key) => !read.includes(key)).sort();
}

test('caplab skills --skills DIR lists a Claude Code SKILL.md and a plain package; the not-applied list is the fixture\'s fields, each with why', async () => {
  const io = testIo(scratchDir('caplab-skills-cc-'));
  expect(await cli(['skills', '--skills', CC, '--json'], io)).toBe(0);
  const report = JSON.parse(io.out());
  const cc = report.packages.find((p: any) => p.name === 'cc-review');
  const plain = report.packages.find((p: any) => p.name === 'plain-notes');
  expect(report.packages.map((p: any) => p.name)).toEqual(['excerpt-card', 'cc-review', 'plain-notes']);
  expect(report.refused).toEqual([]);
  // Every not-applied field of Claude Code's list is in the fixture, and one key of neither format.
  const fields = fixtureNotApplied();
  expect(fields).toEqual([...Object.keys(NOT_APPLIED), 'x-team-owner'].sort());
  expect(cc.not_applied).toEqual(fields.map((field) => ({ field, reason: NOT_APPLIED[field] ?? UNKNOWN_FIELD })));
  expect(cc).toMatchObject({ kind: 'agent_skill', source: 'skills_dir', origin: join(CC, 'cc-review'), catalog: 'listed', binding: { status: 'bound' } });
  expect(cc.when_to_use).toBe('When asked to review a change, a diff or a pull request.');
  expect(cc.allowed_tools).toEqual(['Read', 'Grep', 'Bash(git diff *)']);
  expect(plain).toMatchObject({ kind: 'agent_skill', catalog: 'listed', not_applied: [], when_to_use: null });
  expect(report.packages[0]).toMatchObject({ name: 'excerpt-card', kind: 'method_package', source: 'embedded', catalog: 'listed' });

  const text = testIo(scratchDir('caplab-skills-cc-'));
  expect(await cli(['skills', '--skills', CC], text)).toBe(0);
  expect(text.out()).toContain(`cc-review  [bound]  --skills ${join(CC, 'cc-review')}`);
  expect(text.out()).toContain('  kind: Agent Skill; catalog: listed');
  expect(text.out()).toContain('  kind: method package; catalog: listed');
  expect(text.out()).toContain(`  not applied: hooks: ${NOT_APPLIED['hooks']}`);
  expect(text.out()).toContain(`  not applied: x-team-owner: ${UNKNOWN_FIELD}`);
});

/** A folder with a package held by paths, one not model-invocable, one without a description, and one that cannot be read. */
function mixed(): string {
  const dir = scratchDir('caplab-skills-mixed-');
  const write = (name: string, text: string) => (mkdirSync(join(dir, name)), writeFileSync(join(dir, name, 'SKILL.md'), text));
  write('held', '---\ndescription: Docs.\npaths:\n  - docs/**/*.md\n  - "*.mdx"\n---\nDocs.\n');
  write('hidden', '---\ndescription: Hidden.\ndisable-model-invocation: true\n---\nHidden.\n');
  write('silent', '---\nlicense: MIT\n---\nNo description.\n');
  write('broken', '---\nname: [unclosed\n---\nBody.\n');
  return dir;
}

test('caplab skills shows each catalog status, and lists a package that cannot be read as refused with why (exit 0)', async () => {
  const dir = mixed();
  const io = testIo(dir);
  expect(await cli(['skills', '--skills', dir, '--json'], io)).toBe(0);
  const report = JSON.parse(io.out());
  expect(report.packages.map((p: any) => [p.name, p.catalog])).toEqual([
    ['excerpt-card', 'listed'],
    ['held', 'held_by_paths'],
    ['hidden', 'not_model_invocable'],
    ['silent', 'no_description'],
  ]);
  expect(report.packages[1].paths).toEqual(['docs/**/*.md', '*.mdx']);
  expect(report.packages[3].description).toBeNull();
  expect(report.refused).toMatchObject([{ name: 'broken', source: 'skills_dir', origin: join(dir, 'broken'), class: 'invalid_arguments', kind: 'bad_package' }]);
  expect(report.refused[0].message).toContain('`frontmatter`: invalid YAML');
  const text = testIo(dir);
  expect(await cli(['skills', '--skills', dir], text)).toBe(0);
  expect(text.out()).toContain('  kind: Agent Skill; catalog: held by paths: docs/**/*.md, *.mdx');
  expect(text.out()).toContain('  kind: Agent Skill; catalog: not model-invocable (disable-model-invocation)');
  expect(text.out()).toContain('  (no description)\n');
  expect(text.out()).toContain(`broken  [not read]  --skills ${join(dir, 'broken')}\n  reason: invalid_arguments/bad_package: package ${join(dir, 'broken')}: field \`frontmatter\`: invalid YAML`);
});

test('caplab skills reads ./.claude/skills/ only with --trust; without it, a notice on stderr', async () => {
  const root = scratchDir('caplab-skills-project-');
  cpSync(join(CC, 'plain-notes'), join(root, '.claude/skills/plain-notes'), { recursive: true });
  const untrusted = testIo(root);
  expect(await cli(['skills', '--json'], untrusted)).toBe(0);
  expect(JSON.parse(untrusted.out()).packages.map((p: any) => p.name)).toEqual(['excerpt-card']);
  expect(untrusted.err()).toContain(`caplab: ignored untrusted project skills ${join(root, '.claude/skills')}`);
  for (const flag of ['--trust', '--trust-project']) {
    const trusted = testIo(root);
    expect(await cli(['skills', flag, '--json'], trusted)).toBe(0);
    const listed = JSON.parse(trusted.out()).packages.map((p: any) => [p.name, p.source]);
    expect(listed).toEqual([['excerpt-card', 'embedded'], ['plain-notes', 'project']]);
    expect(trusted.err()).toBe('');
  }
  const text = testIo(root);
  expect(await cli(['skills', '--trust'], text)).toBe(0);
  expect(text.out()).toContain(`plain-notes  [bound]  project ${join(root, '.claude/skills/plain-notes')}`);
});

test('caplab skills: a name given twice stays a usage error (exit 2)', async () => {
  const root = scratchDir('caplab-skills-twice-');
  cpSync(join(CC, 'plain-notes'), join(root, '.claude/skills/plain-notes'), { recursive: true });
  const io = testIo(root);
  expect(await cli(['skills', '--trust', '--skills', CC], io)).toBe(2);
  expect(io.err()).toContain("invalid_arguments/duplicate_package: package name 'plain-notes' given twice");
});

/** A copy of the happy scenario adopting `skill`, written in `dir`. */
function scenario(dir: string, skill: string): string {
  const happy = JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/scenarios/happy.json'), 'utf8'));
  const path = join(dir, `${skill}.json`);
  writeFileSync(path, JSON.stringify({ ...happy, name: skill, skill }));
  return path;
}

test('a run stops on a refused package only when it names it; one that does not goes on without it', async () => {
  const dir = mixed();
  const unnamed = testIo(dir);
  expect(await cli(['demo', '--skills', dir, '--transport', 'local', '--json'], unnamed)).toBe(0);
  const named = testIo(dir);
  expect(await cli(['run', '--scenario', scenario(dir, 'broken'), '--skills', dir, '--transport', 'local', '--json'], named)).toBe(2);
  expect(named.err()).toContain(`invalid_arguments/bad_package: package ${join(dir, 'broken')}: field \`frontmatter\`: invalid YAML`);
});

test('a run adopts a package from ./.claude/skills/ only with --trust; named without it, it stops saying why', async () => {
  const root = scratchDir('caplab-skills-run-');
  cpSync(join(CC, 'plain-notes'), join(root, '.claude/skills/plain-notes'), { recursive: true });
  const path = scenario(root, 'plain-notes');
  const untrusted = testIo(root);
  expect(await cli(['run', '--scenario', path, '--transport', 'local', '--json'], untrusted)).toBe(2);
  expect(untrusted.err()).toContain('invalid_arguments/untrusted_skill: method package "plain-notes" is in the project\'s untrusted .claude/skills/');
  const trusted = testIo(root);
  expect(await cli(['run', '--scenario', path, '--trust', '--transport', 'local', '--json'], trusted)).toBe(0);
  const start = JSON.parse(readFileSync(join(JSON.parse(trusted.out()).run_dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect(start.method).toMatchObject({ plain: true, name: 'plain-notes', origin: { kind: 'project', path: join(root, '.claude/skills/plain-notes') } });
  // Not named, untrusted: the run goes on, with the notice.
  const demo = testIo(root);
  expect(await cli(['demo', '--transport', 'local', '--json'], demo)).toBe(0);
  expect(demo.err()).toContain(`caplab: ignored untrusted project skills ${join(root, '.claude/skills')}`);
});

test('a run records a plain package\'s not-applied fields by name in run_start', async () => {
  const root = scratchDir('caplab-skills-record-');
  const path = scenario(root, 'cc-review');
  const io = testIo(root);
  expect(await cli(['run', '--scenario', path, '--skills', CC, '--transport', 'local', '--json'], io)).toBe(0);
  const start = JSON.parse(readFileSync(join(JSON.parse(io.out()).run_dir, 'ledger.jsonl'), 'utf8').split('\n')[0]!);
  expect(start.method.not_applied).toEqual(fixtureNotApplied());
});

test('caplab skills --help names the package limit LIMITS has', () => {
  expect(HELP['skills']).toContain(`more than ${LIMITS.skillPackages} packages`);
});
