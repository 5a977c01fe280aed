import { beforeAll, describe, expect, test } from 'bun:test';
import { configuredContract, listedCompiler, parseScenario, readListedEntry, type CompileListed, type ExpectationsScenario, type OfferedTool } from '../harness/index.ts';
import { versionProfile } from '../mcp/index.ts';
import { checkOutputTools, checkScripted } from './scenario-checks.ts';

const usage = { input_tokens: 0, output_tokens: 0 };
const call = (id: string, name = 'mcp__s__echo') => ({ id, name, arguments: {} });

/** An expectations scenario of these responses' calls (one response per batch) and these call expectations, parsed as a file is. */
function scenario(batches: ReturnType<typeof call>[][], calls: Record<string, unknown>): ExpectationsScenario {
  const doc = { task: 'expectations', name: 's', description: 'd', servers: ['s'], responses: [...batches.map((tool_calls) => ({ tool_calls, usage })), { text: 'done', usage }], expect: { calls } };
  const parsed = parseScenario(JSON.stringify(doc), 's.json');
  if (!parsed.ok) throw new Error(parsed.message);
  if (parsed.value.task !== 'expectations') throw new Error('not an expectations scenario');
  return parsed.value;
}

const said = (outcome: { ok: boolean; class?: string; kind?: string; message?: string }): string => (outcome.ok ? 'ok' : `${outcome.class}/${outcome.kind}: ${outcome.message}`);

describe('checkScripted', () => {
  test('an expectation for every id a scripted call makes is fine, across responses', () => {
    expect(said(checkScripted(scenario([[call('a'), call('b')], [call('c')]], { a: { ok: true }, c: { error: { class: 'business' } } })))).toBe('ok');
  });

  test('an expectation for an id no response makes is bad_scenario naming it', () => {
    expect(said(checkScripted(scenario([[call('a')]], { a: { ok: true }, ghost: { ok: true } })))).toBe('invalid_arguments/bad_scenario: expect.calls.ghost: no scripted response makes a call with this id');
  });

  test('an expected id two calls share is bad_scenario, in one response or across two', () => {
    expect(said(checkScripted(scenario([[call('a'), call('a')]], { a: { ok: true } })))).toBe('invalid_arguments/bad_scenario: expect.calls.a: 2 scripted calls share this id; an expectation names one call');
    expect(said(checkScripted(scenario([[call('a')], [call('a', 'mcp__s__other')]], { a: { ok: true } })))).toContain('2 scripted calls share this id');
  });

  test('a shared id nobody expects is left to the pipeline (duplicate_call_id is a model error it records)', () => {
    expect(said(checkScripted(scenario([[call('a'), call('a'), call('b')]], { b: { ok: true } })))).toBe('ok');
  });

  test('prototype names as call ids: a call `toString` does not make `valueOf` expected, nor is a missing `hasOwnProperty` found on a Map', () => {
    expect(said(checkScripted(scenario([[call('toString')]], { toString: { ok: true } })))).toBe('ok');
    expect(said(checkScripted(scenario([[call('toString')]], { hasOwnProperty: { ok: true } })))).toContain('expect.calls.hasOwnProperty: no scripted response');
  });
});

describe('checkOutputTools', () => {
  let compile: CompileListed;
  beforeAll(async () => {
    compile = await listedCompiler(versionProfile('2025-06-18')!);
  });

  /** A listed tool as the host offers it, under the name the model calls it by. */
  const offer = (name: string, listed: Record<string, unknown>): OfferedTool => {
    const read = readListedEntry({ name: name.split('__').at(-1), inputSchema: { type: 'object' }, ...listed });
    const made = read.ok ? configuredContract('s', read.value, compile, 1_000) : read;
    if (!made.ok) throw new Error(made.message);
    return { binding: { tool: name, server: { key: 's' } }, contract: made.value.contract, implementation: { kind: 'mcp' } as unknown as OfferedTool['implementation'] };
  };
  const typed = () => offer('mcp__s__weather', { outputSchema: { type: 'object', properties: { t: { type: 'number' } } } });
  const plain = () => offer('mcp__s__echo', {});

  test('output_valid on a listed tool with an outputSchema is fine; expectations without it need no tool at all', () => {
    const s = scenario([[call('w', 'mcp__s__weather'), call('x', 'mcp__s__nowhere')]], { w: { ok: true, output_valid: true }, x: { error: { class: 'invalid_arguments', kind: 'unknown_tool' } } });
    expect(said(checkOutputTools(s, [typed(), plain()]))).toBe('ok');
  });

  test('output_valid on a tool without an outputSchema is bad_scenario naming the call and the tool', () => {
    const s = scenario([[call('e', 'mcp__s__echo')]], { e: { ok: true, output_valid: true } });
    expect(said(checkOutputTools(s, [typed(), plain()]))).toBe('invalid_arguments/bad_scenario: expect.calls.e.output_valid: tool "mcp__s__echo" lists no outputSchema, so there is nothing its data must validate against');
  });

  test('output_valid on a tool no server lists is bad_scenario naming the tool', () => {
    const s = scenario([[call('g', 'mcp__s__gone')]], { g: { ok: true, output_valid: true } });
    expect(said(checkOutputTools(s, [typed(), plain()]))).toBe('invalid_arguments/bad_scenario: expect.calls.g.output_valid: the call\'s tool "mcp__s__gone" is not one the scenario\'s servers list');
    expect(said(checkOutputTools(s, []))).toContain('is not one the scenario');
  });

  test('the tool is the one the expected call names, not another tool of the same server', () => {
    const s = scenario([[call('e', 'mcp__s__echo'), call('w', 'mcp__s__weather')]], { e: { ok: true, output_valid: true } });
    expect(said(checkOutputTools(s, [typed(), plain()]))).toContain('expect.calls.e.output_valid: tool "mcp__s__echo" lists no outputSchema');
  });
});
