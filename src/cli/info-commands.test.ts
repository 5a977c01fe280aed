import { expect, test } from 'bun:test';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

/** Visits every object node of a JSON Schema (properties, items, anyOf, $defs …). */
function objectNodes(node: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(node)) node.forEach((n) => objectNodes(n, out));
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(record['type'] ?? []);
    if (types.includes('object')) out.push(record);
    Object.values(record).forEach((v) => objectNodes(v, out));
  }
  return out;
}

test('tools --model strict --json: every object node follows the strict rules; the unrepresentable example is refused', async () => {
  const io = testIo('/');
  expect(await cli(['tools', '--model', 'strict', '--json'], io)).toBe(0);
  const doc = JSON.parse(io.out());
  const exposed = doc.tools.filter((t: any) => t.status !== 'refused');
  expect(exposed.map((t: any) => t.tool)).toEqual(expect.arrayContaining(['read_source', 'create_card', 'update_note']));
  let nodes = 0;
  for (const tool of exposed) {
    for (const node of objectNodes(tool.model.schema)) {
      nodes++;
      const properties = Object.keys((node['properties'] as object | undefined) ?? {});
      expect(node['additionalProperties']).toBe(false);
      expect([...((node['required'] as string[] | undefined) ?? [])].sort()).toEqual(properties.sort());
    }
  }
  expect(nodes).toBeGreaterThan(5);
  const refused = doc.tools.find((t: any) => t.status === 'refused');
  expect([refused.tool, refused.kind]).toEqual(['set_properties', 'unrepresentable']);
  expect(JSON.stringify(refused)).toContain('properties');
});

test('tools, skills: usage errors exit 2', async () => {
  const io = testIo('/');
  expect(await cli(['tools', '--model', 'gpt'], io)).toBe(2);
  expect(await cli(['skills', '--skills'], io)).toBe(2);
});

test('skills --json lists excerpt-card as bound; it grants nothing', async () => {
  const io = testIo('/');
  expect(await cli(['skills', '--json'], io)).toBe(0);
  const text = io.out();
  expect(text).toContain('excerpt-card');
});
