import type { JsonSchema } from '../contract/index.ts';
import { isJsonObject } from './missing.ts';

/**
 * The strict structured-output subset of JSON Schema, as an independent
 * checker: the tests use it to prove generated schemas follow the rules, and
 * that encoded arguments are what such a schema admits. It does not share
 * code with the compiler it checks.
 */
const ALLOWED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const', 'description',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

function walk(node: unknown, at: string, out: string[]): void {
  const path = at === '' ? '(root)' : at;
  if (!isJsonObject(node)) {
    out.push(`${path}: not a schema object`);
    return;
  }
  for (const key of Object.keys(node)) if (!ALLOWED.has(key)) out.push(`${path}: keyword "${key}" outside the strict subset`);
  if (Array.isArray(node['anyOf'])) node['anyOf'].forEach((member, i) => walk(member, `${at}/anyOf/${i}`, out));
  if (node['type'] === 'array') walk(node['items'], `${at}/items`, out);
  if (node['type'] !== 'object') return;
  if (node['additionalProperties'] !== false) out.push(`${path}: object without additionalProperties: false`);
  const properties = isJsonObject(node['properties']) ? node['properties'] : undefined;
  if (!properties) {
    out.push(`${path}: object without properties`);
    return;
  }
  const required = Array.isArray(node['required']) ? node['required'] : [];
  const names = Object.keys(properties);
  for (const name of names) if (!required.includes(name)) out.push(`${at}/properties/${name}: not required`);
  if (required.length !== names.length) out.push(`${path}: required does not list exactly the properties`);
  for (const name of names) walk(properties[name], `${at}/properties/${name}`, out);
}

/**
 * Lists every way a schema breaks the strict rules: an object root (not
 * anyOf); on every object node all properties required and
 * `additionalProperties: false`; only keywords of the strict subset.
 *
 * @returns Violations with JSON-pointer-like paths; empty when the schema is strict.
 */
export function strictViolations(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (schema['type'] !== 'object' || 'anyOf' in schema) out.push('(root): must be an object schema, not anyOf');
  walk(schema, '', out);
  return out;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Lists where a value falls outside a strict schema's shape (types, enum,
 * const, properties, required, additionalProperties, items, anyOf). Value
 * constraints such as pattern or minimum are the contract validator's job.
 */
export function strictConforms(schema: JsonSchema, value: unknown, path = ''): string[] {
  if (Array.isArray(schema['anyOf'])) {
    const fits = schema['anyOf'].some((member) => isJsonObject(member) && strictConforms(member, value, path).length === 0);
    return fits ? [] : [`${path || '(root)'}: matches no anyOf member`];
  }
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(value)) return [`${path || '(root)'}: not in enum`];
  if ('const' in schema && schema['const'] !== value) return [`${path || '(root)'}: not the const`];
  const type = schema['type'];
  const actual = typeOf(value);
  if (type !== undefined && type !== actual && !(type === 'number' && actual === 'integer')) {
    return [`${path || '(root)'}: ${actual}, expected ${String(type)}`];
  }
  if (type === 'array' && Array.isArray(value) && isJsonObject(schema['items'])) {
    const items = schema['items'];
    return value.flatMap((item, i) => strictConforms(items, item, `${path}[${i}]`));
  }
  if (type !== 'object' || !isJsonObject(value)) return [];
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  const out: string[] = [];
  for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) out.push(`${path}.${key}: not allowed`);
  for (const [name, sub] of Object.entries(properties)) {
    if (!Object.hasOwn(value, name)) out.push(`${path}.${name}: missing`);
    else if (isJsonObject(sub)) out.push(...strictConforms(sub, value[name], `${path}.${name}`));
  }
  return out;
}
