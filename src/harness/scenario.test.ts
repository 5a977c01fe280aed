import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { assetText } from '../assets/index.ts';
import { LIMITS } from '../contract/index.ts';
import { builtinScenarioNames, loadScenario, parseScenario, scenarioTask, scriptedModel } from './scenario.ts';
import { EXCERPT_SCENARIOS } from '../excerpt/index.ts';

const scratch = scratchDir('caplab-scenario-');

const kindOf = (outcome: { ok: boolean; class?: string; kind?: string }) => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}`);

/** The built-in `happy` scenario with the first call's arguments replaced by `args` (JSON text). */
function happyWith(args: string): string {
  const text = assetText('fixtures/scenarios/happy.json')!;
  const scenario = JSON.parse(text) as { responses: { tool_calls: { arguments: unknown }[] }[] };
  scenario.responses[0]!.tool_calls[0]!.arguments = '@ARGS@';
  return JSON.stringify(scenario).replace('"@ARGS@"', args);
}

function write(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

test('a number JSON cannot carry (1e400) is refused at load, naming where', () => {
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, write('nonfinite.json', happyWith('{"source_id":"alpha","n":1e400}')));
  expect(kindOf(loaded)).toBe('invalid_arguments/non_finite_number');
  expect(loaded.ok ? '' : loaded.message).toContain('$.responses[0].tool_calls[0].arguments.n');
});

test('nesting past the file limit is refused at load (a 10 KB file once became a 50 MB response file)', () => {
  const deep = `{"source_id":"alpha","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, write('deep.json', happyWith(deep))))).toBe('invalid_arguments/too_deep');
});

