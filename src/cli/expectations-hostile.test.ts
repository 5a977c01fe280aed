/**
 * `caplab run --scenario FILE --mcp-config FILE` with expectations scenarios
 * as a hostile or careless user writes them, against the test server
 * (src/cli/testing/configured-server.ts, faster than server-everything):
 * each refusal is exit 2 with no run dir and no server left running; a
 * required server that does not start is exit 3; a call to an unknown name
 * stays the model's error; `max_requests` and `permissions` reach the run.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { callsOf, caplab, events, serversLeft, testServer, writeConfig } from './testing/configured-kit.ts';
import { verifyJson } from './verify-test-kit.ts';

const usage = { input_tokens: 0, output_tokens: 0 };
type Call = { id: string; name: string; arguments: unknown };
const echo = (id: string, text = id): Call => ({ id, name: 'mcp__srv__echo', arguments: { text } });

/** An expectations scenario naming server `srv`: one response per batch, then a final answer; `doc` overrides any field. */
function scenarioDoc(batches: Call[][], calls: Record<string, unknown>, doc: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task: 'expectations',
    name: 'hostile',
    description: 'Calls the test server.',
    servers: ['srv'],
    permissions: { allow: ['mcp__srv__echo'] },
    responses: [...batches.map((tool_calls) => ({ tool_calls, usage })), { text: 'done', usage }],
    expect: { calls },
    ...doc,
  };
}

