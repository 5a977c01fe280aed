import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { excerptTask } from '../excerpt/index.ts';
import { fixedClock, verify } from '../ledger/index.ts';
import type { CallRecord } from '../pipeline/index.ts';
import { ambiguousCallIds } from './call-ids.ts';
import { recheckAcceptance } from './recheck.ts';
import { runTask } from './run.ts';
import { parseScenario, scriptedModel } from './scenario.ts';
import { replacingTool } from './testing/replace-tool.ts';

const scratch = mkdtempSync(join(tmpdir(), 'caplab-call-ids-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const create = {
  name: 'create_card',
  arguments: {
    excerpts: [
      { source_id: 'alpha', quote: 'A claim that cannot be checked against the casks is only a story.' },
      { source_id: 'beta', quote: '记下发生了什么，而不是希望发生了什么。' },
    ],
  },
};
const usage = { input_tokens: 1, output_tokens: 1 };
const read = (id: string, source: string) => ({ id, name: 'read_source', arguments: { source_id: source } });

test('ids given twice in a response, or reused from an earlier one, are ambiguous; the rest are not', () => {
  const calls = [read('a', 'alpha'), read('b', 'beta'), read('b', 'alpha'), read('c', 'beta')];
  expect([...ambiguousCallIds(calls, new Set(['c']))].sort()).toEqual(['b', 'c']);
  expect(ambiguousCallIds([read('a', 'alpha')], new Set()).size).toBe(0);
});

test('duplicate tool_call ids: every call sharing the id is refused (invalid_arguments/duplicate_call_id) with no side effect; a create never runs twice', async () => {
  const scenario = parseScenario(
    JSON.stringify({
      name: 'duplicate-ids',
      description: 'tool_call ids that cannot identify their calls',
      expect: { accepted: false, failure: { class: 'invalid_arguments', kind: 'duplicate_call_id' }, card: false },
      responses: [
        { tool_calls: [read('toolu_01', 'alpha'), read('toolu_02', 'beta'), read('toolu_02', 'alpha')], usage },
        { tool_calls: [read('toolu_03', 'beta')], usage },
        { tool_calls: [{ id: 'toolu_04', ...create }, { id: 'toolu_04', ...create }], usage },
        { tool_calls: [{ id: 'toolu_01', ...create }], usage },
        { text: 'done', usage },
      ],
    }),
    'duplicate-ids',
  );
  if (!scenario.ok) throw new Error(scenario.message);
  let creates = 0;
  const task = replacingTool('create_card', (t) => ({ ...t, handler: (...args: Parameters<typeof t.handler>) => (creates++, t.handler(...args)) }));
  const outcome = await runTask({
    task,
    model: scriptedModel(scenario.value),
    runId: 'dup',
    runDir: join(scratch, 'dup'),
    clock: fixedClock(0),
    cwd: scratch,
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'policy', reason: 'test' }),
    convert: (_, args) => ({ ok: true, value: { converted: args, filled: [] } }),
  });
  if (!outcome.ok) throw new Error(outcome.message);
  const summary = (c: CallRecord) => [c.toolCallId, c.name, c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`, c.handlerEntered];
  expect(outcome.value.loop.calls.map(summary)).toEqual([
    ['toolu_01', 'read_source', 'ok', true],
    ['toolu_02', 'read_source', 'invalid_arguments/duplicate_call_id', false],
    ['toolu_02', 'read_source', 'invalid_arguments/duplicate_call_id', false],
    ['toolu_03', 'read_source', 'ok', true],
    ['toolu_04', 'create_card', 'invalid_arguments/duplicate_call_id', false],
    ['toolu_04', 'create_card', 'invalid_arguments/duplicate_call_id', false],
    ['toolu_01', 'create_card', 'invalid_arguments/duplicate_call_id', false],
  ]);
  expect(creates).toBe(0);
  expect(outcome.value.loop.accepted).toBe(false);
  expect(outcome.value.loop.artifact).toBeUndefined();
  // The ledger records each refusal as a call event, with the kind.
  const ledger = readFileSync(join(scratch, 'dup', 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  expect(ledger.filter((e) => e.type === 'call' && e.outcome.kind === 'duplicate_call_id')).toHaveLength(5);
  expect(verify(join(scratch, 'dup'), { recheck: recheckAcceptance(excerptTask), expectedHead: outcome.value.head }).ok).toBe(true);
});
