import { describe, expect, test } from 'bun:test';
import { LIMITS, type SchemaValidator } from '../contract/index.ts';
import { parseScenario } from '../harness/index.ts';
import { loadListedValidator, versionProfile } from '../mcp/index.ts';
import { starterArguments, starterCall, starterName, starterScenario, type StarterTool } from './starter.ts';

const listedValidator = await loadListedValidator();

/** The Ajv validator a run would check a listed inputSchema with (revision 2025-06-18). */
function ajv(schema: Record<string, unknown>): SchemaValidator {
  const compiled = listedValidator(schema, 'inputSchema', 't', versionProfile('2025-06-18')!);
  if (!compiled.validator) throw new Error(`did not compile: ${JSON.stringify(compiled.findings)}`);
  return compiled.validator;
}

const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const READ_ONLY = { readOnlyHint: true };
const bound = (modelName: string, schema: Record<string, unknown>, hints: Record<string, unknown> = READ_ONLY): Extract<StarterTool, { status: 'bound' }> => ({ status: 'bound', modelName, hints, input: ajv(schema) });

describe('starterArguments: required properties only, each by default, first enum value, minimum or 0, minLength × a, false', () => {
  test.each([
    ['a default wins over everything', { n: { type: 'number', default: 7, enum: [1, 2], minimum: 3 } }, { n: 7 }],
    ['a default of any type, as listed', { o: { type: 'object', default: { x: [1] } } }, { o: { x: [1] } }],
    ['the first enum value', { s: { type: 'string', enum: ['b', 'c'] } }, { s: 'b' }],
    ['an enum without a type', { e: { enum: [null, 1] } }, { e: null }],
    ['a number: its minimum', { n: { type: 'number', minimum: 2.5 } }, { n: 2.5 }],
    ['an integer: its minimum', { i: { type: 'integer', minimum: -3 } }, { i: -3 }],
    ['a number without minimum: 0', { n: { type: 'number', maximum: 10 } }, { n: 0 }],
    ['a string: minLength × a', { s: { type: 'string', minLength: 3 } }, { s: 'aaa' }],
    ['a string without minLength: empty', { s: { type: 'string' } }, { s: '' }],
    ['a boolean: false', { b: { type: 'boolean' } }, { b: false }],
  ])('%s', (_, properties, args) => {
    expect(starterArguments(object(properties))).toEqual({ ok: true, args });
  });

  test('optional properties are left out, a property named twice in required is set once, no required: {}', () => {
    expect(starterArguments({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['b', 'b'] })).toEqual({ ok: true, args: { b: 0 } });
    expect(starterArguments({ type: 'object', properties: { a: { type: 'string' } } })).toEqual({ ok: true, args: {} });
    expect(starterArguments({ type: 'object' })).toEqual({ ok: true, args: {} });
  });

  test.each([
    ['an array', { a: { type: 'array' } }, 'required property "a": no default, enum, or type number, integer, string or boolean'],
    ['an object', { o: { type: 'object' } }, 'required property "o": no default, enum, or type number, integer, string or boolean'],
    ['a type list', { t: { type: ['string', 'null'] } }, 'required property "t": no default, enum, or type number, integer, string or boolean'],
    ['a $ref', { r: { $ref: '#/$defs/x' } }, 'required property "r": no default, enum, or type number, integer, string or boolean'],
    ['a minLength past a call\'s bytes', { s: { type: 'string', minLength: LIMITS.argumentsBytes + 1 } }, `required property "s": minLength ${LIMITS.argumentsBytes + 1} is past LIMITS.argumentsBytes (${LIMITS.argumentsBytes})`],
  ])('uncovered: %s', (_, properties, why) => {
    expect(starterArguments(object(properties))).toEqual({ ok: false, why });
  });

  test('a required property with no schema at all is uncovered, named', () => {
    expect(starterArguments({ type: 'object', properties: {}, required: ['ghost'] })).toEqual({ ok: false, why: 'required property "ghost": no schema' });
  });
});

