import { describe, expect, test } from 'bun:test';
import { answerBytes, answerLine, serializeResult, type Methods } from './serve-rpc.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const result = { content: [{ type: 'text', text: 'line 1\n"quoted" — ü \u2028 \u{1f600}' }], structuredContent: { n: 1, s: 'x' } };

describe('answers with a result serialized ahead', () => {
  const serialized = serializeResult(result);
  const methods: Methods = { requests: { 'tools/call': () => ({ serialized }) }, notifications: new Set() };
  const answered = (id: unknown) => {
    const answer = answerLine(new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call' })), methods);
    if (!answer.answer) throw new Error('no answer');
    return answer;
  };

  test.each([0, 7, -3, 9007199254740991, '7', '', 'a"b\\c', 'é\u2028\u{1f600}', '\u0000\n'])(
    'request id %p: the line is exactly JSON.stringify of the answer with that id',
    (id) => {
      expect(answered(id).answer).toEqual({ jsonrpc: '2.0', id, result });
      expect(text(answerBytes(answered(id)))).toBe(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
    },
  );

  test('one serialized result answers many requests, each under its own id', () => {
    const lines = [1, '1', 2].map((id) => text(answerBytes(answered(id))));
    expect(lines.map((line) => (JSON.parse(line) as { id: unknown }).id)).toEqual([1, '1', 2]);
    expect(new Set(lines.map((line) => line.slice(line.indexOf('"result":')))).size).toBe(1);
  });

  test('serializeResult holds the exact JSON text and its UTF-8', () => {
    expect(serialized.json).toBe(JSON.stringify(result));
    expect(text(serialized.bytes)).toBe(serialized.json);
    expect(Object.isFrozen(serialized)).toBe(true);
  });

  test('an answer without one is stringified as it is', () => {
    const answer = { jsonrpc: '2.0', id: 'q', error: { code: -32601, message: 'Method not found: "x"' } };
    expect(text(answerBytes({ answer }))).toBe(`${JSON.stringify(answer)}\n`);
  });
});
