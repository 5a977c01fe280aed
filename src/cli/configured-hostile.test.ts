/**
 * Users' servers at their worst, through the run path (`caplab run
 * --mcp-config`): hostile schemas, names, descriptions, results, listings
 * and processes (src/cli/testing/hostile-configured.ts). Each case names
 * the precise class and kind, the run goes on where it should, its dir
 * verifies, and nothing is left behind (hostileConfiguredRun checks the
 * last two for every run). One run serves most cases: a dozen servers, one
 * response of tool calls.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { inert } from '../base/index.ts';
import { MODEL_TOOL_NAME, modelToolName, qualifiedName } from '../binding/index.ts';
import { canonicalHash, LIMITS } from '../contract/index.ts';
import { filesUnder, hostileConfiguredRun, SECRET, type HostileConfiguredRun, type ScriptedCall } from './testing/configured-hostile-run.ts';
import { ADDED_NAME, ANSI_DESCRIPTION, BASE64_CHARS, BIG_RESULT_BYTES, HOSTILE_NAMES, MANY_BLOCKS, MANY_TOOLS } from './testing/hostile-configured-cases.ts';

const model = (key: string, tool: string): string => modelToolName(qualifiedName(key, tool));

/** The calls of the shared run, by id: [id, model name, arguments]. */
const CALLS: readonly ScriptedCall[] = [
  ['defaults_empty', 'mcp__schemas__defaults', {}],
  ['defaults_const', 'mcp__schemas__defaults', { mode: 'other' }],
  ['unknown_words', 'mcp__schemas__unknown_words', { when: 'whenever' }],
  ['unbound_huge', 'mcp__schemas__huge', {}],
  ['inherited_missing', 'mcp__schemas__inherited', {}],
  ['inherited_given', 'mcp__schemas__inherited', { toString: 'given' }],
  ['shallow', 'mcp__deep__shallow', {}],
  ['a_b', 'mcp__names__a_b', {}],
  ['a_dot_b', model('names', 'a.b'), {}],
  ['emoji', model('names', '😀'), {}],
  ['big', 'mcp__results__result', { kind: 'big' }],
  ['error', 'mcp__results__result', { kind: 'error' }],
  ['good', 'mcp__results__structured', { kind: 'good' }],
  ['violate', 'mcp__results__structured', { kind: 'violate' }],
  ['disagree', 'mcp__results__structured', { kind: 'disagree' }],
  ['missing', 'mcp__results__structured', { kind: 'missing' }],
  ['image', 'mcp__results__result', { kind: 'image' }],
  ['audio', 'mcp__results__result', { kind: 'audio' }],
  ['resource', 'mcp__results__result', { kind: 'resource' }],
  ['not_result', 'mcp__results__result', { kind: 'not_result' }],
  ['blocks', 'mcp__results__result', { kind: 'blocks' }],
  ['unasked', 'mcp__results__result', { kind: 'unasked_structured' }],
  ['many_last', `mcp__many__t${MANY_TOOLS - 1}`, {}],
  ['string_entry', 'mcp__string-entry__echo', {}],
  ['changed_1', 'mcp__always-changed__echo', {}],
  ['changed_2', 'mcp__always-changed__echo', {}],
  ['changed_3', 'mcp__always-changed__echo', {}],
  ['stay_1', 'mcp__relist-removes__stay', {}],
  ['gone', 'mcp__relist-removes__gone', {}],
  ['stay_2', 'mcp__relist-removes__stay', {}],
  ['flood_echo', 'mcp__flood__echo', {}],
  ['die', 'mcp__flood__die', {}],
  ['after_die', 'mcp__flood__echo', {}],
  ['endless', 'mcp__endless__t0', {}],
  ['cursor', 'mcp__cursor-loop__page2', {}],
];

const SERVERS = {
  schemas: 'schemas',
  deep: 'deep',
  names: 'names',
  results: 'results',
  many: 'many',
  endless: 'endless',
  'cursor-loop': 'cursor-loop',
  'string-entry': 'string-entry',
  'list-error': 'list-error',
  'always-changed': 'always-changed',
  'relist-removes': 'relist-removes',
  flood: 'flood',
} as const;

