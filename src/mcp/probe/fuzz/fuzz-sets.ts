/**
 * Argument sets for `probe --fuzz`, drawn from a tool's inputSchema with a
 * seeded generator (`rng`, base): the same schema, count and seed give the
 * same sets. Each set is one of a few shapes — a plausible object, then one
 * change: a boundary, an enum member, an optional field absent, null or
 * empty, a required one missing, a wrong type, an extra field, a value out
 * of range, a non-integer, -0, 2^53+1, a long string, deep nesting, NUL,
 * non-BMP text, a lone surrogate. What a set is (valid or not) is never the
 * generator's to say: Ajv classifies it against the schema (classify.ts).
 * Every set stays below the line limit: at most `fuzzArgumentsBytes` as
 * JSON and `argumentsDepth` + 1 deep; at most `fuzzSetsPerTool` sets.
 */
import { rng, type Rng } from '../../../base/index.ts';
import { checkJson, LIMITS } from '../../../contract/index.ts';

type Schema = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const typeOf = (schema: Schema): string | undefined => {
  const type = schema['type'];
  return typeof type === 'string' ? type : Array.isArray(type) && typeof type[0] === 'string' ? type[0] : schema['enum'] ? 'enum' : schema['properties'] ? 'object' : undefined;
};

/** Odd strings: NUL, non-BMP, a lone surrogate, bidi and line separators, an empty one. */
const ODD_TEXT = ['', '\u0000', 'nul\u0000inside', '𠀋😀', '\ud800', 'tail\udfff', '\u202e', '\u2028', ' ', '../../etc/passwd', '%s%n', '"\\'];
/** Odd numbers: -0, 2^53+1 (not exactly a double), edges of the integers JSON readers keep. */
const ODD_NUMBERS = [-0, 2 ** 53 + 1, -(2 ** 53) - 1, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324, 0.5, -1, 0];

/** A plausible value for a schema: its enum's, const, default, or one of its type within its bounds. */
function plausible(schema: unknown, r: Rng, depth: number): unknown {
  if (!isObject(schema)) return 'x';
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return r.pick(schema['enum']);
  if ('const' in schema) return schema['const'];
  if ('default' in schema && r.chance(0.3)) return schema['default'];
  const num = (key: string, fallback: number) => (typeof schema[key] === 'number' ? (schema[key] as number) : fallback);
  switch (typeOf(schema)) {
    case 'string': return 'a'.repeat(Math.max(num('minLength', 1), Math.min(num('maxLength', 8), 8)));
    case 'integer': return Math.ceil(Math.max(num('minimum', 0), Math.min(num('maximum', 10), 10)));
    case 'number': return Math.max(num('minimum', 0), Math.min(num('maximum', 1.5), 1.5));
    case 'boolean': return r.chance(0.5);
    case 'null': return null;
    case 'array': return depth > 4 ? [] : Array.from({ length: Math.max(num('minItems', 0), 1) }, () => plausible(schema['items'], r, depth + 1));
    case 'object': return depth > 4 ? {} : plausibleObject(schema, r, depth + 1, true);
    default: return 'x';
  }
}

/** Every required property, and each optional one by chance. */
function plausibleObject(schema: Schema, r: Rng, depth: number, optional: boolean): Record<string, unknown> {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((k): k is string => typeof k === 'string') : []);
  const value: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(properties)) if (required.has(key) || (optional && r.chance(0.5))) value[key] = plausible(inner, r, depth);
  for (const key of required) if (!(key in value)) value[key] = 'x';
  return value;
}

/** A value of another type than the schema's. */
function wrongType(schema: unknown, r: Rng): unknown {
  const type = isObject(schema) ? typeOf(schema) : undefined;
  const others: unknown[] = [true, 7, 'seven', null, [], {}, 1.25];
  return r.pick(others.filter((value) => (type === 'string' ? typeof value !== 'string' : type === 'object' ? !isObject(value) : type === 'array' ? !Array.isArray(value) : typeof value !== 'number')));
}