test('arguments nested past the arguments limit but within the file limit load: the pipeline refuses the call', () => {
  const depth = LIMITS.argumentsDepth + 4;
  const args = `{"source_id":"alpha","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, write('args-deep.json', happyWith(args))))).toBe('ok');
});

test('a device, a FIFO or a directory is refused by kind, never read (/dev/zero once read without end)', () => {
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, '/dev/zero'))).toBe('precondition/not_regular_file');
  const fifo = join(scratch, 'scenario.fifo');
  expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0);
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, fifo))).toBe('precondition/not_regular_file');
  const dir = join(scratch, 'a-dir');
  mkdirSync(dir);
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, dir))).toBe('precondition/not_regular_file');
});

test('a file past LIMITS.scenarioBytes is refused as too_large; a missing one is still unknown_scenario', () => {
  const big = write('big.json', happyWith(`{"source_id":"alpha","pad":"${'x'.repeat(LIMITS.scenarioBytes)}"}`));
  const loaded = loadScenario(EXCERPT_SCENARIOS.folder, big);
  expect(kindOf(loaded)).toBe('precondition/too_large');
  expect(loaded.ok ? '' : loaded.message).toContain(big);
  expect(kindOf(loadScenario(EXCERPT_SCENARIOS.folder, join(scratch, 'missing.json')))).toBe('invalid_arguments/unknown_scenario');
});

const happy = JSON.parse(assetText('fixtures/scenarios/happy.json')!);
const fromText = (doc: unknown) => loadScenario(EXCERPT_SCENARIOS.folder, '/scenarios/x.json', () => ({ ok: true, value: JSON.stringify(doc) }));

test('a scenario file loads; a field the schema does not know (such as the retired builtin_check) is refused by name', () => {
  expect(fromText(happy).ok).toBe(true);
  const refused = fromText({ ...happy, builtin_check: true });
  expect(refused.ok ? 'ok' : `${refused.class}/${refused.kind}`).toBe('invalid_arguments/bad_scenario');
  if (!refused.ok) expect(refused.message).toContain('builtin_check');
});

const usage = { input_tokens: 1, output_tokens: 1 };
const withResponses = (responses: unknown[]) => fromText({ ...happy, responses });

test.each([
  ['an unknown key in a text step', [{ text: 'done', usage, scripted: true }], 'responses.0: unknown key "scripted"'],
  ['an unknown key in a call step', [{ tool_calls: [{ id: 'a', name: 'n', arguments: {} }], usage, scripted: true }], 'responses.0: unknown key "scripted"'],
  ['an unknown key in a call', [{ tool_calls: [{ id: 'a', name: 'n', arguments: {}, input: {} }], usage }], 'responses.0.tool_calls.0: unknown key "input"'],
  ['a step without usage', [{ text: 'done' }], 'responses.0.usage: is required'],
  ['a step with neither text nor tool_calls', [{ usage }], 'responses.0: a step has tool_calls or text'],
  ['text that is not a string', [{ text: 3, usage }], 'responses.0.text: Invalid type: Expected string but received 3'],
  ['an unknown top-level key', [{ text: 'done', usage }], 'unknown key "builtin_check"'],
])('a scenario with %s is refused naming the field, never "Expected Object but received Object"', (_, responses, says) => {
  const loaded = says.includes('builtin_check') ? fromText({ ...happy, responses, builtin_check: true }) : withResponses(responses);
  expect(kindOf(loaded)).toBe('invalid_arguments/bad_scenario');
  const message = loaded.ok ? '' : loaded.message;
  expect(message).toBe(`/scenarios/x.json: ${says}`);
});

test('both step shapes still load: tool calls with optional text, and a final text', () => {
  const call = { tool_calls: [{ id: 'a', name: 'read_source', arguments: {} }], usage };
  expect(kindOf(withResponses([call, { ...call, text: 'reading' }, { text: 'done', usage }]))).toBe('ok');
});

/**
 * The scripted model never passes for a model (README: "always labelled
 * scripted; usage is synthetic"): the model and every response it replays,
 * in every built-in scenario, say so.
 */
test('every response of every built-in scenario is labelled scripted, with synthetic usage', async () => {
  const names = builtinScenarioNames(EXCERPT_SCENARIOS.folder);
  expect(names.length).toBeGreaterThan(3);
  let responses = 0;
  for (const name of names) {
    const scenario = loadScenario(EXCERPT_SCENARIOS.folder, name);
    if (!scenario.ok) throw new Error(scenario.message);
    const model = scriptedModel(scenario.value);
    expect([model.name, model.origin, model.record]).toEqual([`scripted:${name}`, 'scripted', { scenario: name, model: { name: `scripted:${name}`, scripted: true } }]);
    for (let index = 0; ; index++) {
      const response = await model.respond({ id: `req-${index}`, index, payload: new Uint8Array() });
      if ('exhausted' in response) {
        expect(response.exhausted).toBe('the scripted model has no response left');
        break;
      }
      const { origin, usage, message } = response;
      expect({ name, index, origin, synthetic: usage.synthetic, file: message.scripted }).toEqual({ name, index, origin: 'scripted', synthetic: true, file: true });
      responses++;
    }
  }
  expect(responses).toBeGreaterThan(names.length);
});

// The scenario format's fields (issue 23): every new field refused by name when bad, every built-in file still valid.
const EVERYTHING = JSON.parse(readFileSync(join(import.meta.dir, '../../fixtures/examples/everything.scenario.json'), 'utf8'));
const parsed = (doc: unknown) => parseScenario(JSON.stringify(doc), 'x.json');
const refusal = (doc: unknown): string => {
  const outcome = parsed(doc);
  return outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}: ${outcome.message}`;
};
/** The example with one edit. */
const edited = (edit: (doc: any) => void): unknown => {
  const doc = structuredClone(EVERYTHING);
  edit(doc);
  return doc;
};

test('the example and every built-in scenario parse; the example is the expectations task, the built-ins the excerpt', () => {
  const example = parsed(EVERYTHING);
  expect(example.ok && scenarioTask(example.value)).toBe('expectations');
  for (const name of builtinScenarioNames(EXCERPT_SCENARIOS.folder)) {
    const builtin = parseScenario(assetText(`${EXCERPT_SCENARIOS.folder}/${name}.json`)!, name);
    expect(builtin.ok ? scenarioTask(builtin.value) : builtin.message).toBe('excerpt');
  }
});

test.each([
  ['task: an unknown value', (d: any) => (d.task = 'smoke'), 'task: unknown task "smoke" (known: excerpt, expectations)'],
  ['task: not a string', (d: any) => (d.task = 3), 'task: unknown task 3'],
  ['task: null', (d: any) => (d.task = null), 'task: unknown task null'],
  ['servers: empty', (d: any) => (d.servers = []), 'servers: Invalid length'],
  ['servers: absent (expectations need theirs)', (d: any) => delete d.servers, 'servers: is required'],
  ['servers: a key twice', (d: any) => (d.servers = ['everything', 'everything']), 'servers: names a server twice'],
  ['servers: a key with a dot', (d: any) => (d.servers = ['my.server']), 'servers.0: is not a server key'],
  ['servers: an empty key', (d: any) => (d.servers = ['']), 'servers.0: is not a server key'],
  ['servers: a key of 65 characters', (d: any) => (d.servers = ['k'.repeat(65)]), 'servers.0: is not a server key'],
  ['servers: not an array', (d: any) => (d.servers = 'everything'), 'servers: Invalid type'],
  ['permissions: an unknown key', (d: any) => (d.permissions.defaultMode = 'bypassPermissions'), 'permissions: unknown key "defaultMode"'],
  ['permissions: a rule that is not a string', (d: any) => (d.permissions.deny = [3]), 'permissions.deny.0: Invalid type'],
  ['max_requests: 0', (d: any) => (d.max_requests = 0), 'max_requests: Invalid value'],
  ['max_requests: 65', (d: any) => (d.max_requests = 65), `max_requests: is at most ${LIMITS.scenarioRequests} (LIMITS.scenarioRequests)`],
  ['max_requests: 1.5', (d: any) => (d.max_requests = 1.5), 'max_requests: Invalid integer'],
  ['max_requests: a string', (d: any) => (d.max_requests = '8'), 'max_requests: Invalid type'],
  ['values with error', (d: any) => (d.expect.calls.resource.values = { '/a': 1 }), 'expect.calls.resource: values and output_valid need ok: true, not error'],
  ['output_valid with error', (d: any) => (d.expect.calls.resource.output_valid = true), 'expect.calls.resource: values and output_valid need ok: true, not error'],
  ['both ok and error', (d: any) => (d.expect.calls.echo.error = { class: 'business' }), 'expect.calls.echo: a call expectation has exactly one of ok: true and error'],
  ['neither ok nor error', (d: any) => (d.expect.calls.echo = {}), 'expect.calls.echo: a call expectation has exactly one of ok: true and error'],
  ['ok: false', (d: any) => (d.expect.calls.echo = { ok: false }), 'expect.calls.echo.ok: Invalid type'],
  ['output_valid: false', (d: any) => (d.expect.calls.weather.output_valid = false), 'expect.calls.weather.output_valid: Invalid type'],
  ['an error class caplab does not have', (d: any) => (d.expect.calls.resource.error.class = 'oops'), 'expect.calls.resource.error.class: Invalid type'],
  ['an empty error kind', (d: any) => (d.expect.calls.resource.error.kind = ''), 'expect.calls.resource.error.kind: Invalid length'],
  ['an unknown key in error', (d: any) => (d.expect.calls.resource.error.message = 'x'), 'expect.calls.resource.error: unknown key "message"'],
  ['a pointer without its leading /', (d: any) => (d.expect.calls.weather.values = { temperature: 36 }), 'is not a JSON Pointer (RFC 6901)'],
  ['a pointer with a bare ~', (d: any) => (d.expect.calls.weather.values = { '/a~b': 1 }), 'is not a JSON Pointer (RFC 6901)'],
  ['a pointer with ~2', (d: any) => (d.expect.calls.weather.values = { '/a~2': 1 }), 'is not a JSON Pointer (RFC 6901)'],
  ['a URI-fragment pointer', (d: any) => (d.expect.calls.weather.values = { '#/a': 1 }), 'is not a JSON Pointer (RFC 6901)'],
  ['skill in an expectations scenario', (d: any) => (d.skill = 'builtin:excerpt-card'), 'unknown key "skill"'],
  ['an excerpt expect in an expectations scenario', (d: any) => (d.expect.accepted = true), 'expect: unknown key "accepted"'],
  ['an unknown key in a call expectation', (d: any) => (d.expect.calls.echo.equals = 1), 'expect.calls.echo: unknown key "equals"'],
  ['an unknown key in end', (d: any) => (d.expect.end.requests = 3), 'expect.end: unknown key "requests"'],
  ['an unknown stop', (d: any) => (d.expect.end.stop = 'interrupted'), 'expect.end.stop: Invalid type'],
  ['a negative end.calls', (d: any) => (d.expect.end.calls = -1), 'expect.end.calls: Invalid value'],
  ['an unknown top-level key', (d: any) => (d.timeout_ms = 5), 'unknown key "timeout_ms"'],
  ['expect.calls absent', (d: any) => delete d.expect.calls, 'expect.calls: is required'],
  ['an empty call id', (d: any) => (d.expect.calls[''] = { ok: true }), 'expect.calls'],
  ['a call id __proto__ (valibot would drop it)', (d: any) => (d.expect.calls = JSON.parse('{"__proto__":{"ok":true}}')), 'expect.calls: the call id "__proto__" cannot be kept'],
  ['a call id constructor (valibot would drop it)', (d: any) => (d.expect.calls = JSON.parse('{"echo":{"ok":true},"constructor":{"ok":true}}')), 'expect.calls: the call id "constructor" cannot be kept'],
  ['a call id prototype (valibot would drop it)', (d: any) => (d.expect.calls = { prototype: { ok: true } }), 'expect.calls: the call id "prototype" cannot be kept'],
  ['a values key __proto__', (d: any) => (d.expect.calls.weather.values = JSON.parse('{"/temperature":36,"__proto__":{"x":1}}')), 'expect.calls.weather.values: the key "__proto__" cannot be kept'],
  ['a values key constructor', (d: any) => (d.expect.calls.weather.values = { constructor: 1 }), 'expect.calls.weather.values: the key "constructor" cannot be kept'],
  ['a name of 65 characters', (d: any) => (d.name = 'n'.repeat(65)), `name: is at most ${LIMITS.scenarioNameChars} characters (LIMITS.scenarioNameChars)`],
])('an expectations scenario with %s is bad_scenario naming the field', (_, edit, says) => {
  const said = refusal(edited(edit));
  expect(said).toStartWith('invalid_arguments/bad_scenario: x.json: ');
  expect(said).toContain(says);
});

test('the new fields on an excerpt scenario: servers, permissions and max_requests are checked as for any task', () => {
  expect(refusal({ ...happy, servers: ['a'], permissions: { allow: ['read_source'] }, max_requests: 64 })).toBe('ok');
  expect(refusal({ ...happy, task: 'excerpt' })).toBe('ok');
  expect(refusal({ ...happy, servers: [] })).toContain('servers: Invalid length');
  expect(refusal({ ...happy, max_requests: 65 })).toContain('max_requests: is at most 64');
  expect(refusal({ ...happy, permissions: { allowed: [] } })).toContain('permissions: unknown key "allowed"');
  expect(refusal({ ...happy, expect: { accepted: true, calls: {} } })).toContain('expect: unknown key "calls"');
  // An expectations file without its `task` is read as the excerpt's, and told so.
  expect(refusal(edited((d) => delete d.task))).toContain('(expect.calls is the expectations task\'s: add "task": "expectations")');
  expect(refusal({ ...happy, name: 'n'.repeat(65) })).toContain('name: is at most 64 characters');
});

test('what the limits allow still parses: 64 requests, a 64-character name, the pointer "" and "/", ids with odd characters', () => {
  const doc = edited((d) => {
    d.max_requests = LIMITS.scenarioRequests;
    d.name = 'n'.repeat(LIMITS.scenarioNameChars);
    d.expect.calls.weather.values = { '': { temperature: 36 }, '/': 1, '/a~0~1b/0/-': 2 };
  });
  const outcome = parsed(doc);
  expect(outcome.ok ? Object.keys((outcome.value.expect as { calls: { weather: { values: object } } }).calls.weather.values) : outcome.message).toEqual(['', '/', '/a~0~1b/0/-']);
  const odd = edited((d) => {
    d.responses[0].tool_calls[0].id = 'toString';
    d.expect.calls = { toString: { ok: true }, 'a:b/c~d': { ok: true }, ['i'.repeat(10_000)]: { ok: true } };
  });
  const oddParsed = parsed(odd);
  expect(oddParsed.ok ? Object.keys((oddParsed.value.expect as { calls: object }).calls).map((k) => k.length) : oddParsed.message).toEqual([8, 7, 10_000]);
});

test('values of any JSON within the file depth load and are kept as given (deep, large, null, false)', () => {
  const deep = JSON.parse(`${'['.repeat(50)}1${']'.repeat(50)}`);
  const large = 'x'.repeat(1_000_000);
  const outcome = parsed(edited((d) => (d.expect.calls.weather.values = { '/a': deep, '/b': large, '/c': null, '/d': false })));
  expect(outcome.ok && (outcome.value.expect as { calls: Record<string, { values?: object }> }).calls['weather']!.values).toEqual({ '/a': deep, '/b': large, '/c': null, '/d': false });
  const tooDeep = parseScenario(JSON.stringify(edited((d) => (d.expect.calls.weather.values = { '/a': JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) }))), 'x.json');
  expect(kindOf(tooDeep)).toBe('invalid_arguments/too_deep');
});

test('a scenario that is not an object is bad_scenario, not a crash', () => {
  for (const text of ['null', '[]', '"expectations"', '3', '{"task":"expectations"}']) expect(kindOf(parseScenario(text, 'x.json'))).toBe('invalid_arguments/bad_scenario');
});
