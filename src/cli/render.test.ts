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
