import { expect, test } from 'bun:test';
import { generatedPool, seeded, shuffled, toolPool } from './tool-pool.ts';

type Property = { readonly type?: unknown; readonly description?: unknown; readonly properties?: Record<string, Property>; readonly items?: Property };

/** Every property of a schema, nested ones (`properties`, `items`) included. */
function propertiesOf(schema: Property): Property[] {
  const own = Object.values(schema.properties ?? {});
  return [...own, ...own.flatMap((property) => [...propertiesOf(property), ...(property.items ? propertiesOf(property.items) : [])])];
}

test('toolPool is 50 distinct tools shaped like a server listing: a description, 1–6 typed and described arguments, some nested', () => {
  const pool = toolPool();
  expect(pool.length).toBe(50);
  expect(new Set(pool.map((tool) => tool.name)).size).toBe(50);
  for (const tool of pool) {
    expect(tool.name).toMatch(/^[a-z][a-z_]{1,63}$/);
    expect(tool.description.length).toBeGreaterThan(20);
    expect(tool.input_schema['type']).toBe('object');
    const top = Object.keys((tool.input_schema as Property).properties ?? {}).length;
    expect({ name: tool.name, arguments: top >= 1 && top <= 6 }).toEqual({ name: tool.name, arguments: true });
    for (const property of propertiesOf(tool.input_schema as Property)) {
      expect(typeof property.type).toBe('string');
      expect(typeof property.description).toBe('string');
    }
  }
  const nested = pool.filter((tool) => Object.values((tool.input_schema as Property).properties ?? {}).some((p) => p.properties !== undefined || p.items?.properties !== undefined));
  expect(nested.map((tool) => tool.name)).toEqual(['create_review', 'push_files', 'run_workflow', 'create_gist']);
});

/** UTF-8 bytes of `JSON.stringify(toolPool())`. */
const POOL_BYTES = 29_626;

test('toolPool is fixed text: the same bytes on every call, and a fresh copy each time', () => {
  const first = toolPool();
  expect(JSON.stringify(toolPool())).toBe(JSON.stringify(first));
  (first[0]!.input_schema as { type: string }).type = 'changed';
  expect(toolPool()[0]!.input_schema['type']).toBe('object');
  // Pinned: an edit to the pool's text shows here as well as in the rankings it moves.
  expect(new TextEncoder().encode(JSON.stringify(toolPool())).byteLength).toBe(POOL_BYTES);
});

test('generatedPool(n) is n tools with distinct names, the same for the same n and seed, different for another seed', () => {
  const pool = generatedPool(10_000);
  expect(pool.length).toBe(10_000);
  expect(new Set(pool.map((tool) => tool.name)).size).toBe(10_000);
  expect(JSON.stringify(generatedPool(10_000))).toBe(JSON.stringify(pool));
  expect(JSON.stringify(generatedPool(100))).toBe(JSON.stringify(pool.slice(0, 100)));
  expect(JSON.stringify(generatedPool(100, 26))).not.toBe(JSON.stringify(pool.slice(0, 100)));
  for (const tool of pool.slice(0, 200)) {
    const count = Object.keys((tool.input_schema as Property).properties ?? {}).length;
    expect(count >= 1 && count <= 6).toBe(true);
    for (const property of propertiesOf(tool.input_schema as Property)) expect(typeof property.description).toBe('string');
  }
});

test('seeded and shuffled are deterministic; a shuffle is a permutation that depends on its seed', () => {
  const a = seeded(7);
  const b = seeded(7);
  const draws = Array.from({ length: 100 }, () => a());
  expect(Array.from({ length: 100 }, () => b())).toEqual(draws);
  expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
  const items = Array.from({ length: 50 }, (_, i) => i);
  const once = shuffled(items, 3);
  expect(shuffled(items, 3)).toEqual(once);
  expect([...once].sort((x, y) => x - y)).toEqual(items);
  expect(once).not.toEqual(items);
  expect(shuffled(items, 4)).not.toEqual(once);
});
