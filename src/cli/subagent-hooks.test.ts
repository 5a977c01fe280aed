import { expect, test } from 'bun:test';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const HOOK = join(import.meta.dir, '../../fixtures/hooks/subagent-log.sh');
const usage = { input_tokens: 1, output_tokens: 1 };

/** A scenario whose reader subagent reads alpha, answers, and (after the stop hook's block) answers again. */
const scenario = {
  name: 'hooked',
  description: 'hooks inside a subagent',
  expect: { accepted: false },
  agents: ['reader'],
  responses: [{ tool_calls: [{ id: 'toolu_p01', name: 'Agent', arguments: { description: 'read', prompt: 'Read alpha.', subagent_type: 'reader' } }], usage }, { text: 'done', usage }],
  subagents: { toolu_p01: { responses: [{ tool_calls: [{ id: 'toolu_s01', name: 'read_source', arguments: { source_id: 'alpha' } }], usage }, { text: 'first', usage }, { text: 'second', usage }] } },
};

function setup(hooks: Record<string, unknown>): string {
  const cwd = scratchDir('caplab-subagent-hooks-');
  copyFileSync(HOOK, join(cwd, 'log.sh'));
  writeFileSync(join(cwd, 'settings.json'), JSON.stringify({ hooks }));
  writeFileSync(join(cwd, 'hooked.json'), JSON.stringify(scenario));
  return cwd;
}

const group = (matcher: string) => [{ matcher, hooks: [{ type: 'command', command: 'sh ./log.sh' }] }];

test('command hooks read agent_id and agent_type on stdin: PreToolUse inside a subagent, SubagentStart, SubagentStop; a SubagentStop block runs the next scripted response', async () => {
  const cwd = setup({ PreToolUse: group('read_source'), SubagentStart: group('reader'), SubagentStop: group('reader') });
  const io = testIo(cwd, { PATH: process.env['PATH'] });
  const code = await cli(['run', '--scenario', 'hooked.json', '--transport', 'local', '--settings', 'settings.json', '--out', 'run', '--json'], io);
  expect(code).toBe(1);
  const inputs = readFileSync(join(cwd, 'hook-inputs.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
  expect(inputs.map((i) => [i.hook_event_name, i.agent_id, i.agent_type, i.stop_hook_active ?? null, i.last_assistant_message ?? null])).toEqual([
    ['SubagentStart', 'agent-act-01', 'reader', null, null],
    ['PreToolUse', 'agent-act-01', 'reader', null, null],
    ['SubagentStop', 'agent-act-01', 'reader', false, 'first'],
    ['SubagentStop', 'agent-act-01', 'reader', true, 'second'],
  ]);
  const doc = JSON.parse(io.out());
  const agent = doc.calls.find((c: { tool_call_id: string }) => c.tool_call_id === 'toolu_p01');
  expect([agent.result.ok, agent.subagent.agent_id, agent.subagent.requests, agent.subagent.calls.map((c: { tool_call_id: string }) => c.tool_call_id)]).toEqual([true, 'agent-act-01', 3, ['toolu_s01']]);
  // The stop hook's reason is the subagent's third request's last user message.
  const third = agent.subagent.request_log[2];
  expect(readFileSync(join(cwd, 'run', third.payload.path), 'utf8')).toContain('Answer once more.');
  const verified = await cli(['verify', join(cwd, 'run')], testIo(cwd));
  expect(verified).toBe(0);
});

test('a SubagentStart or SubagentStop matcher that names no subagent type of the run is exit 2', async () => {
  const cwd = setup({ SubagentStart: group('writer') });
  const io = testIo(cwd, { PATH: process.env['PATH'] });
  const code = await cli(['run', '--scenario', 'hooked.json', '--transport', 'local', '--settings', 'settings.json', '--out', 'run'], io);
  expect(code).toBe(2);
  expect(io.err()).toContain('unknown_subagent_type');
  expect(io.err()).toContain('"writer"');
});
