import { describe, expect, test } from 'bun:test';
import { mcpCompletion, mcpTaskCompletion } from '../contract/index.ts';
import { updateNoteContract } from '../../fixtures/contracts/index.ts';
import { tryBind } from './index.ts';

const implementation = { kind: 'local', version: '1' } as const;
const TASKS = { tasks: { cancel: {}, requests: { tools: { call: {} } } } };

describe('Contract.completion', () => {
  test('absent: synchronous; the bound contract has no completion member, so a synchronous binding id is what it always was', () => {
    const plain = tryBind(updateNoteContract, { implementation });
    const spelledOut = tryBind({ ...updateNoteContract }, { implementation });
    if (!plain.ok || !spelledOut.ok) throw new Error('bind failed');
    expect('completion' in plain.value.contract).toBe(false);
    expect(spelledOut.value.id).toBe(plain.value.id);
  });

  test('background: bound as declared (receipt, query with final statuses and version, cancel that proves nothing), under another id', () => {
    const completion = mcpTaskCompletion('required');
    const background = tryBind({ ...updateNoteContract, completion }, { implementation });
    const plain = tryBind(updateNoteContract, { implementation });
    if (!background.ok || !plain.ok) throw new Error('bind failed');
    expect(background.value.contract.completion).toEqual(completion);
    expect(background.value.id).not.toBe(plain.value.id);
    expect(completion.query.statuses.final).toEqual(['completed', 'failed', 'cancelled']);
    expect(completion.query.version).toBe('lastUpdatedAt');
    expect(completion.cancel.proves).toContain('does not prove');
  });

  test('an MCP tool is background only with taskSupport required/optional, at 2025-11-25, on a server declaring tasks.requests.tools.call', () => {
    expect(mcpCompletion('required', TASKS, '2025-11-25')).toMatchObject({ mode: 'background', support: 'required' });
    expect(mcpCompletion('optional', TASKS, '2025-11-25')).toMatchObject({ mode: 'background', support: 'optional' });
    expect(mcpCompletion('forbidden', TASKS, '2025-11-25')).toBeUndefined();
    expect(mcpCompletion(undefined, TASKS, '2025-11-25')).toBeUndefined();
    expect(mcpCompletion('required', { tasks: { cancel: {} } }, '2025-11-25')).toBeUndefined();
    expect(mcpCompletion('required', TASKS, '2025-06-18')).toBeUndefined();
  });
});
