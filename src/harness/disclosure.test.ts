import { expect, test } from 'bun:test';
import { disclosedTools, TOOL_SEARCH, toolDisclosure } from './disclosure.ts';

/**
 * toolDisclosure reads a payload's bytes only: a deferred tool is disclosed by
 * a tool_reference in a non-error tool_result answering a ToolSearch use of an
 * earlier assistant message of the same payload, and by nothing else.
 */

type Json = Record<string, unknown>;
const utf8 = new TextEncoder();

const schema = { type: 'object', properties: { source_id: { type: 'string' } }, required: ['source_id'] };
const READ = { name: 'read_source', description: 'Reads a source — ünïcödé', input_schema: schema, defer_loading: true };
const LIST = { name: 'list_sources', description: 'Lists sources', input_schema: { type: 'object' }, defer_loading: true };
const CARD = { name: 'create_card', description: 'Creates the card', input_schema: { type: 'object' } };
const SEARCH = { name: TOOL_SEARCH, description: 'Searches the deferred tools', input_schema: { type: 'object' } };
const TOOLS = [READ, LIST, CARD, SEARCH];

const ref = (name: string): Json => ({ type: 'tool_reference', tool_name: name });
const use = (id: string, name = TOOL_SEARCH, input: unknown = { query: 'select:read_source', max_results: 5 }): Json => ({ type: 'tool_use', id, name, input });
const result = (id: string, content: unknown, extra: Json = {}): Json => ({ type: 'tool_result', tool_use_id: id, ...extra, content });
const assistant = (...content: Json[]): Json => ({ role: 'assistant', content });
const user = (...content: Json[]): Json => ({ role: 'user', content });

function payload(messages: readonly Json[], tools: readonly Json[] = TOOLS): Uint8Array {
  return utf8.encode(JSON.stringify({ model: 'm', max_tokens: 10, system: [], tools, messages: [{ role: 'user', content: 'go' }, ...messages] }));
}

const bytesOf = (...tools: Json[]): number => tools.reduce((sum, tool) => sum + utf8.encode(JSON.stringify(tool)).byteLength, 0);

test('a reference in a non-error result answering an earlier ToolSearch use discloses that deferred tool', () => {
  const shown = toolDisclosure(payload([assistant(use('s1')), user(result('s1', [ref('read_source')], { is_error: false }))]));
  expect(shown).toEqual({ deferred: ['read_source', 'list_sources'], disclosed: ['read_source'], visibleToolBytes: bytesOf(READ, CARD, SEARCH) });
  // is_error absent counts as a non-error result too
  expect(disclosedTools(payload([assistant(use('s1')), user(result('s1', [ref('read_source')]))]))).toEqual(['read_source']);
});

test('a reference anywhere else discloses nothing', () => {
  const cases: readonly [string, readonly Json[]][] = [
    ["another tool's result", [assistant(use('c1', 'create_card', {})), user(result('c1', [ref('read_source')]))]],
    ['an error result', [assistant(use('s1')), user(result('s1', [ref('read_source')], { is_error: true }))]],
    ['text', [assistant({ type: 'text', text: JSON.stringify(ref('read_source')) }), user({ type: 'text', text: '{"type":"tool_reference","tool_name":"read_source"}' })]],
    ["a tool_use's input", [assistant(use('s1', TOOL_SEARCH, { query: 'x', max_results: 1, content: [ref('read_source')] }))]],
    ['an unmatched tool_use_id', [assistant(use('s1')), user(result('s2', [ref('read_source')]))]],
    ['a result in the same message as the use', [assistant(use('s1'), result('s1', [ref('read_source')]))]],
    ['a result before its use', [user(result('s1', [ref('read_source')])), assistant(use('s1'))]],
    ['a result in an assistant message', [assistant(use('s1')), assistant(result('s1', [ref('read_source')]))]],
    ['a reference nested in a text block', [assistant(use('s1')), user(result('s1', [{ type: 'text', text: 'x', tool_reference: ref('read_source') }]))]],
  ];
  for (const [what, messages] of cases) {
    const shown = toolDisclosure(payload(messages));
    expect({ what, disclosed: shown.disclosed, visible: shown.visibleToolBytes }).toEqual({ what, disclosed: [], visible: bytesOf(CARD, SEARCH) });
  }
});

