import { expect, test } from 'bun:test';
import { comparePins, shortDiff } from './pin-compare.ts';
import { pinEntry, type ServerWire } from './pin-hash.ts';

const SERVER: ServerWire = { serverInfo: { name: 's', version: '1' }, protocolVersion: '2025-06-18', capabilities: { tools: {} } };
const tool = (name: string, description = 'Same.', extra: Record<string, unknown> = {}) => ({ name, description, inputSchema: { type: 'object' }, ...extra });
const pins = (tools: unknown[], server: ServerWire = SERVER) => pinEntry(server, tools).entry;
const kinds = (found: readonly { kind: string; tool?: unknown }[]) => found.map((f) => `${f.kind}:${String(f.tool)}`);

test('two removed and two added tools alike are no rename: they stay removed and added; one of each is', () => {
  const before = pins([tool('a'), tool('b')]);
  expect(kinds(comparePins(before, pins([tool('c'), tool('d')]), true))).toEqual(['tool_added:c', 'tool_added:d', 'tool_removed:a', 'tool_removed:b']);
  expect(kinds(comparePins(before, pins([tool('b'), tool('c')]), true))).toEqual(['tool_renamed:c']);
});

test('a rename that also changes the title is renamed and changed; outputSchema alone is meta', () => {
  const before = pins([tool('a', 'Same.', { title: 'A' })]);
  const found = comparePins(before, pins([tool('z', 'Same.', { title: 'Z' })]), true);
  expect(found.map((f) => [f.kind, f.tool, f.field])).toEqual([['tool_renamed', 'z', '/name'], ['tool_changed', 'z', '/title']]);
  const meta = comparePins(pins([tool('a')]), pins([tool('a', 'Same.', { outputSchema: { type: 'object' } })]), true);
  expect(meta.map((f) => [f.kind, f.field])).toEqual([['tool_meta_changed', '/outputSchema']]);
  // A description inside the outputSchema is meaning, not meta.
  const nested = comparePins(pins([tool('a', 'Same.', { outputSchema: { type: 'object', description: 'x' } })]), pins([tool('a', 'Same.', { outputSchema: { type: 'object', description: 'y' } })]), true);
  expect(nested.map((f) => [f.kind, f.field])).toEqual([['tool_changed', '/outputSchema/description']]);
});

test('an incomplete listing never says removed; the server: name is server_changed (version named too), version alone a note', () => {
  expect(comparePins(pins([tool('a'), tool('b')]), pins([tool('a')]), false)).toEqual([]);
  const renamed = comparePins(pins([]), pins([], { ...SERVER, serverInfo: { name: 't', version: '2' } }), true);
  expect(renamed.map((f) => [f.kind, f.field])).toEqual([['server_changed', '/serverInfo/name,/serverInfo/version']]);
  const bumped = comparePins(pins([]), pins([], { ...SERVER, serverInfo: { name: 's', version: '2' } }), true);
  expect(bumped.map((f) => [f.kind, f.field])).toEqual([['server_version_changed', '/serverInfo/version']]);
  expect(comparePins(undefined, pins([tool('a')]), true).map((f) => f.kind)).toEqual(['server_unpinned']);
});

test('a tool holding 1e400 (Infinity) is left out of the pins, named, and not compared', () => {
  const { entry, unpinnable } = pinEntry(SERVER, [tool('a'), tool('inf', 'Same.', { inputSchema: { type: 'object', maximum: Infinity } })]);
  expect([Object.keys(entry.tools), unpinnable]).toEqual([['a'], ['inf']]);
  expect(comparePins(pins([tool('a'), tool('inf')]), entry, true, unpinnable)).toEqual([]);
});

test('shortDiff: context, then where the texts part', () => {
  expect(shortDiff('abcdef', 'abXdef')).toBe('"ab[c → X]def"');
  expect(shortDiff(undefined, 'x')).toBe('[absent → "x"]');
});
