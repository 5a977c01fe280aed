import { expect, test } from 'bun:test';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { adoption, bindPackage, discoverPackages, load, methodText, type BoundPackage } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

function bound(): BoundPackage {
  const found = discoverPackages({ stages: STAGES });
  if (!found.ok) throw new Error(found.message);
  const pkg = found.value[0]!;
  if (pkg.kind !== 'staged') throw new Error('the embedded package is staged');
  const result = bindPackage(pkg, [readSourceContract, createCardContract]);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

const bytes = (payload: unknown) => new TextEncoder().encode(JSON.stringify(payload));
const paths = (list: readonly { path: string }[]) => list.map((r) => r.path);

test('a payload carrying the read stage in `system` reports exactly that stage’s material', () => {
  const b = bound();
  const payload = bytes({
    system: [{ type: 'text', text: 'You are a careful assistant.' }, { type: 'text', text: methodText(load(b, 'read')) }],
    messages: [{ role: 'user', content: 'Make the excerpt card.' }],
  });
  const record = adoption(b, 'read', payload);
  if (!record.ok) throw new Error(record.message);
  expect(record.value.instructions_present).toBe(true);
  expect(paths(record.value.resources_present)).toEqual(['references/source-conventions.md', 'references/error-handling.md']);
  expect(record.value.resources_missing).toEqual([]);
  expect(record.value.adopted).toBe(true);
  expect(record.value).toMatchObject({ name: 'excerpt-card', version: '1.0.0', hash: b.package.hash, stage: 'read' });
});

test('a payload without the material does not report it, whatever the host meant to send', () => {
  const b = bound();
  const record = adoption(b, 'create', bytes({ system: 'You are a careful assistant.', messages: [] }));
  if (!record.ok) throw new Error(record.message);
  expect(record.value.instructions_present).toBe(false);
  expect(record.value.resources_present).toEqual([]);
  expect(paths(record.value.resources_missing)).toEqual(paths(load(b, 'create').resources));
  expect(record.value.adopted).toBe(false);
});

test('a resource altered in transit, or only in a tool result, is not present', () => {
  const b = bound();
  const loaded = load(b, 'create');
  const [first, ...rest] = loaded.resources;
  const altered = { ...loaded, resources: [{ ...first!, text: first!.text.replace('verbatim', 'literal') }, ...rest] };
  const payload = bytes({
    system: methodText(altered),
    messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: first!.text }] }],
  });
  const record = adoption(b, 'create', payload);
  if (!record.ok) throw new Error(record.message);
  expect(paths(record.value.resources_present)).not.toContain(first!.path);
  expect(paths(record.value.resources_missing)).toEqual([first!.path]);
  expect(record.value.adopted).toBe(false);
});

test('material sent in the wrong stage shows up: the create reference in a read request', () => {
  const b = bound();
  const payload = bytes({ system: [{ type: 'text', text: methodText(load(b, 'read')) }, { type: 'text', text: methodText(load(b, 'create')) }] });
  const record = adoption(b, 'read', payload);
  if (!record.ok) throw new Error(record.message);
  expect(paths(record.value.resources_present)).toContain('references/card-layout.md');
});

test('presence is decided on decoded JSON strings, so escaping neither hides nor fakes a match', () => {
  const b = bound();
  const text = methodText(load(b, 'read'));
  // Every non-ASCII character escaped as \uXXXX: same JSON value, different bytes.
  const escaped = JSON.stringify({ system: text }).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const record = adoption(b, 'read', new TextEncoder().encode(escaped));
  if (!record.ok) throw new Error(record.message);
  expect(record.value.adopted).toBe(true);
  // A piece split across two strings does not count.
  const instructions = load(b, 'read').instructions;
  const half = text.indexOf(instructions) + Math.floor(instructions.length / 2);
  const split = adoption(b, 'read', bytes({ system: [{ type: 'text', text: text.slice(0, half) }, { type: 'text', text: text.slice(half) }] }));
  if (!split.ok) throw new Error(split.message);
  expect(split.value.instructions_present).toBe(false);
});

test('bytes that are not UTF-8 JSON are refused, not read as "nothing present"', () => {
  const b = bound();
  const notJson = adoption(b, 'read', new TextEncoder().encode('{"system":'));
  const notUtf8 = adoption(b, 'read', new Uint8Array([0x7b, 0xff, 0x7d]));
  for (const result of [notJson, notUtf8]) {
    expect(result.ok).toBe(false);
    if (!result.ok) expect([result.class, result.kind]).toEqual(['invalid_arguments', 'bad_payload']);
  }
});

test('methodSupport blocks placed in `system` are found by its adoption, for every stage', async () => {
  const { methodSupport } = await import('./index.ts');
  const b = bound();
  const support = methodSupport(b);
  for (const stage of STAGES) {
    const payload = bytes({ system: [{ type: 'text', text: 'host rules' }, ...support.blocks(stage)], messages: [] });
    const record = support.adoption(stage, payload);
    if (!record.ok || !('adopted' in record.value)) throw new Error('a staged adoption record');
    expect(record.value.adopted).toBe(true);
    // Present resources are listed in package order; compare as sets.
    expect(paths(record.value.resources_present).sort()).toEqual(paths(load(b, stage).resources).sort());
  }
});
