import { expect, test } from 'bun:test';
import { hookToolName, toolNames } from './names.ts';

test('a local tool answers to its model-visible name only', () => {
  expect(toolNames({ binding: { tool: 'read_source' }, contract: { name: 'read_source' } })).toEqual(['read_source']);
});

test('an MCP tool answers to its bare name and to mcp__<key>__<contract name>', () => {
  const tool = { binding: { tool: 'read_source', server: { key: 'caplab-fixture' } }, contract: { name: 'read_source' } };
  expect(toolNames(tool)).toEqual(['read_source', 'mcp__caplab-fixture__read_source']);
});

test('an MCP tool already shown under its qualified name is not listed twice', () => {
  const tool = { binding: { tool: 'mcp__s__create_card', server: { key: 's' } }, contract: { name: 'create_card' } };
  expect(toolNames(tool)).toEqual(['mcp__s__create_card']);
});

test("a hook's tool_name is the bare name of a local tool and mcp__<key>__<contract name> of an MCP tool, however it is shown", () => {
  expect(hookToolName({ binding: { tool: 'read_source' }, contract: { name: 'read_source' } })).toBe('read_source');
  expect(hookToolName({ binding: { tool: 'read_source', server: { key: 'caplab-fixture' } }, contract: { name: 'read_source' } })).toBe('mcp__caplab-fixture__read_source');
  expect(hookToolName({ binding: { tool: 'mcp__s__create_card', server: { key: 's' } }, contract: { name: 'create_card' } })).toBe('mcp__s__create_card');
});

test("a server is named by its key, the host's name for it, never by the serverInfo.name it reports", () => {
  const server = { key: 'notes', name: 'acme-notes-server', version: '2.0.0', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['notes'], cwd: '/', envNames: [] }, instanceId: 'i' } as const;
  const tool = { binding: { tool: 'update_note', server }, contract: { name: 'update_note' } };
  expect(toolNames(tool)).toEqual(['update_note', 'mcp__notes__update_note']);
  expect(hookToolName(tool)).toBe('mcp__notes__update_note');
});
