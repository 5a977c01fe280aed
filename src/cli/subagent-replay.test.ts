import { expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';

const usage = { input_tokens: 10, output_tokens: 5 };
const line = (id: string, content: unknown[]) => ({ id, type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: content.some((b) => (b as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn', usage });
const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const card = { excerpts: [{ source_id: 'alpha', quote: 'A claim that cannot be checked against the casks is only a story.' }, { source_id: 'beta', quote: '记下发生了什么，而不是希望发生了什么。' }] };

test("a replay answers a subagent's requests with the file's next lines, in the run's request order over every level; it verifies", async () => {
  const cwd = scratchDir('caplab-subagent-replay-');
  mkdirSync(join(cwd, 'types'));
  copyFileSync(join(import.meta.dir, '../../fixtures/agents/carder.md'), join(cwd, 'types/carder.md'));
  const lines = [
    line('msg_1', [use('toolu_p01', 'Agent', { description: 'card', prompt: 'Make the card.', subagent_type: 'carder' })]),
    line('msg_2', [use('toolu_s01', 'read_source', { source_id: 'alpha' }), use('toolu_s02', 'read_source', { source_id: 'beta' })]),
    line('msg_3', [use('toolu_s03', 'create_card', card)]),
    line('msg_4', [{ type: 'text', text: 'Card made.' }]),
    line('msg_5', [{ type: 'text', text: 'Done.' }]),
  ];
  writeFileSync(join(cwd, 'r.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const io = testIo(cwd);
  const code = await cli(['run', '--replay', 'r.jsonl', '--agents-dir', 'types', '--transport', 'local', '--out', 'run', '--json'], io);
  expect(code).toBe(0);
  const doc = JSON.parse(io.out());
  expect([doc.accepted, doc.requests, doc.calls[0].subagent.requests]).toEqual([true, 2, 3]);
  expect(await cli(['verify', join(cwd, 'run')], testIo(cwd))).toBe(0);
});
