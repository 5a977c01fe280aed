/**
 * A listed tool's schema as a contract schema (issue 22, "Contracts from JSON
 * Schema"): compiled as probe compiles it, its default an annotation that is
 * bound and never filled, a bad value refused by keyword with every issue's
 * path, and a schema Ajv must not see (or cannot run synchronously) left
 * without a validator.
 */
import { describe, expect, test } from 'bun:test';
import { tryBind } from '../../binding/index.ts';
import { canonicalHash, exportContract, LIMITS, type Contract, type SchemaValidator } from '../../contract/index.ts';
import { checkResult } from '../../pipeline/stages/result-validate.ts';
import { validate, validateInput } from '../../pipeline/stages/validate.ts';
import { callState, echoContract, echoTool, settle } from '../../pipeline/testing/call-state.ts';
import { textBlock } from '../../pipeline/index.ts';
import { interpretCall } from '../client/call.ts';
import { listedValidator } from './listed-schema.ts';
import { SchemaCompilers } from './probe-ajv.ts';
import { versionProfile } from '../client/index.ts';
import { listedValidator as lazyListedValidator } from './index.ts';

const PROFILE = versionProfile('2025-06-18')!;
const LATEST = versionProfile('2025-11-25')!;

/** The validator a schema gives; a test of one that must compile fails here if it does not. */
function validatorOf(schema: object, which: 'inputSchema' | 'outputSchema' = 'inputSchema'): SchemaValidator {
  const { validator, findings } = listedValidator(schema, which, 't', PROFILE);
  if (!validator) throw new Error(`no validator: ${JSON.stringify(findings)}`);
  return validator;
}

/** An inputSchema as a server lists it: a default, a required field, bounds. */
const INPUT = {
  type: 'object',
  properties: {
    a: { type: 'number', default: 1 },
    b: { type: 'string', minLength: 2 },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
  },
  required: ['b'],
  additionalProperties: false,
};
const OPTIONAL = { type: 'object', properties: { a: { type: 'number', default: 1 } } };

describe('a listed schema compiles into a validator that never changes the value', () => {
  test('a default is never filled: {} conforms and stays {}, and a nested object keeps its missing field missing', () => {
    const validator = validatorOf({ type: 'object', properties: { a: { type: 'number', default: 1 }, o: { type: 'object', properties: { z: { type: 'string', default: 'zz' } } } } });
    const empty = {};
    const nested = { o: {} };
    expect(validator.validate(empty)).toEqual([]);
    expect(validator.validate(nested)).toEqual([]);
    expect([empty, nested]).toEqual([{}, { o: {} }]);
  });

  test('nothing is coerced: "2" is not a number, and stays a string', () => {
    const value = { a: '2' };
    expect(validatorOf(OPTIONAL).validate(value)).toEqual([{ keyword: 'type', path: '/a', message: 'must be number' }]);
    expect(value).toEqual({ a: '2' });
  });

  test('every issue is listed, each with its pointer: a missing or extra property by its own name', () => {
    const issues = validatorOf(INPUT).validate({ a: 'one', tags: ['x', 'z', 1], 'extra/~': true });
    expect(issues.map((i) => [i.keyword, i.path])).toEqual([
      ['required', '/b'],
      ['additionalProperties', '/extra~1~0'],
      ['type', '/a'],
      ['enum', '/tags/1'],
      ['type', '/tags/2'],
      ['enum', '/tags/2'],
    ]);
    expect(issues.every((i) => i.message.length > 0)).toBe(true);
  });

  test("the schema is the listed one, copied and deep-frozen: the caller's object stays its own", () => {
    const listed = structuredClone(INPUT);
    const validator = validatorOf(listed);
    expect(validator.jsonSchema).toEqual(INPUT);
    expect(validator.jsonSchema).not.toBe(listed);
    expect(Object.isFrozen(validator.jsonSchema) && Object.isFrozen((validator.jsonSchema['properties'] as { tags: { items: { enum: object } } }).tags.items.enum)).toBe(true);
    expect(Object.isFrozen(listed)).toBe(false);
    // A change to the caller's object after compiling reaches neither the schema nor the validator.
    listed.properties.tags.items.enum.push('z');
    expect(validator.validate({ b: 'bb', tags: ['z'] }).map((i) => i.keyword)).toEqual(['enum']);
  });

  test('draft-07 as declared, 2020-12 as declared, and a schema without $schema as the revision says', () => {
    const tuple07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }], additionalItems: false };
    expect(validatorOf(tuple07).validate(['a', 'b']).map((i) => i.keyword)).toEqual(['additionalItems']);
    const tuple2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(validatorOf(tuple2020).validate(['a', 'b']).map((i) => [i.keyword, i.path])).toEqual([['items', '']]);
    expect(validatorOf({ type: 'object', properties: { a: false } }).validate({ a: 1 }).map((i) => [i.keyword, i.path])).toEqual([['false schema', '/a']]);
    const dependent = { type: 'object', dependentRequired: { a: ['b'] } };
    expect(listedValidator(dependent, 'inputSchema', 't', LATEST).validator?.validate({ a: 1 })).toEqual([{ keyword: 'dependentRequired', path: '/b', message: 'must have property b when property a is present' }]);
  });

  test('an unknown keyword compiles leniently: a validator, and the finding that says what is not checked', () => {
    const { validator, findings } = listedValidator({ type: 'object', 'x-vendor': 1 }, 'inputSchema', 't', PROFILE);
    expect(findings.map((f) => f.kind)).toEqual(['schema_unknown_keyword']);
    expect(validator?.validate({})).toEqual([]);
    expect(validator?.validate([])?.map((i) => i.keyword)).toEqual(['type']);
  });
});

