import { expect, test } from 'bun:test';
import { parseFrontmatter, parsePackage, splitSkillMd } from './index.ts';
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

test('fields outside the Agent Skills format are refused; name is checked before the folder', () => {
  expect(refusal(base({}, 'version: 1.0.0'))).toContain('`version`: is not an Agent Skills field');
  expect(refusal(base().replace('name: demo', `name: ${'a'.repeat(65)}`))).toContain('`name`: at most 64 characters');
  expect(refusal(base().replace('name: demo', 'name: Demo'))).toContain('`name`: lowercase');
  expect(refusal(base().replace('A demo method.', '"  "'))).toContain('`description`: must not be empty');
  expect(refusal('- just\n- a list')).toContain('`frontmatter`');
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
