import { expect, test } from 'bun:test';
import { NOT_APPLIED, parseFrontmatter, parsePackage, splitSkillMd, UNKNOWN_FIELD } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

const SHA = 'a'.repeat(64);
const base = (extra: Record<string, string> = {}, top = '') =>
  [
    'name: demo',
    'description: A demo method.',
    'allowed-tools: read_source  create_card',
    top,
    'metadata:',
    ...Object.entries({
      'caplab-version': '"1.0.0"',
      'caplab-requires': '"read_source@1.0.0"',
      'caplab-resources': `"references/a.md@${SHA}"`,
      'caplab-stage-read': '"references/a.md"',
      'caplab-stage-create': '""',
      'caplab-stage-finish': '""',
      ...extra,
    }).map(([k, v]) => `  ${k}: ${v}`),
  ]
    .filter(Boolean)
    .join('\n');

function refusal(yaml: string, stages: readonly string[] = STAGES): string {
  const result = parseFrontmatter(yaml, stages);
  if (result.ok) throw new Error('expected a refusal');
  expect(result.kind).toBe('bad_package');
  return result.message;
}

test('a valid frontmatter parses into a manifest; allowed-tools is space-delimited', () => {
  const result = parseFrontmatter(base(), STAGES);
  if (!result.ok || result.value.kind !== 'staged') throw new Error('a staged manifest');
  expect(result.value.allowedTools).toEqual(['read_source', 'create_card']);
  expect(result.value.requires).toEqual([{ tool: 'read_source', version: '1.0.0' }]);
  expect(result.value.stageResources).toEqual({ read: ['references/a.md'], create: [], finish: [] });
});

test('the stages are the caller\'s (the task\'s), not the package\'s nor a fixed list', () => {
  expect(refusal(base({}), ['draft', 'publish'])).toContain("`metadata.caplab-stage-read`: unknown stage 'read' (stages: draft, publish)");
  const two = base({}).replace(/\n  caplab-stage-(create|finish): ""/g, '');
  const parsed = parseFrontmatter(two, ['read']);
  expect(parsed.ok && parsed.value.kind === 'staged' && parsed.value.stageResources).toEqual({ read: ['references/a.md'] });
  expect(refusal(two, STAGES)).toContain('`metadata.caplab-stage-create`: required: every stage (read, create, finish)');
});

test('each caplab field is checked and named', () => {
  expect(refusal(base({ 'caplab-version': '"1.0"' }))).toContain('`metadata.caplab-version`');
  expect(refusal(base({ 'caplab-requires': '"read_source"' }))).toContain("`metadata.caplab-requires`: 'read_source' is not tool@");
  expect(refusal(base({ 'caplab-requires': '"read_source@1.0.0 read_source@1.0.0"' }))).toContain('listed twice');
  expect(refusal(base({ 'caplab-resources': `"../a.md@${SHA}"` }))).toContain('`metadata.caplab-resources`');
  expect(refusal(base({ 'caplab-resources': '"references/a.md@ABC"' }))).toContain('`metadata.caplab-resources`');
  expect(refusal(base({ 'caplab-stages': '"read"' }))).toContain('`metadata.caplab-stages`: unknown caplab field');
});

test('a field outside both formats is recorded as unknown, never refused; name is checked before the folder', () => {
  const extra = parseFrontmatter(base({}, 'version: 1.0.0'), STAGES);
  expect(extra.ok && extra.value.notApplied).toEqual([{ field: 'version', reason: UNKNOWN_FIELD }]);
  expect(refusal(base().replace('name: demo', `name: ${'a'.repeat(65)}`))).toContain('`name`: at most 64 characters');
  expect(refusal(base().replace('name: demo', 'name: Demo'))).toContain('`name`: lowercase');
  // A blank description is none: listed, not catalogued (package.ts), not a refusal.
  const blank = parseFrontmatter(base().replace('A demo method.', '"  "'), STAGES);
  expect(blank.ok && blank.value.description).toBeUndefined();
  expect(refusal('- just\n- a list')).toContain('`frontmatter`');
});

