import { expect, test } from 'bun:test';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { STAGES } from '../excerpt/stages.ts';
import { bindPackage, discoverPackages, lastSkillNamed, load, methodText, parsePackage, plainToolAdoption, toolAdoption, type BoundPackage } from './index.ts';

/**
 * Tool-mode adoption (`--skill-mode tool`): material counts only inside the
 * non-error tool_result answering a `Skill` tool_use that names the package
 * in an earlier assistant message of the same payload.
 */

function bound(): BoundPackage {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value.find((p) => p.name === 'excerpt-card');
  if (pkg?.kind !== 'staged') throw new Error('the embedded package is staged');
  const result = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

const bytes = (payload: unknown) => new TextEncoder().encode(JSON.stringify(payload));
const b = bound();
const text = methodText(load(b, 'read'));
const use = (id: string, name: string, input: unknown) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
const result = (id: string, body: string, isError = false) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: isError, content: [{ type: 'text', text: body }] }] });
const start = { role: 'user', content: 'Make the excerpt card.' };

/** Each row: a payload, and whether it adopts the read stage (and via which id). */
const TABLE: readonly { readonly row: string; readonly payload: unknown; readonly adopted: boolean; readonly id?: string }[] = [
  { row: 'the body in system (tool mode)', payload: { system: [{ type: 'text', text }], messages: [start] }, adopted: false },
  { row: 'the body in user text', payload: { system: [], messages: [{ role: 'user', content: text }] }, adopted: false },
  { row: 'a read_source result echoing it', payload: { system: [], messages: [start, use('toolu_01', 'read_source', { source_id: 'alpha' }), result('toolu_01', text)] }, adopted: false },
  { row: "another tool's result, its input naming the package", payload: { system: [], messages: [start, use('toolu_01', 'lookup', { skill: 'excerpt-card' }), result('toolu_01', text)] }, adopted: false },
  { row: 'an error Skill result', payload: { system: [], messages: [start, use('toolu_01', 'Skill', { skill: 'excerpt-card' }), result('toolu_01', text, true)] }, adopted: false },
  { row: 'under a mismatched id', payload: { system: [], messages: [start, use('toolu_01', 'Skill', { skill: 'excerpt-card' }), result('toolu_09', text)] }, adopted: false },
  { row: "another package's Skill result", payload: { system: [], messages: [start, use('toolu_01', 'Skill', { skill: 'other-skill' }), result('toolu_01', text)] }, adopted: false },
  { row: 'a result before its tool_use', payload: { system: [], messages: [result('toolu_01', text), use('toolu_01', 'Skill', { skill: 'excerpt-card' })] }, adopted: false },
  { row: 'the matched Skill result', payload: { system: [], messages: [start, use('toolu_01', 'Skill', { skill: 'excerpt-card' }), result('toolu_01', text)] }, adopted: true, id: 'toolu_01' },
];

for (const { row, payload, adopted, id } of TABLE) {
  test(`tool-mode adoption: ${row} is ${adopted ? '' : 'not '}adopted`, () => {
    const record = toolAdoption(b, 'read', bytes(payload));
    if (!record.ok) throw new Error(record.message);
    expect(record.value.adopted).toBe(adopted);
    expect(record.value.instructions_present).toBe(adopted);
    expect(record.value.via).toBe('skill_tool');
    expect(record.value.tool_use_id).toBe(id);
  });
}

test('a request in a stage no Skill result delivered is adopted: false, with what is missing', () => {
  const payload = bytes({ system: [], messages: [start, use('toolu_01', 'Skill', { skill: 'excerpt-card' }), result('toolu_01', text)] });
  const record = toolAdoption(b, 'create', payload);
  if (!record.ok) throw new Error(record.message);
  expect(record.value).toMatchObject({ stage: 'create', adopted: false, instructions_present: false, via: 'skill_tool' });
  expect(record.value.tool_use_id).toBeUndefined();
  // A reference the read stage's answer carried counts as present (the whole package's are searched); the rest are missing.
  const delivered = load(b, 'read').resources.map((r) => r.path);
  expect(record.value.resources_missing.map((r) => r.path)).toEqual(load(b, 'create').resources.map((r) => r.path).filter((p) => !delivered.includes(p)));
  expect(record.value.resources_missing.length).toBeGreaterThan(0);
});

test('lastSkillNamed: the package of the last answered Skill use; none without one', () => {
  const two = bytes({ messages: [use('toolu_01', 'Skill', { skill: 'excerpt-card' }), result('toolu_01', 'x'), use('toolu_02', 'Skill', { skill: 'notes' }), result('toolu_02', 'y')] });
  expect(lastSkillNamed(two)).toEqual({ ok: true, value: 'notes' });
  expect(lastSkillNamed(bytes({ messages: [use('toolu_01', 'Skill', { skill: 'notes' })] }))).toEqual({ ok: true, value: undefined });
  expect(lastSkillNamed(new Uint8Array([0xff])).ok).toBe(false);
});

test('a plain package in tool mode: its body present only in its matched Skill result', () => {
  const body = '# Notes\n\nRead every source before you quote it.\n';
  const parsed = parsePackage('notes', { kind: 'embedded' }, (rel) => (rel === 'SKILL.md' ? new TextEncoder().encode(`---\nname: notes\ndescription: Plain.\n---\n${body}`) : undefined), STAGES);
  if (!parsed.ok || parsed.value.kind !== 'plain') throw new Error('a plain package');
  const inSystem = plainToolAdoption(parsed.value, bytes({ system: [{ type: 'text', text: body }], messages: [] }));
  expect(inSystem.ok && inSystem.value.body_present).toBe(false);
  const matched = plainToolAdoption(parsed.value, bytes({ messages: [use('toolu_01', 'Skill', { skill: 'notes' }), result('toolu_01', body)] }));
  expect(matched.ok && matched.value).toMatchObject({ body_present: true, via: 'skill_tool', tool_use_id: 'toolu_01' });
});