test('a use of a tool named otherwise (case, a prefix) is no ToolSearch use', () => {
  for (const name of ['toolsearch', 'ToolSearch ', 'mcp__x__ToolSearch']) {
    expect(disclosedTools(payload([assistant(use('s1', name)), user(result('s1', [ref('read_source')]))]))).toEqual([]);
  }
});

test('a tool that is not deferred, or not in tools at all, is never "disclosed", and adds no bytes', () => {
  const shown = toolDisclosure(payload([assistant(use('s1')), user(result('s1', [ref('create_card'), ref('ghost'), ref('list_sources')]))]));
  expect(shown.disclosed).toEqual(['list_sources']);
  expect(shown.visibleToolBytes).toBe(bytesOf(LIST, CARD, SEARCH));
});

test('disclosure is in payload order of tools, whatever order the references came in, each name once', () => {
  const messages = [assistant(use('s1'), use('s2')), user(result('s1', [ref('list_sources')]), result('s2', [ref('read_source'), ref('list_sources')]))];
  expect(disclosedTools(payload(messages))).toEqual(['read_source', 'list_sources']);
});

test('a reference from an earlier turn stays disclosed in later payloads', () => {
  const messages = [assistant(use('s1')), user(result('s1', [ref('read_source')])), assistant(use('r1', 'read_source', { source_id: 'a' })), user(result('r1', [{ type: 'text', text: 'A' }]))];
  expect(disclosedTools(payload(messages))).toEqual(['read_source']);
});

test('visible_tool_bytes: UTF-8 bytes of JSON.stringify of each non-deferred and each disclosed entry, summed', () => {
  const nothing = toolDisclosure(payload([], [READ, CARD]));
  expect(nothing.visibleToolBytes).toBe(utf8.encode(JSON.stringify(CARD)).byteLength);
  const undeferred = { ...READ } as Json;
  delete undeferred['defer_loading'];
  const plain = toolDisclosure(payload([], [undeferred, CARD]));
  expect(plain).toEqual({ deferred: [], disclosed: [], visibleToolBytes: bytesOf(undeferred, CARD) });
  // UTF-8 bytes, not UTF-16 units: the description's non-ASCII letters count two bytes each
  expect(bytesOf(undeferred)).toBeGreaterThan(JSON.stringify(undeferred).length);
  // defer_loading must be exactly true: false, "true" or 1 defer nothing
  for (const flag of [false, 'true', 1]) expect(toolDisclosure(payload([], [{ ...READ, defer_loading: flag }])).deferred).toEqual([]);
});

test('bytes that are not UTF-8, not JSON or not an object disclose nothing and defer nothing', () => {
  const good = payload([assistant(use('s1')), user(result('s1', [ref('read_source')]))]);
  const broken = new Uint8Array([...good.slice(0, 20), 0xff, 0xfe, ...good.slice(20)]);
  for (const bytes of [broken, utf8.encode('{"tools": ['), utf8.encode('[]'), utf8.encode('null'), new Uint8Array()]) {
    expect(toolDisclosure(bytes)).toEqual({ deferred: [], disclosed: [], visibleToolBytes: 0 });
  }
});

test('escaping in the bytes neither hides nor fakes a reference: the payload is parsed, not searched as text', () => {
  const escaped = new TextDecoder().decode(payload([assistant(use('s1')), user(result('s1', [ref('read_source')]))])).replace('"tool_reference"', '"tool\\u005freference"');
  expect(disclosedTools(utf8.encode(escaped))).toEqual(['read_source']);
});
