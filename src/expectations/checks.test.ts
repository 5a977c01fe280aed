import { beforeAll, describe, expect, test } from 'bun:test';
import type { AcceptanceCheck, Expectations } from '../harness/index.ts';
import { expectationChecks, type Observed, type ObservedCall, type ValidateOutput } from './checks.ts';
import { loadOutputValidator } from './validate.ts';

let validate: ValidateOutput;
beforeAll(async () => {
  validate = await loadOutputValidator();
});

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
  required: ['temperature', 'conditions'],
};
const schema = { schema: WEATHER_SCHEMA, protocolVersion: '2025-06-18' };

const success = (id: string, data: unknown, extra: Partial<ObservedCall> = {}): ObservedCall => ({ id, name: `mcp__s__${id}`, outcome: { ok: true, data }, ...extra });
const failure = (id: string, cls: string, kind: string): ObservedCall => ({ id, name: `mcp__s__${id}`, outcome: { ok: false, class: cls, kind } });
const run = (calls: ObservedCall[], stop = 'final_answer'): Observed => ({ calls, stop });

const checksOf = (expect: Expectations, observed: Observed): AcceptanceCheck[] => expectationChecks(expect, observed, validate);
const verdicts = (checks: readonly AcceptanceCheck[]): Record<string, string> => Object.fromEntries(checks.map((c) => [c.id, `${c.verdict}: ${c.evidence}`]));

