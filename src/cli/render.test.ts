import { expect, test } from 'bun:test';
import type { Paint } from './io.ts';
import { renderStep } from './render.ts';

const bare: Paint = { ok: (s) => s, bad: (s) => s, dim: (s) => s, bold: (s) => s };
const response = (n: number) => ({
  type: 'response' as const,
  requestId: 'req-01',
  response: {
    id: 'msg_01',
    scripted: true,
    content: Array.from({ length: n }, (_, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: `tool_${i}`, input: {} })),
    usage: { input_tokens: 1, output_tokens: 1 },
    stop_reason: 'tool_use',
  },
});

test('a response line names at most eight calls and counts the rest (a hostile response asks for 55,000)', () => {
  expect(renderStep(response(3) as never, bare)).toContain('3 tool call(s): tool_0, tool_1, tool_2 (usage');
  const line = renderStep(response(55_000) as never, bare);
  expect(line).toContain('55000 tool call(s): tool_0, tool_1, tool_2, tool_3, tool_4, tool_5, tool_6, tool_7, … 54992 more (usage');
  expect(line.length).toBeLessThan(300);
});

test('ids, names, arguments and failure messages from the model or a hook reach the terminal inert (no cursor moves, no forged lines)', () => {
  const esc = '\x1b[1A\x1b[2K';
  const record = {
    toolCallId: `toolu_${esc}x`,
    actionId: 'act-01',
    name: `read\x1b[31m_source`,
    arguments: { original: { source_id: 'alpha\r\n      ✓ object created' } },
    stages: [],
    hooks: [],
    handlerEntered: false,
    outcome: { ok: false, class: 'permission_denied', kind: 'hook', message: `blocked by hook sh ./esc.sh: ${esc}\u202e✓ object created` },
    modelContent: [],
  };
  const line = renderStep({ type: 'call', record } as never, bare);
  expect(line).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u202e]/);
  expect(line.split('\n')).toHaveLength(2);
  expect(line).toContain('toolu_\\x1b[1A\\x1b[2Kx');
  expect(line).toContain('\\u202e✓ object created');
  const response = renderStep({ type: 'response', requestId: 'req-01', response: { id: `msg${esc}`, scripted: true, content: [{ type: 'tool_use', id: 't', name: `n${esc}`, input: {} }], usage: { input_tokens: 1, output_tokens: 1 }, stop_reason: 'tool_use' } } as never, bare);
  expect(response).not.toMatch(/\x1b/);
});
