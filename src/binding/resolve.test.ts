import { expect, test } from 'bun:test';
import * as v from 'valibot';
import type { Contract } from '../contract/index.ts';
import { readSourceContract } from '../excerpt/contracts.ts';
import { updateNoteContract } from '../../fixtures/contracts/index.ts';
import { bindTable, convertArguments, resolvePinned, type Binding, type ServerIdentity, type ToolTable } from './index.ts';

const server: ServerIdentity = { key: 'fixture', name: 'fixture', version: '0.1.0', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['caplab', 'serve'], cwd: '/', envNames: [] }, instanceId: 'a' };
const mcp = { kind: 'mcp', version: '0.1.0' } as const;

/** The registry as the host sees it before and after the server restarts with a changed schema. */
function registry(contract: Contract, instanceId: string): ToolTable {
  return bindTable(
    [
      { contract, implementation: mcp, server: { ...server, instanceId }, tool: 'mcp__fixture__update_note' },
      { contract: readSourceContract, implementation: { kind: 'local', version: '1' } },
    ],
    'strict',
  );
}

// After the restart `note` can no longer be cleared: the same envelope now means something the old request never saw.
const changed = {
  ...updateNoteContract,
  input: v.strictObject({ ...updateNoteContract.input.entries, note: v.optional(v.string()) }),
};

test('a call produced under the old binding is refused with binding_changed after the schema changed', () => {
  const before = registry(updateNoteContract, 'a');
  const request1 = { bindings: before.bindings }; // what request 1 recorded in its intent
  const after = registry(changed, 'b');
  const request2 = { bindings: after.bindings };

  const executed: string[] = [];
  /** The pipeline's first two stages: resolve under the producing request, then convert. */
  function interpret(pinned: Readonly<Record<string, Binding>>, name: string, args: unknown) {
    const binding = resolvePinned(pinned, after.bindings, name);
    if (!binding.ok) return binding;
    const converted = convertArguments(binding.value, args);
    if (converted.ok) executed.push(binding.value.contract.schemaHash);
    return converted;
  }

  const keep = { op: 'keep', value: null };
  const oldCall = { id: 'n1', title: keep, note: { op: 'clear', value: null }, tags: keep, priority: keep, meta: keep };
  const refused = interpret(request1.bindings, 'mcp__fixture__update_note', oldCall);
  expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'binding_changed' });
  if (!refused.ok) expect(refused.issues).toEqual([before.bindings['mcp__fixture__update_note']!.id, after.bindings['mcp__fixture__update_note']!.id]);
  expect(executed).toEqual([]); // never converted, let alone executed, under the new schema

  // An unchanged tool from the old request still resolves, to the pinned object itself.
  const read = resolvePinned(request1.bindings, after.bindings, 'read_source');
  if (!read.ok) throw new Error(read.message);
  expect(read.value).toBe(before.bindings['read_source']!);

  // The next request was shown the new schema; its calls run under it.
  const newCall = { ...oldCall, note: { op: 'set', value: '' } };
  expect(interpret(request2.bindings, 'mcp__fixture__update_note', newCall).ok).toBe(true);
  expect(executed).toEqual([after.bindings['mcp__fixture__update_note']!.contract.schemaHash]);
});

test('a server restart alone (same schema, new instance) is a binding change too', () => {
  const before = registry(updateNoteContract, 'a');
  const after = registry(updateNoteContract, 'b');
  expect(resolvePinned(before.bindings, after.bindings, 'mcp__fixture__update_note')).toMatchObject({ ok: false, kind: 'binding_changed' });
});

test('a tool the request never showed is unknown_tool; one since removed is binding_changed', () => {
  const table = registry(updateNoteContract, 'a');
  for (const name of ['create_card', 'constructor', '__proto__', 'toString']) {
    expect(resolvePinned(table.bindings, table.bindings, name)).toMatchObject({ ok: false, class: 'invalid_arguments', kind: 'unknown_tool' });
  }
  const removed = bindTable([{ contract: readSourceContract, implementation: { kind: 'local', version: '1' } }], 'strict');
  expect(resolvePinned(table.bindings, removed.bindings, 'mcp__fixture__update_note')).toMatchObject({ ok: false, class: 'precondition', kind: 'binding_changed' });
});