describe('expectationChecks', () => {
  test('every check id in the scenario order, each passing with what was observed as evidence', () => {
    const expectations: Expectations = {
      calls: {
        weather: { ok: true, values: { '/temperature': 36, '/conditions': 'rain' }, output_valid: true },
        refused: { error: { class: 'business', kind: 'tool_error' } },
        anyKind: { error: { class: 'timeout' } },
      },
      end: { calls: 3, stop: 'final_answer' },
    };
    const observed = run([success('weather', { temperature: 36, conditions: 'rain' }, { resultSchema: schema }), failure('refused', 'business', 'tool_error'), failure('anyKind', 'timeout', 'call_timeout')]);
    const checks = checksOf(expectations, observed);
    expect(checks.map((c) => c.id)).toEqual(['call:weather:ok', 'call:weather:/temperature', 'call:weather:/conditions', 'call:weather:output_valid', 'call:refused:error', 'call:anyKind:error', 'end:calls', 'end:stop']);
    expect(verdicts(checks)).toEqual({
      'call:weather:ok': 'pass: ok',
      'call:weather:/temperature': 'pass: 36',
      'call:weather:/conditions': 'pass: "rain"',
      'call:weather:output_valid': 'pass: valid',
      'call:refused:error': 'pass: business/tool_error',
      'call:anyKind:error': 'pass: timeout/call_timeout',
      'end:calls': 'pass: 3 call(s)',
      'end:stop': 'pass: final_answer',
    });
    expect(checks[0]!.object).toBe('call weather (mcp__s__weather)');
  });

  test('each check fails with the observed evidence: the class/kind, the value found or absent, Ajv\'s first error', () => {
    const expectations: Expectations = {
      calls: {
        okButFailed: { ok: true },
        errorButOk: { error: { class: 'business' } },
        wrongKind: { error: { class: 'business', kind: 'tool_error' } },
        wrongClass: { error: { class: 'protocol', kind: 'tool_error' } },
        weather: { ok: true, values: { '/temperature': 37, '/wind': 3, '/conditions': 'rain' }, output_valid: true },
      },
      end: { calls: 2, stop: 'max_requests' },
    };
    const observed = run([
      failure('okButFailed', 'invalid_arguments', 'unknown_tool'),
      success('errorButOk', { content: [] }),
      failure('wrongKind', 'business', 'other_error'),
      failure('wrongClass', 'business', 'tool_error'),
      success('weather', { temperature: 36, conditions: 7 }, { resultSchema: schema }),
    ]);
    const got = verdicts(checksOf(expectations, observed));
    expect(got).toEqual({
      'call:okButFailed:ok': 'fail: invalid_arguments/unknown_tool',
      'call:errorButOk:error': 'fail: ok',
      'call:wrongKind:error': 'fail: business/other_error',
      'call:wrongClass:error': 'fail: business/tool_error',
      'call:weather:ok': 'pass: ok',
      'call:weather:/temperature': 'fail: 36',
      'call:weather:/wind': 'fail: absent',
      'call:weather:/conditions': 'fail: 7',
      'call:weather:output_valid': expect.stringMatching(/^fail: \/conditions: .*string.* \(type\)$/) as unknown as string,
      'end:calls': 'fail: 5 call(s)',
      'end:stop': 'fail: final_answer',
    });
  });

  test('values compare as canonical JSON: key order does not matter, type does (1 is not "1", 1 is 1.0)', () => {
    const data = { obj: { b: 2, a: [1, { y: null, x: true }] }, n: 1, s: '1' };
    const expectations: Expectations = { calls: { c: { ok: true, values: { '/obj': { a: [1, { x: true, y: null }], b: 2 }, '/n': 1.0, '/s': 1, '': data } } } };
    const got = verdicts(checksOf(expectations, run([success('c', data)])));
    expect(got['call:c:/obj']).toStartWith('pass');
    expect(got['call:c:/n']).toBe('pass: 1');
    expect(got['call:c:/s']).toBe('fail: "1"');
    expect(got['call:c:']).toStartWith('pass');
  });

  test('an expected null is not an absent value, nor is an absent value null', () => {
    const expectations: Expectations = { calls: { c: { ok: true, values: { '/here': null, '/missing': null } } } };
    const got = verdicts(checksOf(expectations, run([success('c', { here: null })])));
    expect(got).toEqual({ 'call:c:ok': 'pass: ok', 'call:c:/here': 'pass: null', 'call:c:/missing': 'fail: absent' });
  });

  test('a call not made fails every check of its id, each saying so', () => {
    const expectations: Expectations = { calls: { gone: { ok: true, values: { '/a': 1 }, output_valid: true }, gone2: { error: { class: 'business' } } } };
    const checks = checksOf(expectations, run([]));
    expect(checks.map((c) => `${c.id} ${c.verdict}`)).toEqual(['call:gone:ok fail', 'call:gone:/a fail', 'call:gone:output_valid fail', 'call:gone2:error fail']);
    for (const check of checks) expect(check.evidence).toBe('absent: no call with this id was made');
    expect(checks[0]!.object).toBe('call gone');
  });

  test('two calls under one id fail every check of that id (which one would it mean?)', () => {
    const expectations: Expectations = { calls: { twice: { ok: true, values: { '/a': 1 } } } };
    const checks = checksOf(expectations, run([success('twice', { a: 1 }), success('twice', { a: 1 })]));
    expect(checks.map((c) => `${c.verdict}: ${c.evidence}`)).toEqual(['fail: 2 calls with this id', 'fail: 2 calls with this id']);
  });

  test('values and output_valid of a failed call fail with its class/kind, never reading data', () => {
    const expectations: Expectations = { calls: { c: { ok: true, values: { '': null }, output_valid: true } } };
    const got = verdicts(checksOf(expectations, run([failure('c', 'business', 'tool_error')])));
    expect(got).toEqual({ 'call:c:ok': 'fail: business/tool_error', 'call:c:': 'fail: the call failed: business/tool_error', 'call:c:output_valid': 'fail: the call failed: business/tool_error' });
  });

  test('output_valid: no binding is a failure; a schema Ajv cannot compile or a revision caplab cannot read is a failure saying why', () => {
    const expectations: Expectations = { calls: { c: { ok: true, output_valid: true } } };
    const noBinding = checksOf(expectations, run([success('c', {})]))[1]!;
    expect(`${noBinding.verdict}: ${noBinding.evidence}`).toBe('fail: no binding: no schema to validate against');
    const oldRevision = checksOf(expectations, run([success('c', {}, { resultSchema: { schema: WEATHER_SCHEMA, protocolVersion: '1999-01-01' } })]))[1]!;
    expect(`${oldRevision.verdict}: ${oldRevision.evidence}`).toStartWith('fail: no validator: protocol version "1999-01-01"');
    const broken = checksOf(expectations, run([success('c', {}, { resultSchema: { schema: { type: 'no-such-type' }, protocolVersion: '2025-06-18' } })]))[1]!;
    expect(`${broken.verdict}: ${broken.evidence}`).toStartWith('fail: no validator:');
  });

  test('end:calls counts every call made (refused ones too); end absent or partial adds only the checks it names', () => {
    const calls = [success('a', {}), failure('b', 'invalid_arguments', 'unknown_tool')];
    expect(checksOf({ calls: {} }, run(calls))).toEqual([]);
    expect(verdicts(checksOf({ calls: {}, end: { calls: 2 } }, run(calls)))).toEqual({ 'end:calls': 'pass: 2 call(s)' });
    expect(verdicts(checksOf({ calls: {}, end: { calls: 0 } }, run([])))).toEqual({ 'end:calls': 'pass: 0 call(s)' });
    expect(verdicts(checksOf({ calls: {}, end: { stop: 'script_exhausted' } }, run(calls, 'script_exhausted')))).toEqual({ 'end:stop': 'pass: script_exhausted' });
  });

  test('evidence and conditions are cut (LIMITS.evidenceChars): a huge observed or expected value does not flood the record', () => {
    const huge = 'x'.repeat(100_000);
    const checks = checksOf({ calls: { c: { ok: true, values: { '/v': huge } } } }, run([success('c', { v: `${huge}y` })]));
    const check = checks[1]!;
    expect(check.verdict).toBe('fail');
    expect(check.evidence.length).toBeLessThan(200);
    expect(check.condition.length).toBeLessThan(300);
  });

  test('call ids that are prototype names are read as own keys of the expectations (Object.entries)', () => {
    const calls = JSON.parse('{"constructor":{"ok":true},"toString":{"error":{"class":"business"}}}') as Expectations['calls'];
    const got = verdicts(checksOf({ calls }, run([success('constructor', {}), failure('toString', 'business', 'tool_error')])));
    expect(got).toEqual({ 'call:constructor:ok': 'pass: ok', 'call:toString:error': 'pass: business/tool_error' });
  });
});

test('a check reads inert: control characters of an id, a pointer or an error kind are written out, never sent to a terminal', () => {
  const id = 'a\u001b[31mRED\u0007';
  const expectations: Expectations = { calls: { [id]: { ok: true, values: { '/x\u001b[2J': 1 } }, b: { error: { class: 'business', kind: 'k\u001b]0;title\u0007' } } } };
  const checks = checksOf(expectations, run([success(id, {}), failure('b', 'business', 'other')]));
  expect(checks.map((c) => c.id)).toEqual(['call:a\\x1b[31mRED\\x07:ok', 'call:a\\x1b[31mRED\\x07:/x\\x1b[2J', 'call:b:error']);
  for (const check of checks) for (const text of [check.id, check.object, check.condition, check.evidence]) expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
  expect(checks[2]!.condition).toBe('the call failed business/k\\x1b]0;title\\x07');
});
