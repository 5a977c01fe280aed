import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { interpretCall, type ExpectedTool } from '../client/call.ts';
import { MISBEHAVE_TOOL } from '../../excerpt/testing/misbehave-server.ts';

/**
 * The result shapes the strict client reads (results.ts), as interpretCall
 * refuses them: each content block type with what it requires, isError a boolean.
 */
const tool: ExpectedTool = { contract: { ...MISBEHAVE_TOOL.contract, result: v.record(v.string(), v.unknown()) } };
const replyOf = (resultJson: string) => ({ id: 1, requestBytes: 10, responseBytes: resultJson.length, answer: { result: JSON.parse(resultJson) as Record<string, unknown> } });

describe('interpretCall: a result of the wrong shape is protocol/malformed_result (spec MUST)', () => {
  const text = { type: 'text', text: '{"a":1}' };
  test.each([
    ['isError "true"', { isError: 'true' }, []],
    ['isError 1', { isError: 1 }, []],
    ['an image without mimeType', {}, [{ type: 'image', data: 'iVBORw0KGgo=' }]],
    ['audio without data', {}, [{ type: 'audio', mimeType: 'audio/wav' }]],
    ['a resource without uri', {}, [{ type: 'resource', resource: { text: 't' } }]],
    ['a resource with neither text nor blob', {}, [{ type: 'resource', resource: { uri: 'file:///a' } }]],
    ['a text block whose text is a number', {}, [{ type: 'text', text: 1 }]],
  ])('%s', (_, extra, blocks) => {
    const result = JSON.stringify({ content: [text, ...blocks], structuredContent: { a: 1 }, ...extra });
    expect(interpretCall(tool, replyOf(result))).toMatchObject({ ok: false, class: 'protocol', kind: 'malformed_result', basis: 'spec MUST' });
  });

  test('every block type with what it requires passes (a blob resource, a resource link typed only by type)', () => {
    const blocks = [
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a', text: 't' } },
      { type: 'resource', resource: { uri: 'file:///b', blob: 'AA==' } },
      { type: 'resource_link', uri: 'file:///c', name: 'c' },
    ];
    // Only the text block is compared with structuredContent; the others are kept.
    const result = JSON.stringify({ content: [text, ...blocks], structuredContent: { a: 1 }, isError: false });
    expect(interpretCall(tool, replyOf(result))).toMatchObject({ ok: true });
  });
});
