import type { JsonSchema } from '../contract/index.ts';
import { isJsonObject } from './missing.ts';

/**
 * Size limits OpenAI documents for strict structured outputs ("Supported
 * schemas"): at most 10 levels of object nesting, 5,000 object properties in
 * total and 1,000 enum values in total. A schema over a limit is rejected by
 * the provider, so the tool is refused here, before any request is built.
 */
export const STRICT_LIMITS = { depth: 10, properties: 5000, enumValues: 1000 } as const;

interface Tally {
  properties: number;
  enumValues: number;
}

function walk(node: unknown, depth: number, path: string, tally: Tally): { path: string; reason: string } | undefined {
  if (!isJsonObject(node)) return undefined;
  if (Array.isArray(node['enum'])) tally.enumValues += node['enum'].length;
  if (Array.isArray(node['anyOf'])) {
    for (const member of node['anyOf']) {
      const found = walk(member, depth, path, tally);
      if (found) return found;
    }
  }
  if (node['type'] === 'array') return walk(node['items'], depth, `${path}[]`, tally);
  if (node['type'] !== 'object') return undefined;
  if (depth + 1 > STRICT_LIMITS.depth) {
    return { path, reason: `object nesting ${depth + 1} exceeds the strict limit of ${STRICT_LIMITS.depth} (each optional field adds an envelope level)` };
  }
  const properties = isJsonObject(node['properties']) ? node['properties'] : {};
  for (const [name, sub] of Object.entries(properties)) {
    tally.properties++;
    const found = walk(sub, depth + 1, path === '' ? name : `${path}.${name}`, tally);
    if (found) return found;
  }
  return undefined;
}

/**
 * Checks a generated strict schema against the documented size limits.
 *
 * @param schema A strict model-facing schema.
 * @returns The first violated limit with the path where it was reached, if any.
 */
export function checkStrictLimits(schema: JsonSchema): { path: string; reason: string } | undefined {
  const tally: Tally = { properties: 0, enumValues: 0 };
  const found = walk(schema, 0, '', tally);
  if (found) return found;
  if (tally.properties > STRICT_LIMITS.properties) {
    return { path: '', reason: `${tally.properties} object properties exceed the strict limit of ${STRICT_LIMITS.properties}` };
  }
  if (tally.enumValues > STRICT_LIMITS.enumValues) {
    return { path: '', reason: `${tally.enumValues} enum values exceed the strict limit of ${STRICT_LIMITS.enumValues}` };
  }
  return undefined;
}
