/**
 * `caplab scenario new` end to end through the CLI, against the pinned
 * server-everything and the misbehaving test server: the starter's bytes,
 * its arguments against each tool's own inputSchema, and every refusal with
 * nothing written and no server left running.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { parseScenario } from '../harness/index.ts';
import { loadListedValidator, versionProfile } from '../mcp/index.ts';
import { startServe } from './testing/serve-http.ts';
import { callsOf, caplab, EVERYTHING_CONFIG, everythingListing, serversLeft, testServer, writeConfig } from './testing/configured-kit.ts';

const listedValidator = await loadListedValidator();

type Starter = { name: string; servers: string[]; permissions: { allow: string[] }; responses: Array<{ tool_calls?: Array<{ id: string; name: string; arguments: unknown }>; text?: string; usage: unknown }>; expect: { calls: Record<string, unknown>; end: unknown } };

test('against server-everything: two runs write byte-identical files, every scripted set validates against its tool\'s listed inputSchema (Ajv), the read-only tools and only they are called, and the file parses as an expectations scenario', async () => {
  const [first, second] = [scratchDir(), scratchDir()];
  const [listing, a, b] = await Promise.all([
    everythingListing(),
    caplab(['scenario', 'new', '--mcp-config', EVERYTHING_CONFIG, '--out', 'everything.scenario.json'], first),
    caplab(['scenario', 'new', '--mcp-config', EVERYTHING_CONFIG, '--server', 'everything', '--out', join(second, 'everything.scenario.json')], second),
  ]);
  expect([a.code, a.err, b.code, b.err]).toEqual([0, '', 0, '']);
  expect(a.out).toBe(`wrote ${join(first, 'everything.scenario.json')}: 9 scripted calls to everything; the tools left out are named in its description\n`);
  const text = readFileSync(join(first, 'everything.scenario.json'), 'utf8');
  expect(readFileSync(join(second, 'everything.scenario.json'), 'utf8')).toBe(text);
  // Written whole, no temp beside it.
  expect([readdirSync(first), readdirSync(second)]).toEqual([['everything.scenario.json'], ['everything.scenario.json']]);

  const starter = JSON.parse(text) as Starter;
  expect(text).toBe(`${JSON.stringify(starter, null, 2)}\n`);
  const parsed = parseScenario(text, 'everything.scenario.json');
  expect(parsed.ok && [parsed.value.task, parsed.value.name, parsed.value.servers]).toEqual(['expectations', 'everything', ['everything']]);

  // Which tools: from the raw listing, read without caplab's client.
  const readOnly = listing.filter((tool: any) => tool.annotations?.readOnlyHint === true && tool.annotations?.destructiveHint !== true).map((tool) => `mcp__everything__${tool.name}`).sort();
  const calls = starter.responses[0]!.tool_calls!;
  expect(calls.map((call) => call.name)).toEqual(readOnly);
  expect(starter.permissions.allow).toEqual(readOnly);
  expect(calls.map((call) => call.id)).toEqual(readOnly.map((_, i) => `call-${String(i + 1).padStart(2, '0')}`));
  expect(starter.expect).toEqual({ calls: Object.fromEntries(calls.map((call) => [call.id, { ok: true }])), end: { calls: readOnly.length, stop: 'final_answer' } });
  expect(starter.responses.slice(1)).toEqual([{ text: 'Done.', usage: { input_tokens: 0, output_tokens: 0 } }]);
  for (const call of calls) {
    const listed = listing.find((tool) => `mcp__everything__${tool.name}` === call.name)!;
    const validator = listedValidator(listed.inputSchema, 'inputSchema', listed.name, versionProfile('2025-06-18')!).validator!;
    expect({ tool: call.name, issues: validator.validate(call.arguments) }).toEqual({ tool: call.name, issues: [] });
  }
  // The ones left out are named with why.
  const description = (starter as unknown as { description: string }).description;
  for (const tool of listing.filter((t) => !readOnly.includes(`mcp__everything__${t.name}`))) expect(description).toContain(`mcp__everything__${tool.name}: its hints do not say readOnlyHint: true`);
}, 60_000);

test('run of the starter (--timeout-ms 2000) sends every scripted call to the server, none refused by caplab\'s validation; the record verifies', async () => {
  const dir = scratchDir();
  const made = await caplab(['scenario', 'new', '--mcp-config', EVERYTHING_CONFIG, '--out', 'everything.scenario.json'], dir);
  expect(made.code).toBe(0);
  const starter = JSON.parse(readFileSync(join(dir, 'everything.scenario.json'), 'utf8')) as Starter;
  const run = await caplab(['run', '--scenario', 'everything.scenario.json', '--mcp-config', EVERYTHING_CONFIG, '--timeout-ms', '2000', '--out', 'run'], dir);
  // trigger-long-running-operation runs 10 s by its default: past --timeout-ms its outcome is unknown (exit 4); the user edits that one.
  expect(run.code).toBe(4);
  const calls = callsOf(join(dir, 'run'));
  const sent = starter.responses[0]!.tool_calls!.map((call) => [call.id, call.name, true, 'mcp']);
  expect(Object.values(calls).map((call) => [call.tool_call_id, call.name, call.handler_entered, call.via])).toEqual(sent);
  expect(Object.values(calls).filter((call) => call.outcome.class === 'invalid_arguments')).toEqual([]);
  expect((await caplab(['verify', 'run'], dir)).code).toBe(0);
}, 60_000);

test('--server KEY: only that server starts, and only its tools are called, by their model names (a rewritten name as the run binds it); the others are not in the starter', async () => {
  const dir = scratchDir();
  const mark = `starter-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), b: testServer('names', 'other'), gone: { command: join(dir, 'no-such-server') } });
  const run = await caplab(['scenario', 'new', '--mcp-config', config, '--server', 'a', '--out', 'A Starter.json'], dir);
  // The servers not chosen are not started: one that could not start is not heard of.
  expect([run.code, run.err]).toEqual([0, '']);
  const starter = JSON.parse(readFileSync(join(dir, 'A Starter.json'), 'utf8')) as Starter;
  expect([starter.name, starter.servers]).toEqual(['a-starter', ['a']]);
  expect(starter.permissions.allow).toHaveLength(3);
  expect(starter.permissions.allow.every((name) => name.startsWith('mcp__a__') && /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
  // `echo`'s text is optional (it has a default): no required property, so {}.
  expect(starter.responses[0]!.tool_calls!.map((call) => call.arguments)).toEqual([{}, {}, {}]);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('an existing --out (file, folder, symlink even to nowhere) is precondition/target_exists, exit 2, found before any server starts; the file is untouched', async () => {
  const dir = scratchDir();
  // A server that cannot start: were it started first, the exit would be 3.
  const config = writeConfig(dir, 'unused', { gone: { command: join(dir, 'no-such-server') } });
  const file = join(dir, 'taken.json');
  writeFileSync(file, 'mine\n');
  const before = statSync(file);
  mkdirSync(join(dir, 'folder.json'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'link.json'));
  for (const out of ['taken.json', 'folder.json', 'link.json']) {
    const run = await caplab(['scenario', 'new', '--mcp-config', config, '--server', 'gone', '--out', out], dir);
    expect({ out, code: run.code, kind: run.err.split(':')[1] }).toEqual({ out, code: 2, kind: ' precondition/target_exists' });
  }
  expect(readFileSync(file, 'utf8')).toBe('mine\n');
  expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
  expect(readdirSync(dir).sort()).toEqual(['folder.json', 'link.json', 'servers.mcp.json', 'taken.json']);
});

test.each([
  ['no subcommand', ['scenario'], 'caplab scenario: needs a subcommand: new'],
  ['another subcommand', ['scenario', 'old'], 'caplab scenario: unknown subcommand "old" (known: new)'],
  ['no --mcp-config', ['scenario', 'new', '--out', 'x.json'], 'caplab scenario new: needs --mcp-config FILE'],
  ['no --out', ['scenario', 'new', '--mcp-config', 'servers.mcp.json'], 'caplab scenario new: needs --out FILE'],
  ['--out given twice', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', 'x.json', '--out', 'y.json'], 'caplab scenario new: --out given twice'],
  ['an unknown flag', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', 'x.json', '--allow-tool=x'], 'caplab scenario new: Unknown option'],
  ['a bad --timeout-ms', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', 'x.json', '--timeout-ms', '0'], 'caplab scenario new: --timeout-ms needs a positive whole number'],
  ['a config file that is not there', ['scenario', 'new', '--mcp-config', 'missing.mcp.json', '--out', 'x.json'], 'caplab scenario new: precondition/not_found'],
  ['an unknown --server', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--server', 'nope', '--out', 'x.json'], 'caplab scenario new: invalid_arguments/unknown_server: --server names nope:'],
  ['--out in a folder that is not there', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', 'no/such/x.json'], 'caplab scenario new: invalid_arguments/bad_path: --out'],
  ['--out under /proc', ['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', '/proc/self/x.json'], 'caplab scenario new: invalid_arguments/bad_path: --out /proc/self/x.json: is under /proc'],
])('usage error, exit 2, nothing written, nothing left running: %s', async (_, argv, message) => {
  const dir = scratchDir();
  const mark = `starter-${crypto.randomUUID()}`;
  writeConfig(dir, mark, { a: testServer('echo') });
  const run = await caplab(argv, dir);
  expect({ code: run.code, err: run.err.slice(0, message.length), out: run.out }).toEqual({ code: 2, err: message, out: '' });
  expect(readdirSync(dir)).toEqual(['servers.mcp.json']);
  expect(await serversLeft(mark)).toEqual([]);
}, 30_000);

test('--out inside a run dir is a bad path (nothing is written into a run\'s record)', async () => {
  const dir = scratchDir();
  writeConfig(dir, 'unused', { a: testServer('echo') });
  mkdirSync(join(dir, 'run'));
  writeFileSync(join(dir, 'run', 'ledger.jsonl'), '');
  const run = await caplab(['scenario', 'new', '--mcp-config', 'servers.mcp.json', '--out', 'run/x.json'], dir);
  expect([run.code, run.err]).toEqual([2, `caplab scenario new: invalid_arguments/bad_path: --out ${join(dir, 'run/x.json')}: inside the run dir ${join(dir, 'run')}; nothing is written into a run's record\n`]);
  expect(readdirSync(join(dir, 'run'))).toEqual(['ledger.jsonl']);
});

test('a config with no stdio or http server (only other types): exit 2, nothing written', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'web.mcp.json'), JSON.stringify({ mcpServers: { web: { type: 'sse', url: 'http://127.0.0.1:9/sse' } } }));
  const run = await caplab(['scenario', 'new', '--mcp-config', 'web.mcp.json', '--out', 'x.json'], dir);
  expect([run.code, run.err]).toEqual([2, 'caplab scenario new: invalid_arguments/unknown_server: web.mcp.json has no stdio or http server to write a starter for\n']);
  expect(readdirSync(dir)).toEqual(['web.mcp.json']);
});

test('an http entry nothing answers at is a server that did not start: exit 3, nothing written', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'web.mcp.json'), JSON.stringify({ mcpServers: { web: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }));
  const run = await caplab(['scenario', 'new', '--mcp-config', 'web.mcp.json', '--out', 'x.json'], dir);
  expect([run.code, run.err.slice(0, 136)]).toEqual([3, 'caplab scenario new: spawn/required_server: a server did not start: web: closed/unreachable: initialize #1: no HTTP answer (ECONNREFUSED']);
  expect(readdirSync(dir)).toEqual(['web.mcp.json']);
});

test('an http entry to caplab serve --http (2025-11-25): the starter calls count_words and read_source (their hints say read-only)', async () => {
  const served = await startServe(['--token-env', 'CAPLAB_TEST_TOKEN'], { CAPLAB_TEST_TOKEN: 'tok_2b9e61d0c4' });
  const dir = scratchDir();
  writeFileSync(join(dir, 'web.mcp.json'), JSON.stringify({ mcpServers: { web: { type: 'http', url: served.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } } } }));
  const run = await caplab(['scenario', 'new', '--mcp-config', 'web.mcp.json', '--out', 'web.scenario.json'], dir, { WEB_TOKEN: 'tok_2b9e61d0c4' });
  expect([run.code, run.err]).toEqual([0, '']);
  const text = readFileSync(join(dir, 'web.scenario.json'), 'utf8');
  const starter = JSON.parse(text) as Starter;
  expect(starter.servers).toEqual(['web']);
  expect(starter.responses[0]!.tool_calls!.map((call) => call.name)).toEqual(['mcp__web__count_words', 'mcp__web__read_source']);
  expect(text).not.toContain('tok_2b9e61d0c4');
}, 30_000);

test.each([
  ['named with --server', ['--server', 'gone']],
  ['chosen as one of every server', []],
])('a chosen server that cannot start: spawn/required_server, exit 3, no file, nothing left running (%s)', async (_, flags) => {
  const dir = scratchDir();
  const mark = `starter-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), gone: { command: join(dir, 'no-such-server') } });
  const run = await caplab(['scenario', 'new', '--mcp-config', config, ...flags, '--out', 'x.json'], dir);
  expect(run.code).toBe(3);
  expect(run.err).toStartWith('caplab scenario new: spawn/required_server: ');
  expect(run.err).toContain('gone: spawn/');
  expect(readdirSync(dir)).toEqual(['servers.mcp.json']);
  expect(await serversLeft(mark)).toEqual([]);
}, 30_000);