// At the file's top level: removed after its last test.
const SHARED = scratchDir('caplab-chostile-');
let run: HostileConfiguredRun;
beforeAll(async () => {
  run = await hostileConfiguredRun(SERVERS, CALLS, { dir: SHARED });
}, 60_000);

const event = (type: string): Record<string, any> => run.events.find((e) => e.type === type)!;
const started = (key: string): Record<string, any> => event('run_start')['servers'].find((s: { key: string }) => s.key === key);
const ended = (key: string): Record<string, any> => event('run_end')['servers'].find((s: { key: string }) => s.key === key);
const listed = (key: string): Record<string, Record<string, any>> => Object.fromEntries(started(key)['tools'].map((t: { name: string }) => [t.name, t]));
const call = (id: string): Record<string, any> => run.events.find((e) => e.type === 'call' && e.tool_call_id === `toolu_${id}`)!;
const outcome = (id: string): string => {
  const { ok, class: cls, kind } = call(id)['outcome'];
  return ok ? 'ok' : `${cls}/${kind}`;
};

/** The request the model was sent after the calls: its tools, and each tool_result by call id. */
const bytes = (text: string): number => new TextEncoder().encode(text).byteLength;
let request: { tools: { name: string; description: string }[]; results: Map<string, string>; sizes: Map<string, number> } | undefined;
function lastRequest(): { tools: { name: string; description: string }[]; results: Map<string, string>; sizes: Map<string, number> } {
  if (request) return request;
  const payload = JSON.parse(readFileSync(join(run.runDir, 'requests/02-request.json'), 'utf8'));
  const results = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const block of payload.messages.at(-1).content) {
    const texts: string[] = block.content.map((c: { text: string }) => c.text);
    results.set(block.tool_use_id, texts.join('\n'));
    sizes.set(block.tool_use_id, texts.reduce((sum, text) => sum + bytes(text), 0));
  }
  return (request = { tools: payload.tools, results, sizes });
}
const seen = (id: string): string => lastRequest().results.get(`toolu_${id}`)!;
const kindOf = (tool: Record<string, any>): string => (tool['status'] === 'bound' ? 'bound' : `${tool['failure'].class}/${tool['failure'].kind}`);

describe('hostile schemas: unbound with a named kind, or bound as listed', () => {
  test('each schema the host cannot hold leaves its tool unbound, naming why; the run goes on', () => {
    const tools = listed('schemas');
    const kinds = Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, kindOf(tool)]));
    expect(kinds).toEqual({
      no_schema: 'protocol/malformed_tool',
      schema_string: 'protocol/malformed_tool',
      type_array: 'protocol/malformed_tool',
      remote_ref: 'protocol/unbindable_schema',
      ref_loop: 'protocol/unbindable_schema',
      huge: 'protocol/unbindable_schema',
      dialect: 'protocol/unbindable_schema',
      async: 'protocol/unbindable_schema',
      unknown_words: 'bound',
      defaults: 'bound',
      bad_output: 'protocol/malformed_tool',
      inherited: 'bound',
    });
    // The finding that made each unbindable is named in its message.
    const why = (name: string): string => tools[name]!['failure'].message;
    expect([why('remote_ref'), why('ref_loop'), why('huge'), why('dialect'), why('async')].map((m) => m.split(': ')[2])).toEqual(['remote_ref', 'schema_ref_loop', 'schema_too_large', 'schema_dialect', 'schema_async']);
    expect(listed('deep')).toMatchObject({ deep: { status: 'unbound', failure: { class: 'protocol', kind: 'unbindable_schema' } }, shallow: { status: 'bound' } });
    expect(listed('deep')['deep']!['failure'].message).toContain('schema_too_deep');
    expect(outcome('shallow')).toBe('ok');
  });

  test('an unbound tool is never offered to the model: a call of it is unknown_tool, not sent', () => {
    expect(lastRequest().tools.map((t) => t.name)).not.toContain('mcp__schemas__huge');
    expect([outcome('unbound_huge'), call('unbound_huge')['handler_entered']]).toEqual(['invalid_arguments/unknown_tool', false]);
  });

  test('a default stays an annotation: {} reaches the server as {}; a const is checked before sending', () => {
    expect(JSON.parse(seen('defaults_empty'))).toEqual({ tool: 'defaults', arguments: {} });
    expect({ outcome: outcome('defaults_const'), entered: call('defaults_const')['handler_entered'], jsonrpc: call('defaults_const')['jsonrpc_id'] }).toEqual({ outcome: 'invalid_arguments/const', entered: false, jsonrpc: null });
    expect(JSON.parse(seen('unknown_words'))).toEqual({ tool: 'unknown_words', arguments: { when: 'whenever' } });
  });

  test('properties named as what every object inherits (`toString`, `constructor`) are checked on the arguments themselves', () => {
    expect([outcome('inherited_missing'), call('inherited_missing')['handler_entered']]).toEqual(['invalid_arguments/required', false]);
    expect(JSON.parse(seen('inherited_given'))).toEqual({ tool: 'inherited', arguments: { toString: 'given' } });
  });
});

