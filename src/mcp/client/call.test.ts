import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { excerpt, interpretCall, type ExpectedTool } from './call.ts';
import { MISBEHAVE_TOOL } from '../../excerpt/testing/misbehave-server.ts';

/** Any object result: these tests are about the text block's agreement with it, not the contract's schema. */
const tool: ExpectedTool = { contract: { ...MISBEHAVE_TOOL.contract, result: v.record(v.string(), v.unknown()) } };

/** A reply whose result is built from the raw JSON text a server would send, as the client decodes it. */
function replyOf(resultJson: string) {
  return { id: 1, requestBytes: 10, responseBytes: resultJson.length, answer: { result: JSON.parse(resultJson) as Record<string, unknown> } };
}
const resultWith = (structuredJson: string, text: string) =>
  `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${structuredJson}}`;

describe('interpretCall: the text block must say what structuredContent says (default rule)', () => {
  test.each([
    ['the exact serialization', '{"a":1,"b":[true,null,"x"]}', '{"a":1,"b":[true,null,"x"]}'],
    ['other key order and spacing', '{"a":1,"b":[true,null,"x"]}', '{ "b": [true, null, "x"], "a": 1 }'],
    ['a number written otherwise', '{"n":10}', '{"n":1e1}'],
  ])('agrees: %s', (_, structured, text) => {
    expect(interpretCall(tool, replyOf(resultWith(structured, text)))).toMatchObject({ ok: true, value: { texts: [text] } });
  });

  test.each([
    ['another value', '{"a":1}', '{"a":2}'],
    ['a missing member', '{"a":1,"b":2}', '{"a":1}'],
    ['not JSON', '{"a":1}', 'a is 1'],
    // 1e999 parses to Infinity, which JSON.stringify writes as null: the text's null must not pass for it.
    ['null for an overflowing number', '{"a":1e999}', '{"a":null}'],
    ['null for an overflowing number, nested', '{"a":[{"b":-1e999}]}', '{"a":[{"b":null}]}'],
  ])('conflicts: %s → evidence/result_conflict', (_, structured, text) => {
    expect(interpretCall(tool, replyOf(resultWith(structured, text)))).toMatchObject({ ok: false, class: 'evidence', kind: 'result_conflict' });
  });

  test('a structuredContent nested deeper than JSON.stringify recurses (about 400 KB, under the 1 MiB line limit) is compared, not thrown on', () => {
    const depth = 100_000;
    const nested = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(() => JSON.stringify(JSON.parse(nested))).toThrow(RangeError);
    expect(interpretCall(tool, replyOf(resultWith(nested, nested)))).toMatchObject({ ok: true });
    const other = `{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}`;
    expect(interpretCall(tool, replyOf(resultWith(nested, other)))).toMatchObject({ ok: false, class: 'evidence', kind: 'result_conflict' });
    // Two 400 KB parses of 100,000 levels: seconds on a loaded machine; the bound is bun's hang guard, not a measure.
  }, 60_000);

  test('two text blocks → evidence/result_conflict, even when one of them is the serialization', () => {
    const result = '{"content":[{"type":"text","text":"{\\"a\\":1}"},{"type":"text","text":"{\\"a\\":1}"}],"structuredContent":{"a":1}}';
    expect(interpretCall(tool, replyOf(result))).toMatchObject({ ok: false, kind: 'result_conflict' });
  });
});

test('a server text in a failure message is cut at 2000 code points, never inside a surrogate pair, its length counted in code points', () => {
  const astral = '😀'.repeat(2001);
  const failed = interpretCall(tool, { id: 1, requestBytes: 1, responseBytes: 1, answer: { error: { code: -32603, message: astral } } });
  expect(failed).toMatchObject({ ok: false, class: 'protocol', kind: 'jsonrpc_error', message: `read_source: JSON-RPC error -32603: ${'😀'.repeat(2000)}… (2001 chars)` });
  expect([excerpt('a😀b', 2), excerpt('a😀', 2), excerpt('', 0)]).toEqual(['a😀… (3 chars)', 'a😀', '']);
});
