import { describe, expect, test } from 'bun:test';
import { canonicalJson, validateArguments, type Contract, type JsonSchema } from '../contract/index.ts';
import { createTaskContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { generateCases } from './cases.ts';
import { checkRoundTrip, convertArguments, strictConforms, tryBind, type Binding } from './index.ts';
import { isJsonObject, setOwn } from './missing.ts';

const CASES = 1200;
const implementation = { kind: 'local', version: '1' } as const;

function strictBinding(contract: Contract): Binding {
  const bound = tryBind(contract, { target: 'strict', implementation });
  if (!bound.ok) throw new Error(bound.message);
  return bound.value;
}

/**
 * The mechanical emulation the seed warns about: optional becomes
 * required-and-nullable, `args.get(name)` (missing → null) on the way out,
 * null → missing on the way back. It has no way to say "clear".
 */
function naiveEncode(schema: JsonSchema, value: unknown): unknown {
  if (schema['type'] !== 'object' || !isJsonObject(value)) {
    const members = Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonSchema[]) : [];
    const object = members.find((m) => m['type'] === 'object');
    return object && isJsonObject(value) ? naiveEncode(object, value) : value;
  }
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(schema['properties'] as Record<string, JsonSchema>)) {
    setOwn(out, name, naiveEncode(sub, value[name] ?? null)); // args.get(name)
  }
  return out;
}

function naiveDecode(schema: JsonSchema, value: unknown): unknown {
  if (schema['type'] !== 'object' || !isJsonObject(value)) {
    const members = Array.isArray(schema['anyOf']) ? (schema['anyOf'] as JsonSchema[]) : [];
    const object = members.find((m) => m['type'] === 'object');
    return object && isJsonObject(value) ? naiveDecode(object, value) : value;
  }
  const required = schema['required'] as string[];
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(schema['properties'] as Record<string, JsonSchema>)) {
    const item = value[name];
    if (item === null && !required.includes(name)) continue; // null means "not given"
    setOwn(out, name, naiveDecode(sub, item));
  }
  return out;
}

/** Whether any optional field, at any depth, is null (a "clear"). */
function clearsSomething(schema: JsonSchema, value: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => clearsSomething((schema['items'] ?? {}) as JsonSchema, item));
  if (Array.isArray(schema['anyOf'])) return (schema['anyOf'] as JsonSchema[]).some((m) => m['type'] !== 'null' && clearsSomething(m, value));
  if (schema['type'] !== 'object' || !isJsonObject(value)) return false;
  const required = schema['required'] as string[];
  return Object.entries(schema['properties'] as Record<string, JsonSchema>).some(([name, sub]) =>
    value[name] === null ? !required.includes(name) : clearsSomething(sub, value[name]),
  );
}

const examples: [string, Contract, number, Record<string, readonly string[]>][] = [
  ['update_note', updateNoteContract, 0x5eed1, { title: ['missing', 'empty', 'value'], note: ['missing', 'null', 'empty', 'value'], tags: ['missing', 'null', 'value'], priority: ['missing', 'value'], meta: ['missing', 'value'], 'meta.color': ['missing', 'null', 'value'], 'meta.pinned': ['missing', 'value'], 'meta.due': ['null', 'empty', 'value'] }],
  ['create_task', createTaskContract, 0x5eed2, { priority: ['missing', 'value'], due: ['missing', 'null', 'empty', 'value'], estimate: ['missing', 'null', 'value'], checklist: ['missing', 'value'], 'checklist[].done': ['missing', 'value'], assignee: ['missing', 'value'] }],
];

describe.each(examples)('strict/1 on generated %s cases', (_name, contract, seed, expectedCoverage) => {
  const binding = strictBinding(contract);
  const { cases, coverage } = generateCases(binding.contract.schema, seed, CASES);

  test(`generates ${CASES} contract-valid cases covering missing, null and "" in every optional field`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    for (const args of cases) expect(validateArguments(contract.input, args).ok).toBe(true);
    for (const [field, kinds] of Object.entries(expectedCoverage)) {
      expect([...(coverage.get(field) ?? [])].sort() as string[]).toEqual([...kinds].sort());
    }
    // Every optional field of the contract is in the expectations.
    const optional = [...coverage.keys()].filter((path) => coverage.get(path)?.has('missing'));
    for (const path of optional) expect(Object.keys(expectedCoverage)).toContain(path);
  });

  test('contract → strict → contract is the identity, and the strict form fits the strict schema', () => {
    for (const args of cases) {
      const model = checkRoundTrip(binding, args);
      if (!model.ok) throw new Error(`${model.message}\n${model.issues?.join('\n')}`);
      expect(strictConforms(binding.model.schema, model.value)).toEqual([]);
      // The pipeline path: convertArguments gives the same arguments back, plus recorded fills.
      const converted = convertArguments(binding, JSON.parse(JSON.stringify(model.value)));
      if (!converted.ok) throw new Error(converted.message);
      const filled = Object.keys(contract.fills ?? {}).filter((name) => isJsonObject(args) && !Object.hasOwn(args, name));
      expect(converted.value.filled).toEqual(filled);
      const expected = { ...(args as object), ...Object.fromEntries(filled.map((name) => [name, contract.fills?.[name]])) };
      expect(canonicalJson(converted.value.converted)).toBe(canonicalJson(expected));
    }
  });

  test('plain/1 and anthropic/1 round-trip the same cases unchanged', () => {
    for (const target of ['plain', 'anthropic'] as const) {
      const other = tryBind(contract, { target, implementation });
      if (!other.ok) throw new Error(other.message);
      for (const args of cases) {
        const model = checkRoundTrip(other.value, args);
        expect(model.ok && canonicalJson(model.value)).toBe(canonicalJson(args));
      }
    }
  });

  test('args.get-style conversion (missing treated as null) loses clear-vs-keep on the same cases', () => {
    const schema = binding.contract.schema;
    let lost = 0;
    let clearing = 0;
    for (const args of cases) {
      const back = naiveDecode(schema, JSON.parse(JSON.stringify(naiveEncode(schema, args))));
      const changed = canonicalJson(back) !== canonicalJson(args);
      // Exactly the calls that clear something come back as calls that keep it.
      expect(changed).toBe(clearsSomething(schema, args));
      if (changed) lost++;
      if (clearsSomething(schema, args)) clearing++;
    }
    expect(lost).toBe(clearing);
    expect(lost).toBeGreaterThan(CASES / 10);
  });
});

test('the naive form cannot tell keep from clear, the strict form can', () => {
  const binding = strictBinding(updateNoteContract);
  const schema = binding.contract.schema;
  const keep = { id: 'n1' };
  const clear = { id: 'n1', note: null };
  const empty = { id: 'n1', note: '' };
  expect(canonicalJson(naiveEncode(schema, keep))).toBe(canonicalJson(naiveEncode(schema, clear)));
  // The other naive direction (null stays null) turns keep into clear instead.
  expect(canonicalJson(naiveEncode(schema, keep))).toContain('"note":null');
  const forms = [keep, clear, empty].map((args) => {
    const model = checkRoundTrip(binding, args);
    if (!model.ok) throw new Error(model.message);
    return canonicalJson(model.value);
  });
  expect(new Set(forms).size).toBe(3);
  expect(forms[0]).toContain('"note":{"op":"keep","value":null}');
  expect(forms[1]).toContain('"note":{"op":"clear","value":null}');
  expect(forms[2]).toContain('"note":{"op":"set","value":""}');
});
