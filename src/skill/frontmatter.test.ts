import { expect, test } from 'bun:test';
import { parseFrontmatter, splitSkillMd } from './index.ts';
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