/** An edge of the schema's bounds, or just past it. */
function boundary(schema: unknown, r: Rng): unknown {
  if (!isObject(schema)) return r.pick(ODD_NUMBERS);
  const edges: unknown[] = [];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) if (typeof schema[key] === 'number') edges.push(schema[key], (schema[key] as number) - 1, (schema[key] as number) + 1, (schema[key] as number) + 0.5);
  if (typeof schema['minLength'] === 'number') edges.push('a'.repeat(schema['minLength']), 'a'.repeat(Math.max(0, schema['minLength'] - 1)));
  if (typeof schema['maxLength'] === 'number' && schema['maxLength'] < 10_000) edges.push('a'.repeat(schema['maxLength']), 'a'.repeat(schema['maxLength'] + 1));
  if (Array.isArray(schema['enum'])) edges.push(...schema['enum'], `${String(schema['enum'][0])}_not`);
  return edges.length > 0 ? r.pick(edges) : r.pick([...ODD_NUMBERS, ...ODD_TEXT]);
}

/** `{"a":{"a":…}}` as deep as the limit allows, at most. */
const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

/** The changes a set may make, each to one property (or the whole) of a plausible object. */
type Change = (base: Record<string, unknown>, schema: Schema, r: Rng) => unknown;

const propertiesOf = (schema: Schema): Record<string, unknown> => (isObject(schema['properties']) ? schema['properties'] : {});
const someKey = (base: Record<string, unknown>, schema: Schema, r: Rng): string | undefined => {
  const keys = [...new Set([...Object.keys(propertiesOf(schema)), ...Object.keys(base)])];
  return keys.length > 0 ? r.pick(keys) : undefined;
};
const set = (base: Record<string, unknown>, key: string | undefined, value: unknown): Record<string, unknown> => (key === undefined ? base : { ...base, [key]: value });

const CHANGES: readonly Change[] = [
  (base) => base,
  (base, schema, r) => { const key = someKey(base, schema, r); return set(base, key, boundary(propertiesOf(schema)[key ?? ''], r)); },
  (base, schema, r) => { const key = someKey(base, schema, r); return set(base, key, r.pick([null, '', [], {}])); },
  (base, schema, r) => { const key = someKey(base, schema, r); const { [key ?? '']: _, ...rest } = base; return rest; },
  (base, schema, r) => { const key = someKey(base, schema, r); return set(base, key, wrongType(propertiesOf(schema)[key ?? ''], r)); },
  (base, _schema, r) => ({ ...base, [r.pick(['extra', '__proto__', 'constructor', ''])]: r.pick([1, 'x', null]) }),
  (base, schema, r) => set(base, someKey(base, schema, r), r.pick(ODD_NUMBERS)),
  (base, schema, r) => set(base, someKey(base, schema, r), r.pick(ODD_TEXT)),
  // Up to twice the cap: a set over it is drawn again.
  (base, schema, r) => set(base, someKey(base, schema, r), 'x'.repeat(1 + r.int(2 * LIMITS.fuzzArgumentsBytes))),
  (base, schema, r) => set(base, someKey(base, schema, r), deep(1 + r.int(LIMITS.argumentsDepth))),
  (_base, schema, r) => wrongType(schema, r),
  (_base, schema, r) => plausibleObject(schema, r, 1, false),
];

/** Whether a set is below the line limit: `fuzzArgumentsBytes` of JSON, `argumentsDepth` + 1 deep. */
export function withinCaps(value: unknown): boolean {
  return checkJson(value, { maxDepth: LIMITS.argumentsDepth + 1, maxBytes: LIMITS.fuzzArgumentsBytes }).ok;
}

/**
 * `count` argument sets for a tool with `inputSchema` (at most
 * `fuzzSetsPerTool`), from `seed`; a set over the caps is drawn again (a
 * plausible object after 8 tries, which is within them for any schema probe
 * compiles).
 */
export function fuzzSets(inputSchema: Schema, count: number, seed: number): unknown[] {
  const r = rng(seed);
  const sets: unknown[] = [];
  for (let i = 0; i < Math.min(count, LIMITS.fuzzSetsPerTool); i++) {
    let value: unknown;
    for (let attempt = 0; attempt < 8 && (value === undefined || !withinCaps(value)); attempt++) value = r.pick(CHANGES)(plausibleObject(inputSchema, r, 1, true), inputSchema, r);
    sets.push(withinCaps(value) ? value : {});
  }
  return sets;
}
