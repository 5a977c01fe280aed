import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { exportContract, exportSchema, isUnknownOutcome, type Contract, type JsonSchema } from '../contract/index.ts';
import { createCardContract, readSourceContract } from '../excerpt/contracts.ts';
import { createTaskContract, setPropertiesContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { prepareTarget, strictViolations, tryBind } from './index.ts';
import { isJsonObject } from './missing.ts';

/** Visits every object node of a schema, wherever it sits (properties, items, anyOf). */
function objectNodes(node: unknown, path = '', out: [string, Record<string, unknown>][] = []): [string, Record<string, unknown>][] {
  if (!isJsonObject(node)) return out;
  if (node['type'] === 'object') out.push([path || '(root)', node]);
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && isJsonObject(child)) for (const [name, sub] of Object.entries(child)) objectNodes(sub, `${path}/${name}`, out);
    else if (Array.isArray(child)) child.forEach((item, i) => objectNodes(item, `${path}/${key}/${i}`, out));
    else if (key === 'items') objectNodes(child, `${path}[]`, out);
  }
  return out;
}

const representable: [string, Contract][] = [
  ['update_note', updateNoteContract],
  ['create_task', createTaskContract],
  ['read_source', readSourceContract],
  ['create_card', createCardContract],
];

describe.each(representable)('strict schema of %s', (_name, contract) => {
  const bound = tryBind(contract, { target: 'strict', implementation: { kind: 'local', version: '1' } });
  const schema = bound.ok ? bound.value.model.schema : {};

  test('every object node: all properties required, additionalProperties false', () => {
    expect(bound.ok).toBe(true);
    const nodes = objectNodes(schema);
    expect(nodes.length).toBeGreaterThan(0);
    for (const [, node] of nodes) {
      expect(node['additionalProperties']).toBe(false);
      expect([...(node['required'] as string[])].sort()).toEqual(Object.keys(node['properties'] as object).sort());
    }
    expect(schema['type']).toBe('object');
    expect(strictViolations(schema)).toEqual([]);
  });

  test('keeps field names and order of the contract', () => {
    const contractSchema = exportContract(contract).inputSchema;
    expect(Object.keys(schema['properties'] as object)).toEqual(Object.keys(contractSchema['properties'] as object));
  });
});

test('the independent checker catches each kind of violation', () => {
  const bad: JsonSchema = {
    type: 'object',
    properties: { a: { type: 'string', minLength: 1 }, b: { type: 'object', properties: {} } },
    required: ['a'],
  };
  const found = strictViolations(bad).join('\n');
  expect(found).toContain('(root): object without additionalProperties: false');
  expect(found).toContain('/properties/b: not required');
  expect(found).toContain('/properties/b: object without additionalProperties: false');
  expect(found).toContain('keyword "minLength"');
  expect(strictViolations({ anyOf: [{ type: 'object' }] })[0]).toContain('(root)');
});

test('constraints strict mode does not document move into the description; the contract still checks them', () => {
  const prepared = prepareTarget('strict', exportSchema(updateNoteContract.input));
  if (!prepared.ok) throw new Error(prepared.message);
  const id = (prepared.value.schema['properties'] as Record<string, JsonSchema>)['id'];
  expect(id).toEqual({ type: 'string', description: 'The note to update. Host-checked: minLength 1, maxLength 64.' });
});

describe('refusals name the field and the reason', () => {
  const cases: [string, v.GenericSchema, string, string][] = [
    ['record', setPropertiesContract.input, 'properties', 'open key set'],
    ['tuple', v.strictObject({ pair: v.tuple([v.string(), v.number()]) }), 'pair', 'tuple'],
    ['any JSON', v.strictObject({ payload: v.unknown() }), 'payload', 'unconstrained value'],
    [
      'union of objects with optional fields',
      v.strictObject({ target: v.union([v.strictObject({ a: v.optional(v.string()) }), v.strictObject({ b: v.string() })]) }),
      'target',
      'cannot tell which member',
    ],
    ['nested record', v.strictObject({ meta: v.optional(v.strictObject({ labels: v.record(v.string(), v.string()) })) }), 'meta.labels', 'open key set'],
    ['non-object root', v.array(v.string()), '(root)', 'object at the root'],
  ];
  test.each(cases)('%s', (_name, input, field, reason) => {
    const prepared = prepareTarget('strict', exportSchema(input));
    expect(prepared).toMatchObject({ ok: false, class: 'precondition', kind: 'unrepresentable' });
    if (prepared.ok) return;
    expect(prepared.issues?.[0]).toBe(field);
    expect(prepared.issues?.[1]).toContain(reason);
    expect(isUnknownOutcome(prepared)).toBe(false);
  });

  test('nesting beyond the documented strict limit', () => {
    let input: v.GenericSchema = v.strictObject({ leaf: v.string() });
    for (let level = 0; level < 10; level++) input = v.strictObject({ [`l${level}`]: input });
    const prepared = prepareTarget('strict', exportSchema(input));
    expect(prepared).toMatchObject({ ok: false, kind: 'unrepresentable' });
    if (!prepared.ok) expect(prepared.issues?.[1]).toContain('exceeds the strict limit of 10');
  });

  test('anthropic refuses only a non-object root and otherwise sends the contract schema unchanged', () => {
    expect(prepareTarget('anthropic', exportSchema(v.array(v.string())))).toMatchObject({ ok: false, kind: 'unrepresentable' });
    const schema = exportSchema(setPropertiesContract.input);
    const prepared = prepareTarget('anthropic', schema);
    expect(prepared.ok && prepared.value.schema).toBe(schema);
  });
});
