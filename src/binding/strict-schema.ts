import { fail, ok, type Failure, type JsonSchema, type Outcome } from '../contract/index.ts';
import { isJsonObject } from './missing.ts';
import { checkStrictLimits } from './strict-limits.ts';

/**
 * How strict/1 converts one node. Every node carries the model-facing schema
 * it was compiled to, so schema and codec cannot drift apart.
 * - `object`: fields; an optional field becomes an `{ op, value }` envelope.
 * - `array`: items converted one by one.
 * - `nullable`: `null` passes through as itself; other values go to `inner`.
 * - `value`: passes through unchanged (scalars, enums, unions of such).
 */
export type StrictPlan =
  | { readonly kind: 'object'; readonly schema: JsonSchema; readonly fields: readonly FieldPlan[] }
  | { readonly kind: 'array'; readonly schema: JsonSchema; readonly items: StrictPlan }
  | { readonly kind: 'nullable'; readonly schema: JsonSchema; readonly inner: StrictPlan }
  | { readonly kind: 'value'; readonly schema: JsonSchema };

export interface FieldPlan {
  readonly name: string;
  /** Missing allowed (keep). */
  readonly optional: boolean;
  /** `null` allowed (clear). */
  readonly nullable: boolean;
  /** The non-null value's plan. */
  readonly plan: StrictPlan;
}

