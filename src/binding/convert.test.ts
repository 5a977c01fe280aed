import { describe, expect, test } from 'bun:test';
import { validateArguments } from '../contract/index.ts';
import { createTaskContract, setPropertiesContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { convertArguments, MISSING, operationOf, readField, tryBind, type Binding, type ModelTarget } from './index.ts';

const implementation = { kind: 'local', version: '1' } as const;

function binding(target: ModelTarget, contract = updateNoteContract as typeof updateNoteContract | typeof createTaskContract): Binding {
  const bound = tryBind(contract, { target, implementation });
  if (!bound.ok) throw new Error(bound.message);
  return bound.value;
}

const keepAll = { title: { op: 'keep', value: null }, note: { op: 'keep', value: null }, tags: { op: 'keep', value: null }, priority: { op: 'keep', value: null }, meta: { op: 'keep', value: null } };

test('readField and operationOf keep missing, null and "" apart', () => {
  const args = JSON.parse('{"a": null, "b": "", "c": "x"}') as object;
  expect([readField(args, 'missing'), readField(args, 'a'), readField(args, 'b')]).toEqual([MISSING, null, '']);
  expect(['missing', 'a', 'b', 'c'].map((key) => operationOf(readField(args, key)))).toEqual(['keep', 'clear', 'set', 'set']);
  expect(readField(args, 'toString')).toBe(MISSING); // inherited is not a field
  expect(readField({ u: undefined }, 'u')).toBe(MISSING); // JSON would drop it
});

describe('strict/1 decoding', () => {
  const strict = binding('strict');
  const call = (fields: Record<string, unknown>) => convertArguments(strict, { id: 'n1', ...keepAll, ...fields });

  test('keep, clear and set (including "") become missing, null and the value', () => {
    const keep = call({});
    const clear = call({ note: { op: 'clear', value: null } });
    const empty = call({ note: { op: 'set', value: '' } });
    expect(keep.ok && keep.value.converted).toEqual({ id: 'n1' });
    expect(clear.ok && clear.value.converted).toEqual({ id: 'n1', note: null });
    expect(empty.ok && empty.value.converted).toEqual({ id: 'n1', note: '' });
    const nested = call({ meta: { op: 'set', value: { color: { op: 'clear', value: null }, pinned: { op: 'keep', value: null }, due: null } } });
    expect(nested.ok && nested.value.converted).toEqual({ id: 'n1', meta: { color: null, due: null } });
  });

  const misuse: [string, Record<string, unknown>, string, string][] = [
    ['a value beside keep', { note: { op: 'keep', value: 'x' } }, 'invalid_operation', 'note: op "keep" requires value null'],
    ['set with null', { note: { op: 'set', value: null } }, 'invalid_operation', 'use op "clear"'],
    ['clear on a field that cannot be null', { title: { op: 'clear', value: null } }, 'invalid_operation', 'title: op must be "keep" or "set"'],
    ['a bare value instead of an envelope', { note: 'x' }, 'invalid_operation', 'must be { op, value }'],
    ['an envelope with an extra key', { note: { op: 'keep', value: null, why: 1 } }, 'invalid_operation', 'must be { op, value }'],
    ['a nested misuse', { meta: { op: 'set', value: { color: { op: 'bogus', value: null }, pinned: { op: 'keep', value: null }, due: null } } }, 'invalid_operation', 'meta.color'],
    ['a left-out field', { note: undefined }, 'missing_field', 'note: is required in strict mode'],
    ['an extra field', { owner: 'me' }, 'extra_field', 'owner'],
  ];
  test.each(misuse)('refuses %s', (_name, fields, kind, text) => {
    const result = call(fields);
    expect(result).toMatchObject({ ok: false, class: 'invalid_arguments', kind });
    if (!result.ok) expect(result.message).toContain(text);
  });

  test('a wrong value type passes through for the contract validator to name', () => {
    const result = call({ priority: { op: 'set', value: 'urgent' } });
    if (!result.ok) throw new Error(result.message);
    expect(validateArguments(updateNoteContract.input, result.value.converted)).toMatchObject({ ok: false, class: 'invalid_arguments' });
  });

  test('a "__proto__" key is an extra field, never a prototype', () => {
    const result = convertArguments(strict, JSON.parse('{"__proto__": {"polluted": true}, "id": "n1"}'));
    expect(result).toMatchObject({ ok: false, kind: 'extra_field' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe.each(['plain', 'anthropic'] as const)('%s conversion', (target) => {
  test('is the identity: missing, null and "" arrive as sent', () => {
    for (const args of [{ id: 'n1' }, { id: 'n1', note: null }, { id: 'n1', note: '' }, { id: 'n1', meta: { due: null } }]) {
      const result = convertArguments(binding(target), args);
      expect(result.ok && result.value.converted).toEqual(args);
      expect(result.ok && result.value.filled).toEqual([]);
    }
  });

  test('the unrepresentable example keeps its meaning here: null deletes, absent keeps', () => {
    const bound = tryBind(setPropertiesContract, { target, implementation });
    if (!bound.ok) throw new Error(bound.message);
    const args = { id: 'o1', properties: { colour: null, size: '' } };
    const result = convertArguments(bound.value, args);
    expect(result.ok && result.value.converted).toEqual(args);
  });
});

describe('fills and the record of a call', () => {
  test('fill only what contract.fills names, only when missing, and record it', () => {
    const plain = binding('plain', createTaskContract);
    const missing = convertArguments(plain, { title: 'Write', due: null });
    expect(missing.ok && missing.value).toEqual({ original: { title: 'Write', due: null }, converted: { title: 'Write', due: null, priority: 'normal' }, filled: ['priority'] });
    const given = convertArguments(plain, { title: 'Write', priority: 'high' });
    expect(given.ok && given.value.filled).toEqual([]);
    expect(given.ok && given.value.converted).toEqual({ title: 'Write', priority: 'high' });
  });

  test('strict keep on a filled field is filled the same way; original stays what the model sent', () => {
    const strict = binding('strict', createTaskContract);
    const sent = { title: 'Write', priority: { op: 'keep', value: null }, due: { op: 'keep', value: null }, estimate: { op: 'clear', value: null }, checklist: { op: 'keep', value: null }, assignee: { op: 'keep', value: null } };
    const result = convertArguments(strict, sent);
    if (!result.ok) throw new Error(result.message);
    expect(result.value.original).toEqual(sent);
    expect(result.value.converted).toEqual({ title: 'Write', estimate: null, priority: 'normal' });
    expect(result.value.filled).toEqual(['priority']);
    expect(Object.isFrozen(result.value.original) && Object.isFrozen(result.value.converted)).toBe(true);
  });

  test('non-object arguments fail as not_object, with a hint for a JSON string', () => {
    const result = convertArguments(binding('strict'), '{"id":"n1"}');
    expect(result).toMatchObject({ ok: false, class: 'invalid_arguments', kind: 'not_object' });
    if (!result.ok) expect(result.message).toContain('JSON-encoded string');
  });

  test('a binding whose recorded conversion this build does not produce is refused, not reinterpreted', () => {
    const strict = binding('strict');
    const older = { ...strict, conversion: { ...strict.conversion, arguments: 'strict/0' } };
    expect(convertArguments(older, { id: 'n1', ...keepAll })).toMatchObject({ ok: false, class: 'precondition', kind: 'conversion_unavailable' });
    const other = { ...strict, model: { ...strict.model, schemaHash: '0'.repeat(64) } };
    expect(convertArguments(other, { id: 'n1', ...keepAll })).toMatchObject({ ok: false, kind: 'conversion_unavailable' });
  });
});