describe('starterCall: the tool\'s own hints, then its arguments checked by Ajv', () => {
  const sum = object({ a: { type: 'number' }, b: { type: 'number' } });

  test('readOnlyHint: true and not destructive: called with its arguments', () => {
    expect(starterCall(bound('mcp__s__sum', sum))).toEqual({ ok: true, args: { a: 0, b: 0 } });
    expect(starterCall(bound('mcp__s__sum', sum, { readOnlyHint: true, destructiveHint: false }))).toEqual({ ok: true, args: { a: 0, b: 0 } });
  });

  test.each([
    ['no hints', {}, 'its hints do not say readOnlyHint: true'],
    ['readOnlyHint false', { readOnlyHint: false }, 'its hints do not say readOnlyHint: true'],
    ['readOnlyHint "true" (a string)', { readOnlyHint: 'true' }, 'its hints do not say readOnlyHint: true'],
    ['read-only but destructive', { readOnlyHint: true, destructiveHint: true }, 'its hints say destructiveHint: true'],
  ])('left out: %s', (_, hints, why) => {
    expect(starterCall(bound('mcp__s__sum', sum, hints))).toEqual({ ok: false, why });
  });

  test.each([
    ['an exclusiveMinimum the minimum rule does not meet', object({ n: { type: 'number', exclusiveMinimum: 0 } }), 'its arguments {"n":0} fail its inputSchema: /n must be > 0'],
    ['an integer minimum that is not whole', object({ i: { type: 'integer', minimum: 0.5 } }), 'its arguments {"i":0.5} fail its inputSchema: /i must be integer'],
    ['a default its own schema refuses', object({ s: { type: 'string', default: 5 } }), 'its arguments {"s":5} fail its inputSchema: /s must be string'],
    ['a pattern the a\'s do not match', object({ s: { type: 'string', pattern: '^[0-9]+$' } }), 'its arguments {"s":""} fail its inputSchema: /s must match pattern "^[0-9]+$"'],
  ])('left out when Ajv refuses the set: %s', (_, schema, why) => {
    expect(starterCall(bound('mcp__s__t', schema))).toEqual({ ok: false, why });
  });

  test('a default nested past a call\'s depth is left out by the bounds, before Ajv', () => {
    let deep: unknown = 1;
    for (let i = 0; i < LIMITS.argumentsDepth + 1; i++) deep = [deep];
    const made = starterCall(bound('mcp__s__t', object({ d: { default: deep } })));
    expect(made.ok).toBe(false);
    expect(!made.ok && made.why).toStartWith("its arguments are past a call's bounds: nesting deeper than");
  });
});

test('starterName: the --out basename without .scenario.json or .json, in [a-z0-9-]', () => {
  expect(['everything.scenario.json', 'My Servers.json', 'a_b.c.SCENARIO.JSON', '---.json', 'plain', 'émoji✓.json'].map(starterName)).toEqual(['everything', 'my-servers', 'a-b-c', 'starter', 'plain', 'moji']);
});

describe('starterScenario', () => {
  const tools: StarterTool[] = [
    bound('mcp__s__zeta', object({ b: { type: 'boolean' } })),
    bound('mcp__s__alpha', object({ n: { type: 'integer', minimum: 1 } })),
    bound('mcp__s__write', object({}), { readOnlyHint: false }),
    bound('mcp__s__list', object({ x: { type: 'array' } })),
    { status: 'unbound', server: 's', name: 'broken', failure: { class: 'protocol', kind: 'unbindable_schema', message: 'broken: inputSchema: nope' } },
  ];

  test('one response with a call per kept tool by model name, then a final answer; each expected ok; exactly those allowed; the rest named with why', () => {
    const starter = starterScenario({ name: 'mine', servers: ['s'], tools });
    expect(starter.responses).toEqual([
      {
        tool_calls: [
          { id: 'call-01', name: 'mcp__s__alpha', arguments: { n: 1 } },
          { id: 'call-02', name: 'mcp__s__zeta', arguments: { b: false } },
        ],
        usage: { input_tokens: 0, output_tokens: 0 },
      },
      { text: 'Done.', usage: { input_tokens: 0, output_tokens: 0 } },
    ]);
    expect(starter.permissions).toEqual({ allow: ['mcp__s__alpha', 'mcp__s__zeta'] });
    expect(starter.expect).toEqual({ calls: { 'call-01': { ok: true }, 'call-02': { ok: true } }, end: { calls: 2, stop: 'final_answer' } });
    expect(starter.description).toEndWith(
      'Left out: mcp__s__broken: unbound (protocol/unbindable_schema: broken: inputSchema: nope); mcp__s__list: required property "x": no default, enum, or type number, integer, string or boolean; mcp__s__write: its hints do not say readOnlyHint: true.',
    );
    const parsed = parseScenario(JSON.stringify(starter, null, 2), 'starter');
    expect(parsed.ok && parsed.value.task).toBe('expectations');
  });

  test('the listing order changes nothing: the same tools give the same bytes', () => {
    const once = JSON.stringify(starterScenario({ name: 'mine', servers: ['s'], tools }));
    expect(JSON.stringify(starterScenario({ name: 'mine', servers: ['s'], tools: [...tools].reverse() }))).toBe(once);
  });

  test('with no tool kept: the final answer alone, no call expected, nothing allowed, and it still parses', () => {
    const starter = starterScenario({ name: 'none', servers: ['s'], tools: [tools[2]!] });
    expect([starter.responses.length, starter.permissions.allow, starter.expect]).toEqual([1, [], { calls: {}, end: { calls: 0, stop: 'final_answer' } }]);
    expect(parseScenario(JSON.stringify(starter), 'starter').ok).toBe(true);
  });

  test(`at most LIMITS.callsPerResponse (${LIMITS.callsPerResponse}) calls: the rest are left out, named`, () => {
    const many = Array.from({ length: LIMITS.callsPerResponse + 1 }, (_, i) => bound(`mcp__s__t${String(i).padStart(4, '0')}`, object({})));
    const starter = starterScenario({ name: 'many', servers: ['s'], tools: many });
    expect(starter.expect.end.calls).toBe(LIMITS.callsPerResponse);
    expect(starter.description).toEndWith(`Left out: mcp__s__t${String(LIMITS.callsPerResponse).padStart(4, '0')}: past LIMITS.callsPerResponse (${LIMITS.callsPerResponse}) calls in one response.`);
  });
});
