/**
 * Acceptance of issue 22 for `caplab run --mcp-config`, end to end through
 * the CLI: the pinned server-everything, and test servers that echo, drift
 * and die. Each test reads what the model was sent and what the record says.
 */
import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { bindingId } from '../binding/index.ts';
import { canonicalHash } from '../contract/index.ts';
import { scratchDir } from '../../test/scratch.ts';
import { copyRun, rechain } from './verify-test-kit.ts';
import { callsOf, caplab, EVERYTHING_CONFIG, EVERYTHING_SCENARIO, events, everythingListing, hasDefault, serversLeft, testServer, toolResultsSeen, writeConfig, writeScenario } from './testing/configured-kit.ts';

const MODEL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const outcomeOf = (call: any): string => (call.outcome.ok ? 'ok' : `${call.outcome.class}/${call.outcome.kind}`);

test('the everything scenario with --allow-tool=mcp__everything: text, validated structured content, resource links as text lines, the re-list unchanged, and the run dir verifies', async () => {
  const dir = scratchDir();
  const out = join(dir, 'run');
  const [listing, run] = await Promise.all([everythingListing(), caplab(['run', '--scenario', EVERYTHING_SCENARIO, '--mcp-config', EVERYTHING_CONFIG, '--allow-tool=mcp__everything', '--out', out], dir)]);
  expect(run.code).toBe(1); // not accepted: the scenario makes no card
  const calls = callsOf(out);
  expect(Object.values(calls).map((c) => [c.name, outcomeOf(c), c.via, c.protocol.server, c.permission.decision])).toEqual([
    ['mcp__everything__get-sum', 'ok', 'mcp', 'everything', 'allow'],
    ['mcp__everything__get-structured-content', 'ok', 'mcp', 'everything', 'allow'],
    ['mcp__everything__get-resource-links', 'ok', 'mcp', 'everything', 'allow'],
  ]);
  const seen = toolResultsSeen(out, 2);
  expect(seen['toolu_01']).toEqual({ is_error: false, texts: ['The sum of 2 and 3 is 5.'] });
  // Validated against its outputSchema, and the text the model saw is the structured content the record hashed.
  const structured = calls['toolu_02']!;
  expect(structured.stages.find((s: any) => s.stage === 'result_validate').status).toBe('ok');
  expect(seen['toolu_02']!.texts).toHaveLength(1);
  expect(canonicalHash(JSON.parse(seen['toolu_02']!.texts[0]!))).toBe(structured.outcome.data_sha256);
  const links = seen['toolu_03']!.texts.slice(1);
  expect(links.length).toBeGreaterThan(0);
  for (const text of links) expect(text).toMatch(/^\[resource_link demo:\/\/resource\/\S+ text\/plain\]$/);

  const [start] = events(out);
  const end = events(out).find((e) => e.type === 'run_end')!;
  // server-everything answers 2025-11-25 and lists simulate-research-query (taskSupport required) with tasks declared: a background binding, format 12.
  expect(end.format).toBe('caplab.ledger/12');
  expect(start!.servers.map((s: any) => [s.key, s.status, s.tools.length, s.tools.every((t: any) => t.status === 'bound')])).toEqual([['everything', 'started', 13, true]]);
  expect(start!.servers[0].identity.endpoint.cwd).toBe('(fresh)');
  const relists = end.servers[0].list_changed;
  expect(relists.seen).toBeGreaterThan(0);
  expect(relists.relists.map((r: any) => r.outcome)).toEqual(['unchanged']);
  // A listed default stays in the schema the model is shown (an annotation), on each of the 6 bound tools that have one.
  const withDefault = listing.filter((t) => hasDefault(t.inputSchema)).map((t) => `mcp__everything__${t.name}`);
  const bound = start!.bindings.filter((b: any) => withDefault.includes(b.tool));
  expect(bound.map((b: any) => hasDefault(b.model.schema))).toEqual(Array(6).fill(true));

  const verified = await caplab(['verify', out], dir);
  expect(verified.code).toBe(0);
  expect(verified.out).toContain('format  caplab.ledger/12');
  expect(verified.out).toContain('verdict not accepted (re-computed)');
}, 60_000);

