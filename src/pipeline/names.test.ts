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

test('a configured server\'s tool answers to its model name and its full name; a hook sees the full name', () => {
  const server = { key: 'notes' };
  const dotted = { binding: { tool: 'mcp__notes__read_file_0123abcd', server, naming: { full: 'mcp__notes__read.file' } }, contract: { name: 'read.file' } };
  expect(toolNames(dotted)).toEqual(['mcp__notes__read_file_0123abcd', 'mcp__notes__read.file']);
  expect(hookToolName(dotted)).toBe('mcp__notes__read.file');
  // A kept name is both: listed once.
  const kept = { binding: { tool: 'mcp__notes__echo', server, naming: { full: 'mcp__notes__echo' } }, contract: { name: 'echo' } };
  expect(toolNames(kept)).toEqual(['mcp__notes__echo']);
  expect(hookToolName(kept)).toBe('mcp__notes__echo');
  // The recorded full name wins over one composed from key and contract name.
  const recorded = { binding: { tool: 'x', server, naming: { full: 'mcp__other__y' } }, contract: { name: 'z' } };
  expect([toolNames(recorded), hookToolName(recorded)]).toEqual([['x', 'mcp__other__y'], 'mcp__other__y']);
});
