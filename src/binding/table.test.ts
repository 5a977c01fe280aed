import { expect, test } from 'bun:test';
import { readSourceContract } from '../excerpt/contracts.ts';
import { createTaskContract, setPropertiesContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { bind, bindTable, describeTools, freezeTable, renderToolsText, strictViolations, type ServerEndpoint, type ToolEntry } from './index.ts';

const implementation = { kind: 'local', version: '1' } as const;
const entries: ToolEntry[] = [updateNoteContract, setPropertiesContract, createTaskContract].map((contract) => ({ contract, implementation }));

test('bindTable binds what the target carries, keeps refusals with reasons, in host order, frozen', () => {
  const table = bindTable(entries, 'strict');
  expect(table.tools).toEqual(['update_note', 'set_properties', 'create_task']);
  expect(Object.keys(table.bindings)).toEqual(['update_note', 'create_task']);
  expect(table.refused['set_properties']).toMatchObject({ kind: 'unrepresentable', issues: ['properties', expect.stringContaining('open key set')] });
  expect(Object.isFrozen(table) && Object.isFrozen(table.bindings) && Object.isFrozen(table.refused)).toBe(true);
  expect(bindTable(entries, 'strict').id).toBe(table.id);
  expect(bindTable(entries, 'plain').id).not.toBe(table.id);
  expect(bindTable(entries.slice(0, 2), 'strict').id).not.toBe(table.id);
});

test('freezeTable refuses duplicate names and bindings for another target', () => {
  const a = bind(readSourceContract, { implementation });
  expect(() => freezeTable('plain', [a, a])).toThrow(TypeError);
  expect(() => freezeTable('strict', [a])).toThrow(TypeError);
  expect(freezeTable('plain', [a]).bindings['read_source']).toBe(a);
});

test('describeTools: JSON-ready data whose strict schemas follow the strict rules, and the refusal with its field', () => {
  const described = describeTools(bindTable(entries, 'strict'));
  expect(JSON.parse(JSON.stringify(described))).toEqual(described);
  expect(described.target).toBe('strict');
  for (const tool of described.tools) {
    if (tool.status === 'bound') {
      expect(strictViolations(tool.model.schema)).toEqual([]);
      expect(tool.contract.schemaHash).toMatch(/^[0-9a-f]{64}$/);
      expect(tool.conversion.arguments).toBe('strict/1');
      expect(tool.bindingId).toMatch(/^[0-9a-f]{64}$/);
    }
  }
  const refused = described.tools.find((tool) => tool.tool === 'set_properties');
  expect(refused).toMatchObject({ status: 'refused', class: 'precondition', kind: 'unrepresentable', issues: ['properties', expect.any(String)] });
});

test('renderToolsText names every tool, its binding and versions, and why a tool is not exposed', () => {
  const table = bindTable(entries, 'strict');
  const text = renderToolsText(describeTools(table));
  expect(text).toContain(`✓ update_note  binding ${table.bindings['update_note']!.id.slice(0, 16)}`);
  expect(text).toContain('arguments strict/1  results plain/1');
  expect(text).toContain('fills       priority');
  expect(text).toContain('✗ set_properties  not exposed to strict (precondition/unrepresentable)');
  expect(text).toContain('properties: open key set');
  const plain = renderToolsText(describeTools(bindTable(entries, 'plain')));
  expect(plain).toContain('✓ set_properties');
  expect(plain).not.toContain('✗');
});

test('renderToolsText names a server\'s launch over stdio, its URL and header names over HTTP (never a header value)', () => {
  const identity = { key: 's', name: 's', version: '1', protocolVersion: '2025-06-18', instanceId: 'i' };
  const over = (endpoint: ServerEndpoint): string =>
    renderToolsText(describeTools(bindTable([{ contract: updateNoteContract, implementation: { kind: 'mcp', version: '1' }, server: { ...identity, endpoint } }], 'plain')));
  const stdio = over({ kind: 'stdio', argv: ['/bin/srv', '--ro'], cwd: '/w', envNames: ['PATH'] });
  expect(stdio).toContain('    launch      /bin/srv --ro  cwd /w  env names PATH');
  const http = over({ kind: 'http', url: 'https://mcp.example.test/mcp', headerNames: ['Authorization', 'X-Tenant'] });
  expect(http).toContain('    url         https://mcp.example.test/mcp  header names Authorization, X-Tenant');
  expect(http).not.toContain('launch');
  expect(over({ kind: 'http', url: 'http://127.0.0.1:9/mcp', headerNames: [] })).toContain('header names none');
});
