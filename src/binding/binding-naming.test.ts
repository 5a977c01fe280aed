import { expect, test } from 'bun:test';
import { createTaskContract } from '../../fixtures/contracts/index.ts';
import { bind, modelToolName, qualifiedName, TOOL_NAME_RULE, type BindOptions, type ServerIdentity } from './index.ts';

const server: ServerIdentity = {
  key: 'notes',
  name: 'notes-server',
  version: '1.0.0',
  protocolVersion: '2025-06-18',
  endpoint: { kind: 'stdio', argv: ['/usr/bin/notes'], cwd: '(fresh)', envNames: ['PATH'] },
  instanceId: 'instance-1',
};
const mcp: BindOptions = { implementation: { kind: 'mcp', version: '1.0.0' }, server };

test('without naming or hints the body has neither key: binding ids stay what they were', () => {
  const binding = bind(createTaskContract, mcp);
  expect(Object.hasOwn(binding, 'naming')).toBe(false);
  expect(Object.hasOwn(binding.contract, 'hints')).toBe(false);
  // The golden run dirs (test/golden) hold the ids themselves; here, the body's keys are the ones a binding had before.
  expect(Object.keys(binding).sort()).toEqual(['contract', 'conversion', 'gaps', 'id', 'implementation', 'model', 'server', 'tool']);
  expect(binding.tool).toBe(createTaskContract.name);
});

test('naming: the binding records the full name and the rule, and its tool is the model name derived from the full one', () => {
  const full = qualifiedName('notes', 'create.task');
  const binding = bind(createTaskContract, { ...mcp, naming: { full, rule: TOOL_NAME_RULE } });
  expect(binding.naming).toEqual({ full, rule: TOOL_NAME_RULE });
  expect(binding.tool).toBe(modelToolName(full));
  expect(binding.tool).not.toBe(full);
  // A kept name is its own model name; both are in the id.
  const kept = bind(createTaskContract, { ...mcp, naming: { full: 'mcp__notes__create_task', rule: TOOL_NAME_RULE } });
  expect(kept.tool).toBe('mcp__notes__create_task');
  expect(kept.id).not.toBe(bind(createTaskContract, { ...mcp, tool: 'mcp__notes__create_task' }).id);
  expect(kept.id).not.toBe(binding.id);
});

test('naming with another rule, or a tool that is not its model name, is a programmer error', () => {
  const full = 'mcp__notes__create.task';
  expect(() => bind(createTaskContract, { ...mcp, naming: { full, rule: 'caplab.tool-name/0' } })).toThrow('naming rule caplab.tool-name/0 is not caplab.tool-name/1');
  expect(() => bind(createTaskContract, { ...mcp, tool: 'create.task', naming: { full, rule: TOOL_NAME_RULE } })).toThrow(`tool create.task is not ${modelToolName(full)}`);
  expect(bind(createTaskContract, { ...mcp, tool: modelToolName(full), naming: { full, rule: TOOL_NAME_RULE } }).tool).toBe(modelToolName(full));
});

test('hints: a contract\'s annotations are copied into the bound contract as given, frozen, and are part of the id', () => {
  const hints = { readOnlyHint: true, title: 'Create', nested: { x: [1] } };
  const contract = { ...createTaskContract, hints };
  const binding = bind(contract, mcp);
  expect(binding.contract.hints).toEqual(hints);
  expect(binding.contract.attributes.readOnly).toBe(createTaskContract.readOnly);
  expect(Object.isFrozen(binding.contract.hints)).toBe(true);
  hints.nested.x.push(2);
  expect(binding.contract.hints).toEqual({ readOnlyHint: true, title: 'Create', nested: { x: [1] } });
  expect(binding.id).not.toBe(bind(createTaskContract, mcp).id);
});