/** A plain frontmatter from YAML lines. */
function plain(...lines: string[]) {
  const parsed = parseFrontmatter(lines.join('\n'), STAGES);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

test('Claude Code fields: each honoured one read, each other one recorded with why, unknown ones as unknown', () => {
  const front = plain(
    'description: Notes.',
    'when_to_use: "  When notes are asked for.  "',
    'disable-model-invocation: true',
    'paths: "docs/**/*.md, src/**/*.{ts,tsx}"',
    'allowed-tools: Read, Grep Bash(git add *)',
    ...Object.keys(NOT_APPLIED).map((field) => `${field}: x`),
    'colour: blue',
  );
  expect(front).toMatchObject({ kind: 'plain', name: undefined, description: 'Notes.', whenToUse: 'When notes are asked for.', disableModelInvocation: true });
  // A glob's own braces keep their comma; a tool's parentheses keep their space.
  expect(front.paths).toEqual(['docs/**/*.md', 'src/**/*.{ts,tsx}']);
  expect(front.allowedTools).toEqual(['Read', 'Grep', 'Bash(git add *)']);
  const expected = [...Object.entries(NOT_APPLIED).map(([field, reason]) => ({ field, reason })), { field: 'colour', reason: UNKNOWN_FIELD }];
  expect(front.notApplied).toEqual(expected.sort((a, b) => (a.field < b.field ? -1 : 1)));
  for (const { reason } of front.notApplied) expect(reason.length).toBeGreaterThan(10);
});

test('paths and allowed-tools are a string or a YAML list; disable-model-invocation defaults to false', () => {
  const listed = plain('description: d', 'paths:', '  - "docs/*.md"', '  - " a/b/** "', 'allowed-tools:', '  - Read', '  - Bash(git status)');
  expect([listed.paths, listed.allowedTools, listed.disableModelInvocation]).toEqual([['docs/*.md', 'a/b/**'], ['Read', 'Bash(git status)'], false]);
  expect(plain('description: d', 'paths: docs/**').paths).toEqual(['docs/**']);
  expect(plain('description: d', 'allowed-tools: read_source  create_card').allowedTools).toEqual(['read_source', 'create_card']);
  expect(plain('description: d', 'paths: ""').paths).toEqual([]);
});

test('an honoured field with a value not of its type refuses the package, naming the field', () => {
  expect(refusal('disable-model-invocation: "yes"')).toContain('`disable-model-invocation`: must be true or false');
  expect(refusal('paths: {a: 1}')).toContain('`paths`: must be a glob');
  expect(refusal('paths: [docs, 3]')).toContain('`paths[1]`: must be a string');
  expect(refusal('allowed-tools: 7')).toContain('`allowed-tools`: must be a string of tool names');
  expect(refusal('description: [a]')).toContain('`description`: must be a string');
  expect(refusal('when_to_use: 5')).toContain('`when_to_use`: must be a string');
  expect(refusal('name: 5')).toContain('`name`: must be a string');
  expect(refusal('metadata: [a]')).toContain('`metadata`: must be a mapping');
});

test('SKILL.md must open with a frontmatter block', () => {
  expect(splitSkillMd('# no frontmatter').ok).toBe(false);
  const split = splitSkillMd('---\nname: x\n---\nbody\n');
  expect(split.ok && split.value).toEqual({ yaml: 'name: x', body: 'body\n' });
});

test('a SKILL.md may start with a UTF-8 byte order mark (Windows editors write one); the hash stays over its bytes', () => {
  const split = splitSkillMd('\uFEFF---\r\nname: x\r\n---\r\nbody\r\n');
  expect(split.ok && split.value).toEqual({ yaml: 'name: x', body: 'body\r\n' });
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('---\nname: notes\ndescription: Plain.\n---\nRead first.\n')]);
  const parsed = parsePackage('notes', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? bytes : undefined), STAGES);
  if (!parsed.ok || parsed.value.kind !== 'plain') throw new Error(parsed.ok ? 'a plain package' : parsed.message);
  expect(parsed.value.body.text).toBe('Read first.\n');
  expect(parsed.value.skillSha256).toBe(new Bun.CryptoHasher('sha256').update(bytes).digest('hex'));
  // Only a leading BOM: one anywhere else is text, and before `---` it is no frontmatter.
  expect(splitSkillMd('\uFEFF\uFEFF---\nname: x\n---\n').ok).toBe(false);
});

test('the frontmatter lines break where YAML breaks lines: CR LF, CR or LF', () => {
  for (const br of ['\n', '\r\n', '\r']) {
    const split = splitSkillMd(`---${br}name: x${br}description: y${br}---${br}body${br}`);
    expect(split.ok && split.value).toEqual({ yaml: `name: x${br}description: y`, body: `body${br}` });
  }
  // The first line that is `---` ends the block, whatever breaks it: the YAML never holds a second document.
  const split = splitSkillMd('---\nname: x\r---\rmore: y\n---\nbody');
  expect(split.ok && split.value).toEqual({ yaml: 'name: x', body: 'more: y\n---\nbody' });
});
