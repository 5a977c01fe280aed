import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { assetText } from '../assets/index.ts';
import { LIMITS } from '../contract/index.ts';
import { builtinScenarioNames, loadScenario, scriptedModel } from './scenario.ts';
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
