import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS, sha256Hex } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { loadReplay, parseReplay, replayModel } from './replay.ts';

const EXAMPLE = join(import.meta.dir, '../../fixtures/examples/excerpt.replay.jsonl');
const exampleLines = () => readFileSync(EXAMPLE, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

/** A valid line (the example's first) with `edit` applied, as one JSONL line. */
function lineWith(edit: (line: Record<string, any>) => void, base = 0): string {
  const line = exampleLines()[base]!;
  edit(line);
  return JSON.stringify(line);
}

const refusal = (text: string) => {
  const parsed = parseReplay(text, 'r.jsonl');
  return parsed.ok ? 'accepted' : `${parsed.class}/${parsed.kind}: ${parsed.message}`;
};

test('the example file parses whole: each response as read (usage with its cache counts, fields in file order), labelled replayed', () => {
  const text = readFileSync(EXAMPLE, 'utf8');
  const parsed = parseReplay(text, 'excerpt.replay.jsonl');
  if (!parsed.ok) throw new Error(parsed.message);
  const lines = exampleLines();
  expect(parsed.value.length).toBe(3);
  for (const [i, response] of parsed.value.entries()) {
    expect(response.origin).toBe('replayed');
    expect(JSON.stringify(response.message)).toBe(JSON.stringify(lines[i]));
    expect(JSON.stringify(response.usage)).toBe(JSON.stringify(lines[i]!['usage']));
    expect(response.usage.synthetic).toBeUndefined();
    expect([response.id, response.stop_reason]).toEqual([lines[i]!['id'], lines[i]!['stop_reason']]);
  }
  expect(parsed.value.map((r) => r.usage.cache_read_input_tokens)).toEqual([0, 1431, 2513]);
  expect(parsed.value[0]!.content.map((b) => (b.type === 'tool_use' ? [b.id, b.name, b.input] : b.type))).toEqual([
    'text',
    ['toolu_01zFjlQcE30peXmnRZ5QW8W5', 'read_source', { source_id: 'alpha' }],
    ['toolu_01LUehJEJ0ymv7j4IAsx9CGy', 'read_source', { source_id: 'beta' }],
  ]);
});

test('replayModel: line N answers request N, then exhausted; its records name the file, its sha256 and lines used and unused', async () => {
  const loaded = loadReplay(EXAMPLE, '/');
  if (!loaded.ok) throw new Error(loaded.message);
  expect([loaded.value.sha256, loaded.value.bytes]).toEqual([sha256Hex(readFileSync(EXAMPLE)), readFileSync(EXAMPLE).byteLength]);
  const model = replayModel(loaded.value);
  expect([model.name, model.origin]).toEqual(['replayed:claude-sonnet-4-5-20250929', 'replayed']);
  expect(model.record).toEqual({
    scenario: null,
    model: { name: model.name, scripted: false, origin: 'replayed', replay: { file: EXAMPLE, sha256: loaded.value.sha256, bytes: loaded.value.bytes, lines: 3 } },
  });
  const ids: string[] = [];
  for (let index = 0; index < 3; index++) {
    const answer = await model.respond({ id: `req-${index + 1}`, index, payload: new Uint8Array() });
    if ('exhausted' in answer) throw new Error(answer.exhausted);
    ids.push(answer.id);
  }
  expect(ids).toEqual(exampleLines().map((l) => l['id']));
  expect(await model.respond({ id: 'req-4', index: 3, payload: new Uint8Array() })).toEqual({ exhausted: 'the replay file has no line 4: all 3 were used' });
  expect(model.ended?.(2)).toEqual({ replay: { lines_used: 2, lines_unused: 1 } });
  expect(model.ended?.(0)).toEqual({ replay: { lines_used: 0, lines_unused: 3 } });
});

const good = lineWith(() => undefined);
const deep = (depth: number): unknown => (depth === 0 ? 1 : [deep(depth - 1)]);

test.each<[string, string, RegExp]>([
  ['empty file', '', /r\.jsonl: no lines/],
  ['only a newline', '\n', /r\.jsonl: no lines/],
  ['a blank line between two', `${good}\n\n${good}\n`, /line 2: is blank/],
  ['not JSON', `${good}\n{"id":`, /line 2: not valid JSON/],
  ['a BOM before line 1', `\uFEFF${good}`, /line 1: not valid JSON/],
  ['a raw NUL inside a string', good.replace('"text":"I', '"text":"\u0000I'), /line 1: not valid JSON/],
  ['a raw NUL between tokens', `${good.slice(0, 1)}\u0000${good.slice(1)}`, /line 1: not valid JSON/],
  ['nested past fileJsonDepth', lineWith((l) => (l['content'][1].input.deep = deep(LIMITS.fileJsonDepth))), /line 1: nesting deeper than 64/],
  ['a number JSON cannot carry', good.replace('"output_tokens":118', '"output_tokens":1e400'), /line 1: non-finite number at \$\.usage\.output_tokens/],
  ['a count past 2^53', good.replace('"output_tokens":118', '"output_tokens":9007199254740993'), /line 1: usage\.output_tokens: /],
  ['a negative count', good.replace('"input_tokens":12', '"input_tokens":-1'), /line 1: usage\.input_tokens: /],
  ['a fractional count', good.replace('"input_tokens":12', '"input_tokens":1.5'), /line 1: usage\.input_tokens: /],
  ['a cache count as a string', good.replace('"cache_read_input_tokens":0', '"cache_read_input_tokens":"0"'), /line 1: usage\.cache_read_input_tokens: /],
  ['totals past 2^53 over two lines', `${good.replace('"input_tokens":12', `"input_tokens":${Number.MAX_SAFE_INTEGER}`)}\n${good}`, /line 2: usage\.input_tokens: the file's total passes/],
  ['no usage', lineWith((l) => delete l['usage']), /line 1: usage: is required/],
  ['no id', lineWith((l) => delete l['id']), /line 1: id: is required/],
  ['an id that is a number', lineWith((l) => (l['id'] = 7)), /line 1: id: Invalid type/],
  ['no model', lineWith((l) => delete l['model']), /line 1: model: is required/],
  ['type other than message', lineWith((l) => (l['type'] = 'completion')), /line 1: type: /],
  ['role user', lineWith((l) => (l['role'] = 'user')), /line 1: role: /],
  ['content not an array', lineWith((l) => (l['content'] = 'hi')), /line 1: content: /],
  ['a line that is an array', '[]', /line 1: is not one JSON object/],
  ['a line that is null', 'null', /line 1: is not one JSON object/],
  ['a line that is a string', '"msg"', /line 1: is not one JSON object/],
  ['stop_reason null (an unfinished stream)', lineWith((l) => (l['stop_reason'] = null)), /line 1: stop_reason: Invalid type/],
  ['stop_sequence a number', lineWith((l) => (l['stop_sequence'] = 3)), /line 1: stop_sequence: /],
  ['a thinking block', lineWith((l) => l['content'].unshift({ type: 'thinking', thinking: 'hm', signature: 'x' })), /line 1: content\[0\]\.type: block type "thinking" is not replayed \(only text and tool_use\)/],
  ['a redacted_thinking block', lineWith((l) => l['content'].unshift({ type: 'redacted_thinking', data: 'x' })), /line 1: content\[0\]\.type: block type "redacted_thinking" is not replayed/],
  ['a server_tool_use block', lineWith((l) => l['content'].push({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} })), /line 1: content\[3\]\.type: block type "server_tool_use" is not replayed/],
  ['a block without a type', lineWith((l) => l['content'].push({ text: 'x' })), /line 1: content\[3\]\.type: is required/],
  ['a text block without text', lineWith((l) => delete l['content'][0].text), /line 1: content\[0\]\.text: is required/],
  ['a tool_use without an id', lineWith((l) => delete l['content'][1].id), /line 1: content\[1\]\.id: is required/],
  ['a tool_use with an empty id', lineWith((l) => (l['content'][1].id = '')), /line 1: content\[1\]\.id: /],
  ['a tool_use input that is an array', lineWith((l) => (l['content'][1].input = [])), /line 1: content\[1\]\.input: a tool_use input is a JSON object/],
  ['a tool_use input that is a string', lineWith((l) => (l['content'][1].input = '{"source_id":"alpha"}')), /line 1: content\[1\]\.input: a tool_use input is a JSON object/],
  ['stop_reason pause_turn', lineWith((l) => (l['stop_reason'] = 'pause_turn'), 2), /line 1: stop_reason: "pause_turn" is not replayed/],
  ['an unknown stop_reason', lineWith((l) => (l['stop_reason'] = 'done'), 2), /line 1: stop_reason: "done" is none of end_turn, tool_use/],
  ['a tool_use stop without a tool_use block', lineWith((l) => (l['stop_reason'] = 'tool_use'), 2), /line 1: stop_reason: "tool_use" with no tool_use block in content/],
  ['a tool_use block under end_turn', lineWith((l) => (l['stop_reason'] = 'end_turn')), /line 1: content\[1\]: a tool_use block under stop_reason "end_turn"/],
  ['a tool_use block under max_tokens', lineWith((l) => (l['stop_reason'] = 'max_tokens')), /line 1: content\[1\]: a tool_use block under stop_reason "max_tokens"/],
  ['a line labelled scripted', lineWith((l) => (l['scripted'] = true)), /line 1: scripted: not a field of a provider message/],
  ['usage marked synthetic', lineWith((l) => (l['usage'].synthetic = true)), /line 1: usage\.synthetic: recorded usage is never marked synthetic/],
])('%s is invalid_arguments/bad_replay naming the line and field', (_, text, message) => {
  const told = refusal(text);
  expect(told).toStartWith('invalid_arguments/bad_replay: r.jsonl: ');
  expect(told).toMatch(message);
});

test('hostile but well-formed lines are taken as read: escaped NUL, lone surrogates, duplicate keys (the last wins, as JSON.parse reads it), unknown fields', () => {
  const text = [
    lineWith((l) => (l['content'][0].text = 'nul \u0000 here, lone \ud800 and \udfff')),
    good.replace('"stop_reason":"tool_use"', '"stop_reason":"end_turn","stop_reason":"tool_use"'),
    lineWith((l) => ((l['container'] = { id: 'c1' }), (l['usage'].server_tool_use = { web_search_requests: 0 }), (l['content'][1].input = { source_id: '\ud800' })), 0),
    lineWith((l) => ((l['stop_reason'] = 'max_tokens'), (l['stop_sequence'] = null)), 2),
  ].join('\n');
  const parsed = parseReplay(text, 'r.jsonl');
  if (!parsed.ok) throw new Error(parsed.message);
  const [first, second, third, fourth] = parsed.value;
  expect(first!.content[0]).toEqual({ type: 'text', text: 'nul \u0000 here, lone \ud800 and \udfff' });
  expect(second!.stop_reason).toBe('tool_use');
  expect(third!.message['container']).toEqual({ id: 'c1' });
  expect((third!.usage as unknown as Record<string, unknown>)['server_tool_use']).toEqual({ web_search_requests: 0 });
  expect(third!.content[1]).toMatchObject({ input: { source_id: '\ud800' } });
  expect(fourth!.stop_reason).toBe('max_tokens');
});

test('a replay file is read bounded: over replayBytes is too_large, a directory or FIFO is refused by kind, bytes not UTF-8 are not_utf8', () => {
  const dir = scratchDir('caplab-replay-');
  const kind = (outcome: ReturnType<typeof loadReplay>) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);
  writeFileSync(join(dir, 'big.jsonl'), Buffer.alloc(LIMITS.replayBytes + 1, 0x20));
  expect(kind(loadReplay('big.jsonl', dir))).toBe('precondition/too_large');
  // At the limit the size passes and the content is judged: 4 MiB of spaces is one blank line.
  writeFileSync(join(dir, 'at.jsonl'), Buffer.alloc(LIMITS.replayBytes, 0x20));
  expect(kind(loadReplay('at.jsonl', dir))).toBe('invalid_arguments/bad_replay');
  mkdirSync(join(dir, 'folder'));
  expect(kind(loadReplay('folder', dir))).toBe('precondition/not_regular_file');
  expect(Bun.spawnSync(['mkfifo', join(dir, 'pipe')]).exitCode).toBe(0);
  expect(kind(loadReplay('pipe', dir))).toBe('precondition/not_regular_file');
  expect(kind(loadReplay('missing.jsonl', dir))).toBe('precondition/not_found');
  writeFileSync(join(dir, 'latin1.jsonl'), Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
  const latin1 = loadReplay('latin1.jsonl', dir);
  expect(kind(latin1)).toBe('invalid_arguments/not_utf8');
  expect(latin1.ok ? '' : latin1.message).toBe('--replay latin1.jsonl: not valid UTF-8');
});
