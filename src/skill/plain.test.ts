import { expect, test } from 'bun:test';
import { STAGES } from '../excerpt/stages.ts';
import { bindPackage, describeSkills, methodSupport, NOT_APPLIED, parsePackage, renderSkillsText } from './index.ts';

const BODY = '# Notes\n\nRead every source before you quote it.\n';
const skill = (front: string, body = BODY) => new TextEncoder().encode(`---\n${front}\n---\n${body}`);
const parse = (bytes: Uint8Array) => parsePackage('notes', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? bytes : undefined), STAGES);

test('a SKILL.md with only name and description is a plain package: its body, by hash and size; no stages, version or requirements', () => {
  const parsed = parse(skill('name: notes\ndescription: Plain notes.'));
  if (!parsed.ok) throw new Error(parsed.message);
  const pkg = parsed.value;
  if (pkg.kind !== 'plain') throw new Error(`expected a plain package, got ${pkg.kind}`);
  const bytes = new TextEncoder().encode(BODY);
  expect(pkg.body).toEqual({ text: BODY, sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'), bytes: bytes.byteLength });
  expect(pkg.requires).toEqual([]);
  expect(bindPackage(pkg, []).ok).toBe(true);
});

test('other Agent Skills fields keep it plain; one caplab-* field makes it a caplab package that must be whole', () => {
  const plain = parse(skill('name: notes\ndescription: Plain.\nlicense: MIT\nallowed-tools: read_source\nmetadata:\n  author: someone'));
  expect(plain.ok && plain.value.kind).toBe('plain');
  const partial = parse(skill('name: notes\ndescription: Half.\nmetadata:\n  caplab-version: "1.0.0"'));
  expect(partial.ok ? 'ok' : partial.kind).toBe('bad_package');
  expect(partial.ok ? '' : partial.message).toContain('caplab-stage-read');
});

test('Claude Code fields of a plain package are read or named as not applied with why, never a refusal (SPEC F-SKILL)', () => {
  const parsed = parse(skill('name: notes\ndescription: Plain.\nwhen_to_use: always\nmodel: sonnet\ndisable-model-invocation: true\nhooks:\n  PreToolUse: []'));
  if (!parsed.ok || parsed.value.kind !== 'plain') throw new Error(parsed.ok ? 'a plain package' : parsed.message);
  expect(parsed.value.notApplied.map((f) => f.field)).toEqual(['hooks', 'model']);
  expect([parsed.value.whenToUse, parsed.value.disableModelInvocation, parsed.value.catalog]).toEqual(['always', true, 'not_model_invocable']);
  const text = renderSkillsText(describeSkills([parsed.value], []));
  expect(text).toContain(`not applied: hooks: ${NOT_APPLIED['hooks']}`);
  expect(text).toContain(`not applied: model: ${NOT_APPLIED['model']}`);
  // The Agent Skills fields themselves are still checked.
  const bad = parse(skill('name: Notes\ndescription: Plain.\nmodel: sonnet'));
  expect(bad.ok ? 'ok' : bad.message).toContain('`name`: lowercase');
});

test('name defaults to the folder\'s; a folder name that is no name, or another name, is refused', () => {
  const unnamed = parse(skill('description: Plain.'));
  expect(unnamed.ok && unnamed.value.name).toBe('notes');
  const read = (bytes: Uint8Array) => (rel: string) => (rel === 'SKILL.md' ? bytes : undefined);
  const badFolder = parsePackage('My Notes', { kind: 'embedded' }, read(skill('description: Plain.')), STAGES);
  expect(badFolder.ok ? '' : badFolder.message).toContain("field `name`: absent, and the folder name 'My Notes' is not a name");
  const other = parse(skill('name: other\ndescription: Plain.'));
  expect(other.ok ? '' : other.message).toContain("field `name`: 'other' must equal the folder name 'notes'");
});

test('the catalog status: no description, then not model-invocable, then held by paths, else listed', () => {
  const status = (front: string) => {
    const parsed = parse(skill(front));
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value.catalog;
  };
  expect(status('name: notes')).toBe('no_description');
  expect(status('description: d\ndisable-model-invocation: true\npaths: docs/**')).toBe('not_model_invocable');
  expect(status('description: d\npaths: docs/**')).toBe('held_by_paths');
  expect(status('description: d\ndisable-model-invocation: false')).toBe('listed');
});

test('a plain package with an empty body is refused: the body is all it sends', () => {
  const parsed = parse(skill('name: notes\ndescription: Nothing.', '\n  \n'));
  expect(parsed.ok ? 'ok' : `${parsed.class}/${parsed.kind}`).toBe('invalid_arguments/bad_package');
  expect(parsed.ok ? '' : parsed.message).toContain('field `body`: empty');
});

test('caplab skills shows a plain package as such, with its body hash and no stages', () => {
  const parsed = parse(skill('name: notes\ndescription: Plain notes.'));
  if (!parsed.ok) throw new Error(parsed.message);
  const report = describeSkills([parsed.value], []);
  expect(report.packages[0]).toMatchObject({ name: 'notes', plain: true, version: null, stages: {}, resources: [], binding: { status: 'bound' } });
  const text = renderSkillsText(report);
  expect(text).toContain('plain: body only; no stages, no pinned hashes');
  expect(text).toContain(`body ${new TextEncoder().encode(BODY).byteLength} B`);
  expect(text).not.toContain('stage read');
});

test('its method block is the same for every stage and holds the body whole; adoption finds it in the bytes only', () => {
  const parsed = parse(skill('name: notes\ndescription: Plain notes.'));
  if (!parsed.ok || parsed.value.kind !== 'plain') throw new Error('a plain package');
  const bound = bindPackage(parsed.value, []);
  if (!bound.ok) throw new Error(bound.message);
  const support = methodSupport(bound.value);
  const blocks = STAGES.map((stage) => JSON.stringify(support.blocks(stage)));
  expect(new Set(blocks).size).toBe(1);
  expect(support.blocks('read')[0]!.text).toContain(BODY);
  const payload = (system: unknown) => new TextEncoder().encode(JSON.stringify({ system, messages: [] }));
  const record = { plain: true as const, name: 'notes', body: { sha256: parsed.value.body.sha256, bytes: parsed.value.body.bytes } };
  expect(support.adoption('create', payload(support.blocks('create')))).toEqual({ ok: true, value: { ...record, body_present: true } });
  // The body cut short, or outside `system`, is not the method sent.
  expect(support.adoption('create', payload([{ type: 'text', text: BODY.slice(0, -2) }]))).toEqual({ ok: true, value: { ...record, body_present: false } });
});