describe('a schema that cannot be validated here gives findings and no validator', () => {
  const deep = (levels: number): object => (levels === 0 ? { type: 'string' } : { type: 'object', properties: { a: deep(levels - 1) } });
  test.each([
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, 'remote_ref'],
    ['nesting past probeSchemaDepth', deep(LIMITS.probeSchemaDepth), 'schema_too_deep'],
    ['a dialect probe does not read', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }, 'schema_dialect'],
    ['a $ref loop', { type: 'object', $ref: '#' }, 'schema_ref_loop'],
    ['a schema that does not compile', { type: 'object', properties: { a: { type: 'no-such-type' } } }, 'schema_invalid'],
    ["Ajv's $async (its validator answers with a promise)", { $async: true, type: 'object' }, 'schema_async'],
  ])('%s', (_, schema, kind) => {
    const listed = listedValidator(schema, 'inputSchema', 'tool_x', PROFILE);
    expect(listed.validator).toBeUndefined();
    expect(listed.findings.map((f) => [f.kind, f.tool])).toContainEqual([kind, 'tool_x']);
  });

  test('a schema nested far past the bound is refused before it is copied (a copy would recurse as deep)', () => {
    const depth = 200_000;
    const schema = JSON.parse(`${'{"not":'.repeat(depth)}{}${'}'.repeat(depth)}`) as object;
    const listed = listedValidator(schema, 'inputSchema', 't', PROFILE);
    expect([listed.validator, listed.findings.map((f) => f.kind)]).toEqual([undefined, ['schema_too_deep']]);
  });
});

test('a compiled validator survives the registry being emptied for the next compile (same $id, other definitions)', () => {
  const tree = { $id: 'urn:example:tree', type: 'object', properties: { name: { $ref: '#/$defs/name' }, kids: { type: 'array', items: { $ref: 'urn:example:tree' } } }, $defs: { name: { type: 'string', maxLength: 3 } } };
  const rival = { $id: 'urn:example:tree', type: 'object', $defs: { name: { type: 'number' } }, properties: { name: { $ref: '#/$defs/name' } } };
  const compilers = new SchemaCompilers('validating');
  const mode = { dialect: '2020-12', strict: true } as const;
  const first = compilers.compile(tree, mode);
  const second = compilers.compile(rival, mode);
  if (!('validate' in first) || !('validate' in second)) throw new Error('both compile');
  const good = { name: 'ab', kids: [{ name: 'c', kids: [{ name: 'd' }] }] };
  const bad = { name: 'ab', kids: [{ name: 'c', kids: [{ name: 'toolong' }] }] };
  expect([first.validate(good), first.validate(bad), first.validate({ name: 1 })]).toEqual([true, false, false]);
  expect(first.validate.errors?.[0]?.keyword).toBe('type');
  expect([second.validate({ name: 1 }), second.validate({ name: 'ab' })]).toEqual([true, false]);
  // Through the unit: two listed validators made one after the other each keep their own schema.
  const listedTree = validatorOf(tree);
  const listedRival = validatorOf(rival);
  expect([listedTree.validate(bad).map((i) => i.path), listedRival.validate({ name: 1 })]).toEqual([['/kids/0/kids/0/name'], []]);
});