describe('hostile names', () => {
  test('every bindable name gets a name the Messages API accepts, derived by the rule from its full name', () => {
    const tools = listed('names');
    for (const name of HOSTILE_NAMES.filter((n) => n !== '')) {
      expect(tools[name]).toMatchObject({ status: 'bound', model_name: model('names', name) });
      expect(tools[name]!['model_name']).toMatch(MODEL_TOOL_NAME);
    }
    expect(tools['']).toMatchObject({ status: 'unbound', failure: { class: 'protocol', kind: 'malformed_tool' } });
    // `a.b` and `a_b` stay apart: the rewritten one carries the hash of its full name.
    expect(tools['a_b']!['model_name']).toBe('mcp__names__a_b');
    expect(tools['a.b']!['model_name']).toMatch(/^mcp__names__a_b_[0-9a-f]{8}$/);
    expect(tools['a.b']!['model_name']).not.toBe(tools['a_b']!['model_name']);
  });

  test('a rewritten name calls the tool by its listed name', () => {
    expect([JSON.parse(seen('a_b')).tool, JSON.parse(seen('a_dot_b')).tool, JSON.parse(seen('emoji')).tool]).toEqual(['a_b', 'a.b', '😀']);
  });

  test('a description over 2 KiB is cut with the marker, in what the model is shown', () => {
    const shown = lastRequest().tools.find((t) => t.name === 'mcp__names__a_b')!;
    expect(bytes(shown.description)).toBeLessThanOrEqual(LIMITS.toolDescriptionBytes);
    expect(shown.description.endsWith(`\n[description cut: ${bytes(ANSI_DESCRIPTION)} bytes]`)).toBe(true);
    expect(ANSI_DESCRIPTION.startsWith(shown.description.split('\n')[0]!.slice(0, 100))).toBe(true);
  });
});