/** A scratch dir with a config of `srv` (the echo test server, marked) and the scenario `doc` written as a file. */
function setup(doc: unknown, servers: Record<string, { command: string; args?: string[] }> = { srv: testServer('echo') }): { dir: string; mark: string; config: string; scenario: string; out: string } {
  const dir = scratchDir();
  const mark = `expectations-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, servers);
  const scenario = join(dir, 'hostile.scenario.json');
  writeFileSync(scenario, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return { dir, mark, config, scenario, out: join(dir, 'run') };
}

/** Runs the scenario; returns the exit code, stderr's `class/kind: message` line and whether a run dir exists, once no marked server runs. */
async function runIt(at: ReturnType<typeof setup>, ...flags: string[]): Promise<{ code: number; err: string; out: string; runDir: boolean; left: number[] }> {
  const run = await caplab(['run', '--scenario', at.scenario, '--mcp-config', at.config, '--out', at.out, ...flags], at.dir);
  return { code: run.code, err: run.err, out: run.out, runDir: existsSync(at.out), left: await serversLeft(at.mark) };
}

const refusedWith = async (at: ReturnType<typeof setup>, kind: string, says: string, ...flags: string[]): Promise<void> => {
  const run = await runIt(at, ...flags);
  expect({ code: run.code, runDir: run.runDir, left: run.left }).toEqual({ code: 2, runDir: false, left: [] });
  expect(run.err).toContain(`caplab: ${kind}: `);
  expect(run.err).toContain(says);
};

const oneEcho = (expectation: Record<string, unknown> = { a: { ok: true } }, doc: Record<string, unknown> = {}) => scenarioDoc([[echo('a')]], expectation, doc);

describe('refused before any call: exit 2, no run dir, no server left running', () => {
  test.each([
    ['a bad field', () => oneEcho(undefined, { max_requests: 0 }), 'invalid_arguments/bad_scenario', 'max_requests'],
    ['max_requests 65', () => oneEcho(undefined, { max_requests: 65 }), 'invalid_arguments/bad_scenario', 'max_requests: is at most 64'],
    ['an unknown key', () => oneEcho(undefined, { retries: 3 }), 'invalid_arguments/bad_scenario', 'unknown key "retries"'],
    ['an expectation for an id no response makes', () => oneEcho({ a: { ok: true }, ghost: { ok: true } }), 'invalid_arguments/bad_scenario', 'expect.calls.ghost: no scripted response makes a call with this id'],
    ['two calls sharing an expected id', () => scenarioDoc([[echo('a')], [echo('a')]], { a: { ok: true } }), 'invalid_arguments/bad_scenario', 'expect.calls.a: 2 scripted calls share this id'],
    ['values with error', () => oneEcho({ a: { error: { class: 'business' }, values: { '/x': 1 } } }), 'invalid_arguments/bad_scenario', 'values and output_valid need ok: true, not error'],
    ['output_valid with error', () => oneEcho({ a: { error: { class: 'business' }, output_valid: true } }), 'invalid_arguments/bad_scenario', 'values and output_valid need ok: true, not error'],
    ['a call id valibot would drop (constructor)', () => scenarioDoc([[echo('constructor')]], { constructor: { ok: true } }), 'invalid_arguments/bad_scenario', 'the call id "constructor" cannot be kept'],
    ['a server the config lacks', () => oneEcho(undefined, { servers: ['srv', 'absent'] }), 'invalid_arguments/unknown_server', 'scenario hostile servers names absent'],
    ['a config name as written where its mapped key is needed', () => oneEcho(undefined, { servers: ['my.server'] }), 'invalid_arguments/bad_scenario', 'servers.0: is not a server key'],
    ['a permission rule naming a tool the servers do not list', () => oneEcho(undefined, { permissions: { allow: ['mcp__srv__echo', 'mcp__srv__nope'] } }), 'invalid_arguments/unknown_name', 'permissions.allow rule "mcp__srv__nope": names no tool or server this run knows'],
    ['a deny rule naming a server the config lacks', () => oneEcho(undefined, { permissions: { deny: ['mcp__other__echo'] } }), 'invalid_arguments/unknown_name', 'permissions.deny rule "mcp__other__echo"'],
    ['output_valid on a tool without an outputSchema', () => oneEcho({ a: { ok: true, output_valid: true } }), 'invalid_arguments/bad_scenario', 'expect.calls.a.output_valid: tool "mcp__srv__echo" lists no outputSchema'],
    ['output_valid on a tool no server lists', () => scenarioDoc([[{ id: 'a', name: 'mcp__srv__nope', arguments: {} }]], { a: { ok: true, output_valid: true } }), 'invalid_arguments/bad_scenario', 'is not one the scenario\'s servers list'],
  ])('%s', async (_, doc, kind, says) => {
    await refusedWith(setup(doc()), kind, says);
  }, 30_000);

  test('a rule naming a configured server the scenario did not choose (it never starts, so the rule names nothing)', async () => {
    const at = setup(oneEcho(undefined, { permissions: { allow: ['mcp__srv__echo', 'mcp__other__echo'] } }), { srv: testServer('echo'), other: testServer('echo') });
    await refusedWith(at, 'invalid_arguments/unknown_name', 'permissions.allow rule "mcp__other__echo"');
  }, 30_000);

  test('--require-server of a config server the scenario does not name (it would never start, the flag silently met)', async () => {
    const at = setup(oneEcho(), { srv: testServer('echo'), other: { command: process.execPath, args: ['-e', 'process.exit(0)'] } });
    await refusedWith(at, 'invalid_arguments/bad_flag', '--require-server other: scenario hostile servers does not name it', '--require-server', 'other');
    expect((await runIt(setup(oneEcho()), '--require-server', 'srv')).code).toBe(0);
  }, 30_000);

  test.each([['--transport mcp'], ['--transport local'], ['--skills skills'], ['--no-skill']])('%s with an expectations scenario', async (flags) => {
    const flag = flags.split(' ');
    await refusedWith(setup(oneEcho()), 'invalid_arguments/bad_flag', `${flag[0]} does not apply to scenario hostile (task expectations)`, ...flag);
  }, 30_000);

  test('a scenario naming servers without --mcp-config', async () => {
    const at = setup(oneEcho());
    const run = await caplab(['run', '--scenario', at.scenario, '--out', at.out], at.dir);
    expect([run.code, existsSync(at.out)]).toEqual([2, false]);
    expect(run.err).toContain('caplab: invalid_arguments/bad_flag: scenario hostile names servers (srv); give --mcp-config FILE');
  });

  test('an excerpt scenario naming servers without --mcp-config is refused too', async () => {
    const at = setup({ name: 'excerpt-servers', description: 'd', servers: ['srv'], responses: [{ text: 'done', usage }], expect: { accepted: false } });
    const run = await caplab(['run', '--scenario', at.scenario, '--out', at.out], at.dir);
    expect([run.code, existsSync(at.out)]).toEqual([2, false]);
    expect(run.err).toContain('names servers (srv); give --mcp-config FILE');
  });

  test('a file that is not JSON, or JSON that is not an object', async () => {
    await refusedWith(setup('{"task":"expectations",'), 'invalid_arguments/bad_scenario', 'hostile.scenario.json');
    await refusedWith(setup('null'), 'invalid_arguments/bad_scenario', 'hostile.scenario.json');
  });

  test('a name past LIMITS.scenarioNameChars (its copy would be a path segment the record cannot hold)', async () => {
    await refusedWith(setup(oneEcho(undefined, { name: 'n'.repeat(300) })), 'invalid_arguments/bad_scenario', 'name: is at most 64 characters');
  });
});

test('a required server that does not start: run exits 3, no run dir, the other server closed', async () => {
  const at = setup(oneEcho(undefined, { servers: ['srv', 'quits'] }), { srv: testServer('echo'), quits: { command: process.execPath, args: ['-e', 'process.exit(0)'] } });
  const run = await runIt(at);
  expect({ code: run.code, runDir: run.runDir, left: run.left }).toEqual({ code: 3, runDir: false, left: [] });
  expect(run.err).toContain('spawn/required_server');
  expect(run.err).toContain('quits');
}, 30_000);

test('only the servers a scenario names start: another entry of the config, which would fail, is never launched', async () => {
  const at = setup(oneEcho(), { srv: testServer('echo'), quits: { command: process.execPath, args: ['-e', 'process.exit(0)'] } });
  const run = await runIt(at);
  expect([run.code, run.left]).toEqual([0, []]);
  expect(events(at.out)[0]!['servers'].map((s: { key: string }) => s.key)).toEqual(['srv']);
  expect(run.err).not.toContain('quits');
}, 30_000);

test('a scripted call to an unknown name stays a model error: invalid_arguments/unknown_tool, handler not entered, the run goes on', async () => {
  const calls = { typo: { error: { class: 'invalid_arguments', kind: 'unknown_tool' } }, after: { ok: true, values: { '/content/0/text': '{"text":"after"}' } } };
  const doc = scenarioDoc([[{ id: 'typo', name: 'mcp__srv__ecko', arguments: {} }], [echo('after')]], {}, { expect: { calls, end: { calls: 2, stop: 'final_answer' } } });
  const at = setup(doc);
  const run = await runIt(at);
  expect([run.code, run.left]).toEqual([0, []]);
  const made = callsOf(at.out);
  expect([made['typo']!.outcome.class, made['typo']!.outcome.kind, made['typo']!.handler_entered]).toEqual(['invalid_arguments', 'unknown_tool', false]);
  expect([made['after']!.outcome.ok, made['after']!.handler_entered]).toEqual([true, true]);
  expect((await verifyJson(at.out)).code).toBe(0);
}, 30_000);

describe('max_requests', () => {
  /** Nine responses of one echo call each, then the final answer: ten responses. */
  const tenResponses = (doc: Record<string, unknown>) => scenarioDoc(Array.from({ length: 9 }, (_, n) => [echo(`c${n + 1}`)]), {}, doc);
  const endOf = (out: string) => events(out).find((e) => e.type === 'run_end')!;

  test('10 responses with max_requests 10 make 10 requests and end on the final answer', async () => {
    const at = setup(tenResponses({ max_requests: 10, expect: { calls: {}, end: { calls: 9, stop: 'final_answer' } } }));
    const run = await runIt(at);
    expect([run.code, endOf(at.out).requests, endOf(at.out).stop]).toEqual([0, 10, 'final_answer']);
  }, 30_000);

  test('without it the run makes 8 and stops on max_requests (end.stop says so)', async () => {
    const at = setup(tenResponses({ expect: { calls: {}, end: { calls: 8, stop: 'max_requests' } } }));
    const run = await runIt(at);
    expect([endOf(at.out).requests, endOf(at.out).stop, endOf(at.out).tool_calls]).toEqual([8, 'max_requests', 8]);
    const checks = events(at.out).find((e) => e.type === 'acceptance')!.checks.map((c: { id: string; verdict: string }) => `${c.id} ${c.verdict}`);
    expect(checks).toEqual(['end:calls pass', 'end:stop pass']);
    expect(run.left).toEqual([]);
    expect((await verifyJson(at.out)).code).toBe(0);
  }, 30_000);
});

describe('permissions', () => {
  test('permissions.deny of a tool denies its call even with --allow-tool of it (deny wins)', async () => {
    const at = setup(oneEcho({ a: { error: { class: 'permission_denied' } } }, { permissions: { deny: ['mcp__srv__echo'] } }));
    const run = await runIt(at, '--allow-tool', 'mcp__srv__echo');
    expect([run.code, run.left]).toEqual([0, []]);
    const call = callsOf(at.out)['a']!;
    expect([call.outcome.class, call.handler_entered]).toEqual(['permission_denied', false]);
  }, 30_000);

  test('permissions.allow lets a call run without --yes; without it the same call is denied', async () => {
    const allowed = setup(oneEcho());
    expect((await runIt(allowed)).code).toBe(0);
    expect([callsOf(allowed.out)['a']!.outcome.ok, callsOf(allowed.out)['a']!.permission.decision]).toEqual([true, 'allow']);
    const bare = setup(oneEcho(undefined, { permissions: undefined }));
    const run = await runIt(bare);
    expect(run.code).toBe(1);
    expect(callsOf(bare.out)['a']!.outcome.class).toBe('permission_denied');
  }, 30_000);
});

describe('hostile but valid scenarios run and verify', () => {
  test('call ids that are prototype names (__proto__ scripted, toString expected), a 10 000-character id, and an id with a colon', async () => {
    const long = 'i'.repeat(10_000);
    const doc = scenarioDoc([[echo('__proto__'), echo('toString'), echo(long), echo('a:ok')]], { toString: { ok: true }, [long]: { ok: true }, 'a:ok': { ok: true } });
    const at = setup(doc);
    const run = await runIt(at);
    expect([run.code, run.left]).toEqual([0, []]);
    const checks = events(at.out).find((e) => e.type === 'acceptance')!.checks.map((c: { id: string; verdict: string }) => `${c.id.slice(0, 40)} ${c.verdict}`);
    expect(checks).toEqual(['call:toString:ok pass', `call:${'i'.repeat(35)} pass`, 'call:a:ok:ok pass']);
    expect((await verifyJson(at.out)).code).toBe(0);
  }, 30_000);

  test('odd pointers (~0, ~1, "", a 100 000-character token) and deep or huge expected values are checked, not crashed on', async () => {
    const doc = scenarioDoc([[echo('a', 'x')]], {
      a: { ok: true, values: { '': { content: [{ type: 'text', text: '{"text":"x"}' }] }, '/content/0/~0~1': 1, [`/${'p'.repeat(100_000)}`]: 1, '/deep': JSON.parse(`${'['.repeat(50)}${']'.repeat(50)}`), '/huge': 'h'.repeat(500_000) } },
    });
    const at = setup(doc);
    const run = await runIt(at);
    expect([run.code, run.left]).toEqual([1, []]);
    const checks = events(at.out).find((e) => e.type === 'acceptance')!.checks as { id: string; verdict: string; evidence: string; condition: string }[];
    expect(checks.map((c) => [c.id.slice(0, 20), c.verdict, c.evidence])).toEqual([
      ['call:a:ok', 'pass', 'ok'],
      ['call:a:', 'pass', '{"content":[{"text":"{\\"text\\":\\"x\\"}","type":"text"}]}'],
      ['call:a:/content/0/~0', 'fail', 'absent'],
      [`call:a:/${'p'.repeat(12)}`, 'fail', 'absent'],
      ['call:a:/deep', 'fail', 'absent'],
      ['call:a:/huge', 'fail', 'absent'],
    ]);
    for (const check of checks) expect(check.condition.length).toBeLessThan(100_200);
    expect((await verifyJson(at.out)).code).toBe(0);
  }, 30_000);

  test('control characters in an id, a pointer or a kind never reach the terminal, and the record verifies', async () => {
    const id = 'a\u001b[31mRED\u0007';
    const doc = scenarioDoc([[echo(id), echo('b')]], { [id]: { ok: true, values: { '/x\u001b[2J': 1 } }, b: { error: { class: 'business', kind: 'k\u001b]0;title\u0007' } } });
    const at = setup(doc);
    const run = await runIt(at);
    expect([run.code, run.left]).toEqual([1, []]);
    expect(run.out).toContain('call:a\\x1b[31mRED\\x07:/x\\x1b[2J');
    expect(`${run.out}${run.err}`).not.toMatch(/[\u001b\u0007]/);
    expect((await verifyJson(at.out)).code).toBe(0);
  }, 30_000);

  test('a config key that maps (my.server) is named in a scenario by its mapped key, as the refusal lists it', async () => {
    const probe = setup(oneEcho(undefined, { servers: ['my_server'] }), { 'my.server': testServer('echo') });
    const refused = await runIt(probe);
    expect([refused.code, refused.runDir]).toEqual([2, false]);
    const mapped = /has: (my_server_[0-9a-f]+)/.exec(refused.err)?.[1];
    expect(mapped).toBeDefined();
    const doc = scenarioDoc([[{ ...echo('a'), name: `mcp__${mapped}__echo` }]], { a: { ok: true } }, { servers: [mapped], permissions: { allow: [`mcp__${mapped}__echo`] } });
    const at = setup(doc, { 'my.server': testServer('echo') });
    const run = await runIt(at);
    expect([run.code, run.left]).toEqual([0, []]);
  }, 30_000);
});