test('the everything scenario without --allow-tool: every call asks, and non-interactively is denied (never sent)', async () => {
  const dir = scratchDir();
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', EVERYTHING_SCENARIO, '--mcp-config', EVERYTHING_CONFIG, '--out', out], dir);
  expect(run.code).toBe(1);
  const calls = Object.values(callsOf(out));
  expect(calls.map((c) => [c.class ?? c.outcome.class, c.handler_entered, c.via, c.jsonrpc_id ?? null])).toEqual(Array(3).fill(['permission_denied', false, 'not_executed', null]));
  // A re-list answers a list_changed before that server's next call: with every call denied, none was sent and none was re-listed.
  const { list_changed } = events(out).find((e) => e.type === 'run_end')!.servers[0];
  expect([list_changed.seen > 0, list_changed.relists]).toEqual([true, []]);
}, 60_000);

test('a call made with {} to a tool whose text has a default reaches the server as {}: the default is never filled', async () => {
  const dir = scratchDir();
  const mark = `default-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo') });
  const scenario = writeScenario(dir, [[['mcp__a__echo', {}], ['mcp__a__echo', { text: 'given' }]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__a', '--out', out], dir);
  expect(run.code).toBe(1);
  const [start] = events(out);
  expect(start!.servers[0].identity.endpoint.envNames).toContain('CAPLAB_TEST_SERVER_MARK');
  const echo = start!.bindings.find((b: any) => b.tool === 'mcp__a__echo');
  expect(echo.model.schema.properties.text.default).toBe('filled-by-default');
  // What the server answered is what it received.
  const seen = toolResultsSeen(out, 2);
  expect(seen['toolu_01']).toEqual({ is_error: false, texts: ['{}'] });
  expect(seen['toolu_02']).toEqual({ is_error: false, texts: ['{"text":"given"}'] });
  expect(callsOf(out)['toolu_01']!.arguments).toEqual({ original: {}, converted: {} });
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('two servers with one serverInfo.name and one tool name: two names, two bindings; --deny-tool=mcp__a__echo leaves mcp__b__echo callable', async () => {
  const dir = scratchDir();
  const mark = `twins-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), b: testServer('echo') });
  const scenario = writeScenario(dir, [[['mcp__a__echo', { text: 'to a' }], ['mcp__b__echo', { text: 'to b' }]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--deny-tool=mcp__a__echo', '--allow-tool=mcp__b', '--out', out], dir);
  expect(run.code).toBe(1);
  const [start] = events(out);
  const echoes = start!.bindings.filter((b: any) => b.contract.name === 'echo');
  expect(echoes.map((b: any) => [b.tool, b.server.key, b.server.name])).toEqual([
    ['mcp__a__echo', 'a', 'same-name'],
    ['mcp__b__echo', 'b', 'same-name'],
  ]);
  expect(new Set(echoes.map((b: any) => b.id)).size).toBe(2);
  const calls = callsOf(out);
  expect([outcomeOf(calls['toolu_01']), calls['toolu_01']!.handler_entered, calls['toolu_01']!.permission.reason]).toEqual(['permission_denied/flag', false, '--deny-tool=mcp__a__echo']);
  expect([outcomeOf(calls['toolu_02']), calls['toolu_02']!.protocol.server, calls['toolu_02']!.binding_id]).toEqual(['ok', 'b', echoes[1].id]);
  expect(toolResultsSeen(out, 2)['toolu_02']!.texts).toEqual(['{"text":"to b"}']);
  expect((await caplab(['verify', out], dir)).code).toBe(0);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('a 70-character and a dotted tool name get conforming names, the same in two runs of one --run-id, called by them, and verify re-derives them', async () => {
  const dir = scratchDir();
  const mark = `names-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo') });
  const long = `long_${'x'.repeat(65)}`;
  expect(`mcp__a__${long}`.length).toBeGreaterThan(64);
  const named = async (at: string) => {
    const tools = JSON.parse((await caplab(['tools', '--mcp-config', config, '--json'], dir)).out).servers[0].tools;
    const modelName = (tool: string) => tools.find((t: any) => t.name === tool).model_name as string;
    const scenario = writeScenario(dir, [[[modelName('dotted.name'), { text: 'd' }], [modelName(long), { text: 'l' }]]], `${at}.json`);
    const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__a', '--run-id', 'same-id', '--out', join(dir, at)], dir);
    expect(run.code).toBe(1);
    return events(join(dir, at))[0]!.bindings.filter((b: any) => b.server?.key === 'a' && b.contract.name !== 'echo');
  };
  const first = await named('one');
  const second = await named('two');
  expect(first.map((b: any) => [b.contract.name, b.naming])).toEqual([
    ['dotted.name', { full: 'mcp__a__dotted.name', rule: 'caplab.tool-name/1' }],
    [long, { full: `mcp__a__${long}`, rule: 'caplab.tool-name/1' }],
  ]);
  for (const binding of first) {
    expect(binding.tool).toMatch(MODEL_NAME);
    expect(binding.tool).not.toBe(binding.naming.full);
  }
  expect(second.map((b: any) => [b.tool, b.id])).toEqual(first.map((b: any) => [b.tool, b.id]));
  const calls = Object.values(callsOf(join(dir, 'one')));
  expect(calls.map((c) => [c.name, outcomeOf(c)])).toEqual(first.map((b: any) => [b.tool, 'ok']));
  for (const at of ['one', 'two']) expect((await caplab(['verify', join(dir, at)], dir)).code).toBe(0);
  // verify derives the model name again from the full one: a record whose full name says otherwise is refused, even re-sealed.
  const forged = copyRun(join(dir, 'one'), dir);
  rechain(forged, (all) => {
    // The binding edited, its id hashed again, and that id put wherever the record names the old one.
    const original = (all[0]!['bindings'] as any[]).find((b) => b.contract.name === 'dotted.name');
    const edited = { ...original, naming: { ...original.naming, full: 'mcp__a__dotted.other' } };
    const id = bindingId(edited);
    return JSON.parse(JSON.stringify(all).replaceAll(original.id, id).replace(JSON.stringify(original.naming), JSON.stringify(edited.naming)));
  });
  const refused = await caplab(['verify', forged], dir);
  expect(refused.code).not.toBe(0);
  expect(refused.out + refused.err).toContain('caplab.tool-name/1 makes');
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('a listed server whose start fails, not required: a notice, a failed entry in run_start.servers, and the run goes on and verifies', async () => {
  const dir = scratchDir();
  const mark = `failed-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { a: testServer('echo'), quits: { command: process.execPath, args: ['-e', 'process.exit(0)'] } });
  const scenario = writeScenario(dir, [[['mcp__a__echo', { text: 'on' }]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__a', '--out', out], dir);
  expect(run.code).toBe(1);
  expect(run.err).toContain('caplab: server quits did not start (spawn/exited_early)');
  expect(run.err).toContain('the run goes on without it');
  const [start] = events(out);
  expect(start!.servers.map((s: any) => [s.key, s.status, s.failure?.kind])).toEqual([['a', 'started', undefined], ['quits', 'failed', 'exited_early']]);
  expect(outcomeOf(callsOf(out)['toolu_01'])).toBe('ok');
  expect((await caplab(['verify', out], dir)).code).toBe(0);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('a tool changed after list_changed gets protocol/tool_drift on its next call, never sent', async () => {
  const dir = scratchDir();
  const mark = `drift-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { f: testServer('drift') });
  const scenario = writeScenario(dir, [[['mcp__f__echo', { text: 'one' }]], [['mcp__f__echo', { text: 'two' }]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__f', '--out', out], dir);
  expect(run.code).toBe(3); // a call's protocol failure: the run goes on and ends as one
  const calls = callsOf(out);
  expect([outcomeOf(calls['toolu_01']), outcomeOf(calls['toolu_02'])]).toEqual(['ok', 'protocol/tool_drift']);
  expect([calls['toolu_02']!.jsonrpc_id ?? null, calls['toolu_02']!.binding_id]).toEqual([null, calls['toolu_01']!.binding_id]);
  // Refused by caplab's MCP adapter before anything was sent: an MCP call that reached no server, never a local one.
  expect([calls['toolu_02']!.via, calls['toolu_02']!.protocol ?? null]).toEqual(['mcp', null]);
  const end = events(out).find((e) => e.type === 'run_end')!;
  expect(end.servers[0].list_changed).toEqual({ seen: 1, relists: [{ outcome: 'changed', added: [], changed: ['echo'], removed: [] }] });
  expect((await caplab(['verify', out], dir)).code).toBe(0);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

test('a server killed mid-call: that call closed/connection_lost (exit 4), a later call to it precondition/server_closed and not sent, another server\'s next call succeeds', async () => {
  const dir = scratchDir();
  const mark = `die-${crypto.randomUUID()}`;
  const config = writeConfig(dir, mark, { d: testServer('die'), e: testServer('echo') });
  const scenario = writeScenario(dir, [[['mcp__d__crash', {}]], [['mcp__d__echo', { text: 'late' }], ['mcp__e__echo', { text: 'other' }]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, '--allow-tool=mcp__d', '--allow-tool=mcp__e', '--out', out], dir);
  expect(run.code).toBe(4);
  const calls = callsOf(out);
  expect([outcomeOf(calls['toolu_01']), calls['toolu_01']!.handler_entered, calls['toolu_01']!.protocol.server]).toEqual(['closed/connection_lost', true, 'd']);
  expect([outcomeOf(calls['toolu_02']), calls['toolu_02']!.handler_entered, calls['toolu_02']!.jsonrpc_id ?? null]).toEqual(['precondition/server_closed', false, null]);
  expect([outcomeOf(calls['toolu_03']), calls['toolu_03']!.protocol.server]).toEqual(['ok', 'e']);
  expect(toolResultsSeen(out, 3)['toolu_03']!.texts).toEqual(['{"text":"other"}']);
  const end = events(out).find((e) => e.type === 'run_end')!;
  expect([end.exit_code, end.servers.find((s: any) => s.key === 'd').close.exitCode]).toEqual([4, 3]);
  expect((await caplab(['verify', out], dir)).code).toBe(0);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);

// Refused before the record: each exits with no run dir, and the servers it started are closed.
const refusals: ReadonlyArray<readonly [string, number, string, (dir: string, mark: string) => { config: string; flags: string[] }]> = [
  [
    'a rewritten name equal to another listed name',
    2,
    'invalid_arguments/duplicate_tool',
    (dir, mark) => {
      const rewritten = `dotted_name_${new Bun.CryptoHasher('sha256').update('mcp__a__dotted.name').digest('hex').slice(0, 8)}`;
      return { config: writeConfig(dir, mark, { a: testServer('names', 'dotted.name', rewritten) }), flags: [] };
    },
  ],
  [
    'a mapped key equal to another key as written',
    2,
    'invalid_arguments/bad_server_key',
    (dir, mark) => {
      const mapped = `my_server_${new Bun.CryptoHasher('sha256').update('my.server').digest('hex').slice(0, 8)}`;
      return { config: writeConfig(dir, mark, { 'my.server': testServer('echo'), [mapped]: testServer('echo') }), flags: [] };
    },
  ],
  ['an entry that cannot start as written (an empty command)', 2, 'invalid_arguments/malformed_config', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo'), broken: { command: '' } }), flags: [] })],
  ['an unknown --require-server key', 2, 'invalid_arguments/unknown_server', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo') }), flags: ['--require-server', 'nosuch'] })],
  ['a rule naming a tool the server does not list (mcp__a__nosuch)', 2, 'invalid_arguments/unknown_name', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo') }), flags: ['--allow-tool=mcp__a__nosuch'] })],
  ['a rule naming a key the config does not have (mcp__zz)', 2, 'invalid_arguments/unknown_name', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo') }), flags: ['--deny-tool=mcp__zz'] })],
  ['a required server whose command does not exist', 3, 'spawn/required_server', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo'), gone: { command: join(dir, 'no-such-server') } }), flags: ['--require-server', 'gone'] })],
  ['a required server that exits at once', 3, 'spawn/required_server', (dir, mark) => ({ config: writeConfig(dir, mark, { a: testServer('echo'), quits: { command: process.execPath, args: ['-e', 'process.exit(0)'] } }), flags: ['--require-server', 'quits'] })],
];

test.each(refusals)('%s: exit %d (%s), no run dir, no server left', async (_, exit, failure, setup) => {
  const dir = scratchDir();
  const mark = `refused-${crypto.randomUUID()}`;
  const { config, flags } = setup(dir, mark);
  const scenario = writeScenario(dir, [[['mcp__a__echo', {}]]]);
  const out = join(dir, 'run');
  const run = await caplab(['run', '--scenario', scenario, '--mcp-config', config, ...flags, '--out', out], dir);
  expect([run.code, run.out]).toEqual([exit, '']);
  expect(run.err).toContain(`caplab: ${failure}`);
  expect(existsSync(out)).toBe(false);
  expect(await serversLeft(mark)).toEqual([]);
}, 60_000);