/** A schema keyword strict/1 keeps as is: documented as supported by strict structured outputs. */
const KEEP = new Set(['description', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems']);
/** String formats strict structured outputs document; others are only described. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/**
 * Constraints strict mode does not document. They narrow which values are
 * valid but never what a valid value means, and the host validates the
 * contract anyway, so they move into the description instead of refusing.
 */
const DESCRIBE = new Set(['minLength', 'maxLength', 'uniqueItems', 'minProperties', 'maxProperties', 'format']);
/** Annotations the model does not need. */
const DROP = new Set(['$schema', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const STRUCTURE = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const']);
const OPEN_KEYS = new Set(['propertyNames', 'patternProperties', 'unevaluatedProperties']);
const LEAF_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

type Step = Outcome<StrictPlan>;

function refuse(path: string, reason: string): Failure {
  const field = path === '' ? '(root)' : path;
  return fail('precondition', 'unrepresentable', `strict: ${field}: ${reason}`, [field, reason]);
}

function isNullSchema(node: unknown): boolean {
  return isJsonObject(node) && node['type'] === 'null' && Object.keys(node).every((k) => k === 'type' || k === 'description');
}

/** Wraps a schema so it also admits `null`, flattening an existing anyOf. */
function nullableSchema(schema: JsonSchema): JsonSchema {
  const members = Array.isArray(schema['anyOf']) && Object.keys(schema).length === 1 ? (schema['anyOf'] as unknown[]) : [schema];
  return { anyOf: [...members, { type: 'null' }] };
}

function isIdentity(plan: StrictPlan): boolean {
  switch (plan.kind) {
    case 'value':
      return true;
    case 'nullable':
      return isIdentity(plan.inner);
    case 'array':
      return isIdentity(plan.items);
    case 'object':
      return plan.fields.every((field) => !field.optional && isIdentity(field.plan));
  }
}

/** Sorts a node's keywords into kept ones, described ones, or a refusal. */
function screen(node: Record<string, unknown>, path: string): Outcome<{ kept: Record<string, unknown>; note: string }> {
  const kept: Record<string, unknown> = {};
  const described: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'default') return refuse(path, 'a schema default would be filled silently by validation; declare it in contract.fills');
    if (OPEN_KEYS.has(key) || (key === 'additionalProperties' && value !== false)) {
      return refuse(path, 'open key set: strict mode requires every property declared and additionalProperties: false, so keys chosen at call time cannot be sent');
    }
    if (key === 'prefixItems') return refuse(path, 'tuple (prefixItems) has no strict/1 representation');
    if (key === 'format' && typeof value === 'string' && FORMATS.has(value)) kept[key] = value;
    else if (DESCRIBE.has(key)) described.push(`${key} ${JSON.stringify(value)}`);
    else if (KEEP.has(key) || STRUCTURE.has(key)) kept[key] = value;
    else if (!DROP.has(key)) return refuse(path, `keyword "${key}" has no strict/1 representation`);
  }
  return ok({ kept, note: described.length > 0 ? `Host-checked: ${described.join(', ')}.` : '' });
}

function withNote(schema: Record<string, unknown>, note: string): JsonSchema {
  if (note === '') return schema;
  const text = typeof schema['description'] === 'string' ? `${schema['description']} ${note}` : note;
  return { ...schema, description: text };
}

function envelope(field: FieldPlan): JsonSchema {
  const ops = field.nullable ? ['keep', 'clear', 'set'] : ['keep', 'set'];
  const clear = field.nullable ? ', "clear" = null' : '';
  return {
    type: 'object',
    description: `Optional field "${field.name}": op "keep" = leave it out${clear}, "set" = use value. value is null unless op is "set".`,
    properties: { op: { type: 'string', enum: ops }, value: nullableSchema(field.plan.schema) },
    required: ['op', 'value'],
    additionalProperties: false,
  };
}

/**
 * Compiles an object node. An object without `additionalProperties` (valibot
 * `object`, which strips unknown keys) is closed for the model: forbidding keys
 * the contract would drop loses nothing. A valibot `looseObject` exports the
 * same JSON, so its pass-through of unknown keys is narrowed away here; an
 * explicit open key set (`record`, `additionalProperties: {…}`) is refused.
 */
function compileObject(node: Record<string, unknown>, path: string, note: string): Step {
  const properties = node['properties'] ?? {};
  const required = node['required'] ?? [];
  if (!isJsonObject(properties) || !Array.isArray(required)) return refuse(path, 'malformed properties/required');
  const fields: FieldPlan[] = [];
  const shown: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(properties)) {
    const compiled = compileNode(sub, path === '' ? name : `${path}.${name}`);
    if (!compiled.ok) return compiled;
    const nullable = compiled.value.kind === 'nullable';
    const plan = compiled.value.kind === 'nullable' ? compiled.value.inner : compiled.value;
    const field: FieldPlan = { name, optional: !required.includes(name), nullable, plan };
    fields.push(field);
    Object.defineProperty(shown, name, { value: field.optional ? envelope(field) : compiled.value.schema, enumerable: true });
  }
  const extra = required.find((name) => typeof name !== 'string' || !Object.hasOwn(properties, name));
  if (extra !== undefined) return refuse(path, `required names ${JSON.stringify(extra)} without a property`);
  const base = typeof node['description'] === 'string' ? { description: node['description'] } : {};
  const schema = withNote(
    { type: 'object', ...base, properties: shown, required: fields.map((f) => f.name), additionalProperties: false },
    note,
  );
  return ok({ kind: 'object', schema, fields });
}

function compileAnyOf(members: unknown[], path: string, description: unknown): Step {
  const step = compileUnion(members, path);
  if (!step.ok || typeof description !== 'string') return step;
  return ok({ ...step.value, schema: { ...step.value.schema, description } });
}

function compileUnion(members: unknown[], path: string): Step {
  const others = members.filter((member) => !isNullSchema(member));
  if (others.length < members.length) {
    if (others.length === 0) return ok({ kind: 'value', schema: { type: 'null' } });
    const inner = compileNode(others.length === 1 ? others[0] : { anyOf: others }, path);
    if (!inner.ok) return inner;
    return ok({ kind: 'nullable', schema: nullableSchema(inner.value.schema), inner: inner.value });
  }
  const compiled: StrictPlan[] = [];
  for (const member of members) {
    const step = compileNode(member, path);
    if (!step.ok) return step;
    // A member that needs envelopes would make the decoder guess which member was meant.
    if (!isIdentity(step.value)) return refuse(path, 'union member with optional fields: strict/1 cannot tell which member an envelope belongs to');
    compiled.push(step.value);
  }
  return ok({ kind: 'value', schema: { anyOf: compiled.map((plan) => plan.schema) } });
}

/** Compiles one JSON Schema node of the contract into its strict/1 plan. */
function compileNode(node: unknown, path: string): Step {
  if (!isJsonObject(node)) return refuse(path, 'boolean or non-object schema has no strict/1 representation');
  const screened = screen(node, path);
  if (!screened.ok) return screened;
  const { kept, note } = screened.value;
  if (Array.isArray(kept['anyOf'])) {
    if (Object.keys(kept).some((key) => key !== 'anyOf' && key !== 'description')) return refuse(path, 'anyOf mixed with other keywords');
    return compileAnyOf(kept['anyOf'], path, kept['description']);
  }
  const type = kept['type'];
  if (type === 'object') return compileObject(kept, path, note);
  if (type === 'array') {
    const items = compileNode(kept['items'], `${path}[]`);
    if (!items.ok) return items;
    return ok({ kind: 'array', schema: withNote({ ...kept, items: items.value.schema }, note), items: items.value });
  }
  if (typeof type === 'string' ? LEAF_TYPES.has(type) : type === undefined && ('enum' in kept || 'const' in kept)) {
    return ok({ kind: 'value', schema: withNote(kept, note) });
  }
  return refuse(path, type === undefined ? 'unconstrained value: strict mode needs a type on every value' : `type ${JSON.stringify(type)} has no strict/1 representation`);
}

/**
 * Compiles a contract's exported JSON Schema into the strict/1 model-facing
 * schema and the plan its codec follows, or refuses naming the field and why.
 *
 * @param contractSchema The contract's input JSON Schema (draft 2020-12).
 * @returns The plan (root is an object) or a `precondition`/`unrepresentable` failure.
 */
export function compileStrict(contractSchema: JsonSchema): Outcome<StrictPlan & { kind: 'object' }> {
  const compiled = compileNode(contractSchema, '');
  if (!compiled.ok) return compiled;
  if (compiled.value.kind !== 'object') return refuse('', 'strict mode requires an object at the root');
  const limits = checkStrictLimits(compiled.value.schema);
  return limits === undefined ? ok(compiled.value) : refuse(limits.path, limits.reason);
}
