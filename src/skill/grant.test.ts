import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { callableTools, diskReader, parsePackage } from './index.ts';
import { STAGES } from '../excerpt/stages.ts';

const BOUND = ['read_source', 'create_card'];

test('allowed-tools naming a denied tool does not make it callable', () => {
  const pkg = { allowedTools: ['read_source', 'create_card'] };
  const deny = new Set(['create_card']);
  const result = callableTools(BOUND, (tool) => !deny.has(tool), pkg);
  expect(result.callable).toEqual(['read_source']);
  expect(result.notGranted).toEqual(['create_card']);
});

test('allowed-tools naming an unbound tool does not make it callable', () => {
  const result = callableTools(BOUND, () => true, { allowedTools: ['Bash', 'create_card'] });
  expect(result.callable).toEqual(BOUND);
  expect(result.notGranted).toEqual(['Bash']);
});

test('the callable set is the same with and without a package, for every permission outcome', () => {
  const pkg = { allowedTools: ['read_source', 'create_card', 'Bash', 'mcp__fixture__read_source'] };
  const names = [...BOUND, 'mcp__fixture__read_source'];
  // Every subset of allowed tools as the permission decision.
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const permits = (tool: string) => ((mask >> names.indexOf(tool)) & 1) === 1;
    const withPkg = callableTools(names, permits, pkg).callable;
    expect(withPkg).toEqual(callableTools(names, permits).callable);
    expect(withPkg.every((tool) => names.includes(tool) && permits(tool))).toBe(true);
  }
});

test('a parsed package’s allowed-tools flows into the check unchanged', () => {
  const folder = join(import.meta.dir, '../../fixtures/skills/valid-minimal');
  const parsed = parsePackage('valid-minimal', { kind: 'dir', path: folder }, diskReader(folder), STAGES);
  if (!parsed.ok) throw new Error(parsed.message);
  expect(parsed.value.allowedTools).toEqual(['read_source']);
  expect(callableTools(BOUND, (tool) => tool === 'create_card', parsed.value)).toEqual({ callable: ['create_card'], notGranted: ['read_source'] });
});