describe('hostile results', () => {
  test('a result over mcpResultBytes: the model sees the cut, outputs/ keeps the whole', () => {
    expect(outcome('big')).toBe('ok');
    const [kept] = call('big')['files'];
    expect(kept).toMatchObject({ role: 'full_output', bytes: BIG_RESULT_BYTES });
    expect(readFileSync(join(run.runDir, kept.path), 'utf8')).toBe('b'.repeat(BIG_RESULT_BYTES));
    expect(bytes(seen('big'))).toBeLessThan(BIG_RESULT_BYTES);
    expect(seen('big').startsWith('b'.repeat(LIMITS.mcpResultBytes / 2))).toBe(true);
  });

  test('10,000 content blocks: the model sees the first of them, outputs/ keeps every one', () => {
    expect(outcome('blocks')).toBe('ok');
    const [kept] = call('blocks')['files'];
    const whole = JSON.parse(readFileSync(join(run.runDir, kept.path), 'utf8')) as { text: string }[];
    expect([whole.length, whole.at(-1)?.text]).toEqual([MANY_BLOCKS, `block ${MANY_BLOCKS - 1}`]);
    expect(seen('blocks').startsWith('block 0\nblock 1\n')).toBe(true);
    expect(seen('blocks')).toContain(`full output kept at ${kept.path}`);
  });

  // The note names the first cutBlocksNamed blocks left out and counts the rest: 10,000 small blocks once gave a 97 KB note.
  test('10,000 content blocks: what the model is shown, marker and all, stays near mcpResultBytes', () => {
    expect(lastRequest().sizes.get('toolu_blocks')).toBeLessThanOrEqual(LIMITS.mcpResultBytes + 1_024);
    expect(seen('blocks')).toMatch(/, \d+ more blocks \(\d+ bytes\); full output kept at outputs\//);
  });

  test('one text over mcpResultBytes: the model sees mcpResultBytes of it and a one-line marker', () => {
    expect(bytes(seen('big'))).toBeLessThanOrEqual(LIMITS.mcpResultBytes + 1_024);
  });

  test.each([
    ['error', 'business/tool_error'],
    ['violate', 'protocol/output_invalid'],
    ['disagree', 'evidence/result_conflict'],
    ['missing', 'protocol/output_invalid'],
    ['not_result', 'protocol/malformed_result'],
  ])('%s is %s, the call sent once', (id, expected) => {
    expect(outcome(id)).toBe(expected);
    expect(call(id)['handler_entered']).toBe(true);
    expect(call(id)['jsonrpc_id']).toEqual(expect.any(Number));
  });

  test('isError is recorded as the server said it; the agreeing structured result passes', () => {
    expect(call('error')['protocol']).toMatchObject({ server: 'results', isError: true });
    expect([outcome('good'), seen('good')]).toEqual(['ok', '{"n":1}']);
  });

  test('image, audio and resource blocks with huge base64 reach the model as one line each, never their bytes', () => {
    const decoded = (BASE64_CHARS / 4) * 3;
    expect(['image', 'audio', 'resource'].map(outcome)).toEqual(['ok', 'ok', 'ok']);
    expect([seen('image'), seen('audio'), seen('resource')]).toEqual([
      `[image image/png, ${decoded} bytes]`,
      `[audio audio/wav, ${decoded} bytes]`,
      `[resource file:///blob.bin application/octet-stream, ${decoded} bytes]`,
    ]);
  });

  test('structuredContent from a tool that listed no outputSchema: the blocks are the result, not a refusal', () => {
    // Fails without the host-call fix: data was the structuredContent, which the `{ content }` result schema refused.
    expect(outcome('unasked')).toBe('ok');
    expect(call('unasked')['outcome'].data_sha256).toBe(canonicalHash({ content: [{ type: 'text', text: '{"n":1}' }] }));
    expect(seen('unasked')).toBe('{"n":1}');
  });
});

describe('hostile listings', () => {
  test('5,000 tools bind, and the last one is called', () => {
    const tools = started('many')['tools'];
    expect(tools).toHaveLength(MANY_TOOLS);
    expect(tools.every((t: { status: string }) => t.status === 'bound')).toBe(true);
    expect(outcome('many_last')).toBe('ok');
  });

  test('pagination that never ends stops at the page limit; a cursor loop at the repeated cursor; both noticed', () => {
    expect(started('endless')['tools']).toHaveLength(LIMITS.probePages);
    expect(started('endless')['notices']).toEqual([expect.stringContaining(`tools/list stopped at page ${LIMITS.probePages} on the page limit`)]);
    expect(started('cursor-loop')['tools'].map((t: { name: string }) => t.name)).toEqual(['page0', 'page1', 'page2']);
    expect(started('cursor-loop')['notices']).toEqual([expect.stringContaining('tools/list stopped at page 3 on a cursor it had already followed: nextCursor "a"')]);
    expect([outcome('endless'), outcome('cursor')]).toEqual(['ok', 'ok']);
  });

  test('entries that are not tools stay unbound; the tool beside them binds', () => {
    expect(started('string-entry')['tools'].map(kindOf)).toEqual(['protocol/malformed_tool', 'protocol/malformed_tool', 'protocol/malformed_tool', 'bound']);
    expect(started('string-entry')['tools'].map((t: { name: string }) => t.name)).toEqual(['(unnamed)', '(unnamed)', '(unnamed)', 'echo']);
    expect(outcome('string_entry')).toBe('ok');
  });

  test('a tools/list error fails that server only', () => {
    expect(started('list-error')).toMatchObject({ status: 'failed', failure: { class: 'protocol', kind: 'jsonrpc_error' } });
    expect(ended('list-error')).toMatchObject({ close: null });
    expect(run.stderr).toContain('server list-error did not start (protocol/jsonrpc_error)');
  });

  test('list_changed after every call: each next call re-lists first, unchanged, and goes on', () => {
    expect(['changed_1', 'changed_2', 'changed_3'].map(outcome)).toEqual(['ok', 'ok', 'ok']);
    const unchanged = { outcome: 'unchanged', changed: [], removed: [], added: [] };
    expect(ended('always-changed')['list_changed']).toEqual({ seen: 3, relists: [unchanged, unchanged] });
  });

  test('a re-list that removes a tool: its next call is tool_drift, not sent; the others go on; the added one is recorded', () => {
    expect(['stay_1', 'gone', 'stay_2'].map(outcome)).toEqual(['ok', 'protocol/tool_drift', 'ok']);
    expect(call('gone')['jsonrpc_id']).toBeNull();
    expect(ended('relist-removes')['list_changed']).toEqual({ seen: 1, relists: [{ outcome: 'changed', changed: [], removed: ['gone'], added: [ADDED_NAME] }] });
    // Said once the run ended, the server's name for it made inert (it holds an escape).
    expect(run.stderr).toContain(`caplab: server relist-removes listed 1 new tool(s) after list_changed (${inert(ADDED_NAME)}); they were not bound`);
  });
});

describe('hostile processes', () => {
  test('a server that dies mid-call: that call closed/connection_lost, the next server_closed and not sent, the others go on', () => {
    expect(['flood_echo', 'die', 'after_die'].map(outcome)).toEqual(['ok', 'closed/connection_lost', 'precondition/server_closed']);
    expect(call('after_die')['jsonrpc_id']).toBeNull();
    expect(ended('flood')['close']).toMatchObject({ exitCode: 3, survivors: [] });
    // A closed call's outcome is unknown: exit 4.
    expect(run.code).toBe(4);
  });

  test('a flood of stderr: the record keeps at most serverStderrBytes of its tail, the secret redacted, and nowhere else', () => {
    const { stderr } = ended('flood');
    expect(bytes(stderr)).toBeLessThanOrEqual(LIMITS.serverStderrBytes);
    expect(stderr.endsWith('dying with [redacted:HOSTILE_SECRET]\n')).toBe(true);
    const holding = filesUnder(run.runDir).filter((file) => file.text.includes(SECRET)).map((file) => file.path);
    expect({ holding, stdout: run.stdout.includes(SECRET), stderr: run.stderr.includes(SECRET) }).toEqual({ holding: [], stdout: false, stderr: false });
  });
});

describe('a result after the timeout', () => {
  test('timeout class, outcome unknown (exit 4), never retried; the late answer changes nothing', async () => {
    const late = await hostileConfiguredRun({ results: 'results' }, [
      ['slow', 'mcp__results__slow', {}],
      // The server answers `slow` as this call arrives, before answering it: late, whatever the timeout.
      ['count', 'mcp__results__count', {}],
    ], { flags: ['--timeout-ms', '200'] });
    const calls = late.events.filter((e) => e.type === 'call');
    expect(calls.map((c) => `${c.outcome.ok ? 'ok' : `${c.outcome.class}/${c.outcome.kind}`}`)).toEqual(['timeout/handler_timeout', 'ok']);
    expect(calls[0]!.outcome.message).toContain('outcome unknown');
    expect(late.code).toBe(4);
    const payload = JSON.parse(readFileSync(join(late.runDir, 'requests/02-request.json'), 'utf8'));
    const counted = JSON.parse(payload.messages.at(-1).content[1].content[0].text);
    // Sent once, cancelled once, never sent again.
    expect(counted).toEqual({ slow: 1, cancelled: 1, count: 1 });
  });
});

describe('servers that do not start', () => {
  test('one that never answers initialize and one that writes garbage: failed entries, the run goes on, nothing left running', async () => {
    const failing = await hostileConfiguredRun({ silent: 'silent', garbage: 'garbage' }, [], { flags: ['--startup-timeout-ms', '300'] });
    const starts = failing.events.find((e) => e.type === 'run_start')!['servers'];
    expect(starts.map((s: Record<string, any>) => [s.key, s.status, `${s.failure.class}/${s.failure.kind}`])).toEqual([
      ['silent', 'failed', 'timeout/deadline'],
      ['garbage', 'failed', 'protocol/framing'],
    ]);
    expect(failing.events.at(-1)).toMatchObject({ type: 'run_end' });
    expect(failing.stderr).toContain('server silent did not start (timeout/deadline)');
    expect(failing.pids).toHaveLength(2);
  });

  test('--require-server for one that cannot start: exit 3, no run dir, nothing left running', async () => {
    const required = await hostileConfiguredRun({ garbage: 'garbage' }, [], { flags: ['--require-server', 'garbage'] });
    expect({ code: required.code, events: required.events.length, error: JSON.parse(required.stdout).error.kind }).toEqual({ code: 3, events: 0, error: 'required_server' });
  });
});

describe('names that collide', () => {
  test.each([
    ['two entries named echo in one listing', 'duplicate' as const, 'mcp__dup__echo'],
    ['a.b and the name its rewrite gives', ['collide', 'dup'] as const, 'mcp__dup__a_b_'],
  ])('%s: duplicate_tool, exit 2, no run dir, the server closed', async (_, entry, name) => {
    const collided = await hostileConfiguredRun({ dup: entry }, []);
    const { error } = JSON.parse(collided.stdout);
    expect({ code: collided.code, events: collided.events.length, error: `${error.class}/${error.kind}` }).toEqual({ code: 2, events: 0, error: 'invalid_arguments/duplicate_tool' });
    expect(error.message).toContain(name);
  });
});

describe('a server that leaves its process group', () => {
  test('its setsid child is found and killed at close (caplab a child subreaper), and the close report says so', async () => {
    const orphaned = await hostileConfiguredRun({ orphan: 'orphan' }, [['echo', 'mcp__orphan__echo', {}]], { program: true });
    // The server and the child it started in a session of its own: both announced, both gone (checked by the run helper).
    expect(orphaned.pids).toHaveLength(2);
    const [end] = orphaned.events.find((e) => e.type === 'run_end')!['servers'];
    expect(end.close).toMatchObject({ survivors: [], orphans: { subreaper: true, killed: [{ count: 1 }], survivors: [] } });
  });
});

/** Whether a text holds a character a terminal acts on (a line break aside): `inert` would change it. */
const active = (text: string): string[] => text.split('\n').filter((line) => inert(line) !== line);

// At the file's top level, as SHARED is.
const SHOWN = scratchDir('caplab-chostile-');

describe('server strings on the terminal', () => {
  let shown: HostileConfiguredRun;
  beforeAll(async () => {
    shown = await hostileConfiguredRun({ names: 'names', endless: 'endless', garbage: 'garbage', results: 'results' }, [
      ['escape', model('names', 'esc\u001b[31mape'), { text: '\u001b[2J' }],
      ['error', 'mcp__results__result', { kind: 'error' }],
    ], { text: true, dir: SHOWN });
  }, 30_000);

  test('stdout: tool names, arguments and failures from a server are shown inert', () => {
    expect(active(shown.stdout)).toEqual([]);
    expect(shown.stdout).toContain('it went wrong \\x1b[31mred');
  });

  // BUG (src/cli/run-command.ts runPrepared, not this part's to fix): notices are written as they come, and a
  // listing's notice quotes the server's cursor with JSON.stringify, which leaves C1 controls (CSI) and bidi
  // overrides as they are; so does a failed server's message. Passes once notices are printed through `inert`.
  test('stderr: notices quoting a server (its cursor, its garbage) are shown inert', () => {
    expect(shown.stderr).toContain('server endless: tools/list stopped');
    expect(active(shown.stderr)).toEqual([]);
  });
});
