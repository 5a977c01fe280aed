import * as v from 'valibot';
import { fail, isSchemaValidator, type Contract, type Failure, type JsonSchema } from '../contract/index.ts';
import { isJsonObject, readField, setOwn, MISSING } from './missing.ts';

/** Keywords whose value is one subschema, a list of them, or a name → subschema map. */
const ONE = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/**
 * Finds a `default` keyword anywhere in a schema (not a property that happens
 * to be named "default"). valibot exports `optional(x, d)` / `nullable(x, d)`
 * as `default`, and its validation then fills `d` silently — the unrecorded
 * filling the contract forbids. Such a contract is refused on every target.
 *
 * @returns The path of the first default, if any.
 */
export function findSchemaDefault(schema: unknown, path = ''): string | undefined {
  if (!isJsonObject(schema)) return undefined;
  if (Object.hasOwn(schema, 'default')) return path === '' ? '(root)' : path;
  const children: [string, unknown][] = [];
  for (const key of ONE) if (Object.hasOwn(schema, key)) children.push([`${path}/${key}`, schema[key]]);
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((item, i) => children.push([`${path}/${key}/${i}`, item]));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isJsonObject(map)) for (const [name, sub] of Object.entries(map)) children.push([`${path}/${key}/${name}`, sub]);
  }
  for (const [where, sub] of children) {
    const found = findSchemaDefault(sub, where);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether validating a contract's input can fill a schema `default` silently:
 * valibot's can (`optional(x, d)`), so such a contract is refused
 * (`silent_default`); a `SchemaValidator`'s never fills, so its defaults are
 * annotations and the contract binds with them.
 */
export function fillsSilently(contract: Contract): boolean {
  return !isSchemaValidator(contract.input);
}

/**
 * Checks a contract's `fills`: each must name an optional top-level field and
 * be a valid value for it, or the program would fill something the contract
 * itself rejects. A `SchemaValidator` input takes none: a listed tool's
 * arguments reach it as the model sent them.
 *
 * @returns A `precondition`/`invalid_fills` failure, or undefined.
 */
export function checkFills(contract: Contract, schema: JsonSchema): Failure | undefined {
  const fills = contract.fills ?? {};
  const names = Object.keys(fills);
  if (isSchemaValidator(contract.input) && names.length > 0) {
    const reason = 'a contract whose input is JSON Schema with its own validator fills nothing';
    return fail('precondition', 'invalid_fills', `${contract.name}: fills.${names[0]}: ${reason}`, [names[0]!, reason]);
  }
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  const entries = 'entries' in contract.input && isJsonObject(contract.input.entries) ? contract.input.entries : {};
  for (const [name, value] of Object.entries(fills)) {
    const entry = entries[name] as v.GenericSchema | undefined;
    const reason = !Object.hasOwn(properties, name)
      ? 'is not a field of the input'
      : required.includes(name)
        ? 'is required, so it is never missing'
        : entry === undefined || !v.safeParse(entry, value).success || value === undefined
          ? `fill ${JSON.stringify(value)} is not a valid value of the field`
          : undefined;
    if (reason !== undefined) return fail('precondition', 'invalid_fills', `${contract.name}: fills.${name} ${reason}`, [name, reason]);
  }
  return undefined;
}

/**
 * Fills missing top-level fields from the contract's `fills` — only those.
 *
 * @returns The actual arguments (a new object) and the names filled, in fills order.
 */
export function applyFills(
  fills: Readonly<Record<string, unknown>>,
  args: unknown,
): { readonly args: unknown; readonly filled: readonly string[] } {
  if (!isJsonObject(args)) return { args, filled: [] };
  const actual: Record<string, unknown> = {};
  for (const key of Object.keys(args)) setOwn(actual, key, args[key]);
  const filled: string[] = [];
  for (const [name, value] of Object.entries(fills)) {
    if (readField(args, name) !== MISSING) continue;
    setOwn(actual, name, structuredClone(value));
    filled.push(name);
  }
  return { args: actual, filled };
}