describe('as a contract: bound with its default, hashed as listed, validated as sent', () => {
  const listedContract = (): Contract => ({ ...echoContract, input: validatorOf(INPUT), result: validatorOf({ type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] }, 'outputSchema') });

  test('it binds with the default as an annotation, and the binding hashes the schema exactly as listed', () => {
    const contract = listedContract();
    const bound = tryBind(contract, { target: 'plain', implementation: { kind: 'mcp', version: '1' } });
    if (!bound.ok) throw new Error(bound.message);
    expect(bound.value.contract.schema).toEqual(INPUT);
    expect(bound.value.contract.schemaHash).toBe(canonicalHash(INPUT));
    expect(exportContract(contract).inputSchemaHash).toBe(canonicalHash(INPUT));
    expect(bound.value.contract.fills).toEqual({});
  });

  test('validate: {} to a tool with a default reaches the handler as {}, the same object, nothing filled', async () => {
    const input = validatorOf(OPTIONAL);
    const tool = echoTool({ contract: { ...echoContract, input } });
    const converted = {};
    const step = await settle(validate.run(callState({ tool, arguments: { original: converted, converted } })));
    expect(step.failure).toBeUndefined();
    expect((step.adds as { input: unknown }).input).toBe(converted);
    expect(converted).toEqual({});
  });

  test('validate: a bad argument is invalid_arguments/<keyword> listing every issue with its path; the handler gets nothing', () => {
    const tool = echoTool({ contract: listedContract() });
    const checked = validateInput(tool, { b: 'x', tags: ['q'], c: 1 }, callState({ tool }).context);
    expect(checked).toEqual({
      ok: false,
      class: 'invalid_arguments',
      kind: 'additionalProperties',
      message: '/c: must NOT have additional properties',
      issues: ['/c: must NOT have additional properties', '/b: must NOT have fewer than 2 characters', '/tags/0: must be equal to one of the allowed values'],
    });
  });

  test("a listed outputSchema refuses a bad structuredContent: the MCP client's check and the pipeline's", () => {
    const contract = listedContract();
    const reply = (structured: unknown) => ({ id: 1, requestBytes: 1, responseBytes: 1, answer: { result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured } } });
    expect(interpretCall({ contract }, reply({ echoed: 7 }))).toMatchObject({ ok: false, class: 'protocol', kind: 'output_invalid', issues: ['/echoed: must be string'] });
    expect(interpretCall({ contract }, reply({}))).toMatchObject({ ok: false, kind: 'output_invalid', issues: ['/echoed: must have required property \'echoed\''] });
    const good = { echoed: 'hi', more: [1] };
    // What passes is what was sent (the wire's own parse copies it; nothing is added or dropped).
    expect(interpretCall({ contract }, reply(good))).toMatchObject({ ok: true, value: { structured: good } });
    const tool = echoTool({ contract, attributes: { ...echoTool().attributes, fromMcp: true } });
    expect(checkResult(tool, { data: { echoed: 7 }, content: [textBlock('7')] })?.failure).toMatchObject({ class: 'protocol', kind: 'output_invalid', issues: ['/echoed: must be string'] });
    expect(checkResult(tool, { data: good, content: [textBlock('hi')] })).toBeUndefined();
  });
});

test('the lazy entry (probe/index.ts) loads the unit and answers as it does', async () => {
  const lazy = await lazyListedValidator(OPTIONAL, 'inputSchema', 't', PROFILE);
  expect(lazy.findings).toEqual([]);
  expect(lazy.validator?.validate({ a: 'x' })).toEqual([{ keyword: 'type', path: '/a', message: 'must be number' }]);
});
