/**
 * Runs with configured servers (a fake provider's `servers`): the record
 * names format 5 with both arrays and verifies; a run without them keeps
 * format 4; every way a forger may bend the servers' story, chain and seal
 * made good again, is refused by the record checks.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { copyRun, readEvents, rechain, type Event } from '../cli/verify-test-kit.ts';
import { bind, bindingId, qualifiedName, TOOL_NAME_RULE, type Binding, type ServerIdentity } from '../binding/index.ts';
import { fail, ok } from '../contract/index.ts';
import { attributesOf, textBlock, type ProtocolExchange, type RuntimeTool } from '../pipeline/index.ts';
import { LEDGER_FORMAT, LEDGER_FORMAT_5, verify } from '../ledger/index.ts';
import { recheckAcceptance } from './recheck.ts';
import { runReport } from './report.ts';
import { runTask } from './run.ts';
import type { Task } from './task.ts';
import { ECHO, echoCall, echoTool, scripted, STEP_TASK } from './testing/loop-kit.ts';
import { testHost } from './testing/test-host.ts';
import { localProvider, type ServerEnd, type ServerStart, type ToolProvider } from './tools.ts';

/*
 * A provider that stands in for the configured-server
 * provider (`--mcp-config`) — its tools answer in-process, but they are bound
 * as a server's (implementation `mcp`, server key `a`, named by the
 * tool-name rule), every call reports an exchange with server `a`, and its
 * tool set carries `servers`: `a` started with one tool bound and one left
 * unbound, `b` failed to start. What run_end records of `a` is known only
 * after the set closed, so a run that read it before would record `close: null`.
 */
/** The listed name of the fake server's tool: a dot, so the tool-name rule rewrites its model name. */
const FAKE_TOOL = 'echo.v1';
const FAKE_IDENTITY: ServerIdentity = {
  key: 'a',
  name: 'same-name',
  version: '1.0.0',
  protocolVersion: '2025-06-18',
  endpoint: { kind: 'stdio', argv: ['/bin/fake-server'], cwd: '(fresh)', envNames: [] },
  instanceId: 'fake-a',
};

/** The fake's tool: echo, bound as server `a`'s `echo.v1` (`mcp__a__echo_v1_` and 8 hex to the model). */
function fakeTool(exchanges: Map<string, ProtocolExchange>): RuntimeTool {
  const binding = bind(ECHO, { implementation: { kind: 'mcp', version: 'fake/1' }, server: FAKE_IDENTITY, naming: { full: qualifiedName('a', FAKE_TOOL), rule: TOOL_NAME_RULE } });
  return {
    contract: ECHO,
    binding,
    attributes: attributesOf(ECHO),
    handler: async (input, context) => {
      exchanges.set(context.actionId, { transport: 'mcp-stdio', server: 'a', method: 'tools/call', jsonrpcId: exchanges.size + 2, requestBytes: 10, responseBytes: 20, isError: false });
      const { word } = input as { word: string };
      return ok({ data: { echoed: word }, content: [textBlock(word)], evidence: 'bytes observed now' });
    },
  };
}

/** The fake configured-server provider; `closed` counts its set's closes. */
function serversFake(): ToolProvider & { readonly closed: { count: number } } {
  const closed = { count: 0 };
  const exchanges = new Map<string, ProtocolExchange>();
  const tool = fakeTool(exchanges);
  return {
    closed,
    offers: [{ binding: { tool: tool.binding.tool, server: { key: 'a' } }, contract: ECHO, implementation: tool.binding.implementation }],
    open: async () => {
      const start: ServerStart[] = [
        {
          key: 'a',
          status: 'started',
          identity: FAKE_IDENTITY,
          tools: [
            { name: FAKE_TOOL, status: 'bound', model_name: tool.binding.tool, binding_id: tool.binding.id },
            { name: 'odd', status: 'unbound', failure: { class: 'invalid_arguments', kind: 'bad_schema', message: 'its inputSchema does not compile' } },
          ],
          notices: [],
        },
        { key: 'b', config_key: 'b.server', status: 'failed', failure: { class: 'spawn', kind: 'spawn_failed', message: 'no such command' }, tools: [], notices: ['server b did not start: no such command'] },
      ];
      const end = (): ServerEnd[] => [
        { key: 'a', close: closed.count > 0 ? { exitCode: 0, signal: null } : null, list_changed: { seen: 1, relists: [{ outcome: 'unchanged', changed: [], removed: [], added: [] }] }, stderr: 'ready\n' },
        { key: 'b', close: null, list_changed: { seen: 0, relists: [] }, stderr: '' },
      ];
      return ok({
        transport: 'mcp',
        tools: [tool],
        protocolOf: (actionId: string) => exchanges.get(actionId),
        servers: { start, end },
        close: async () => void closed.count++,
      });
    },
  };
}

const usage = { input_tokens: 1, output_tokens: 1 };
const task: Task = { ...STEP_TASK, id: 'servers' };
const kindOf = (dir: string): string => {
  const report = verify(dir, { recheck: recheckAcceptance(task) });
  return report.ok ? `verifies ${report.value.format}` : `${report.kind}: ${report.message}`;
};

/** A run of the fake's tool (twice) and a local echo, under the fake provider; its run dir. */
async function serversRun(parent: string): Promise<{ dir: string; modelName: string; closed: { count: number }; report: Record<string, unknown> }> {
  const fake = serversFake();
  const modelName = fake.offers[0]!.binding.tool;
  const model = scripted([{ tool_calls: [{ id: 't1', name: modelName, arguments: { word: 'hi' } }, echoCall('t2', 'ho'), { id: 't3', name: modelName, arguments: { word: 'ha' } }], usage }, { text: 'done', usage }]);
  const local = { ...task, tools: () => [localProvider([{ entry: { contract: echoTool().contract, implementation: { kind: 'local', version: 'echo/1' } }, make: () => echoTool() }])] };
  const outcome = await runTask({ task: local, model, runId: 'servers', runDir: join(parent, 'run'), providers: [fake], ...testHost() });
  if (!outcome.ok) throw new Error(outcome.message);
  return { dir: outcome.value.runDir, modelName, closed: fake.closed, report: runReport(outcome.value, 'artifact') };
}

test('a run whose tools carry configured servers names format 5: run_start.servers as the provider gave them, run_end.servers read after the tools closed; it verifies', async () => {
  const { dir, modelName, closed, report } = await serversRun(scratchDir('caplab-servers-'));
  expect(modelName).toMatch(/^mcp__a__echo_v1_[0-9a-f]{8}$/);
  const events = readEvents(dir);
  const start = events[0]!;
  const end = events.at(-1)!;
  expect(start['servers']).toEqual([
    expect.objectContaining({ key: 'a', status: 'started', identity: expect.objectContaining({ key: 'a', name: 'same-name' }), tools: [expect.objectContaining({ name: FAKE_TOOL, status: 'bound', model_name: modelName }), expect.objectContaining({ name: 'odd', status: 'unbound' })] }),
    expect.objectContaining({ key: 'b', config_key: 'b.server', status: 'failed', notices: ['server b did not start: no such command'] }),
  ]);
  // The fake's close report exists only once its set closed: run_end read it after.
  expect([closed.count, end['format'], end['servers']]).toEqual([1, LEDGER_FORMAT_5, [expect.objectContaining({ key: 'a', close: { exitCode: 0, signal: null }, stderr: 'ready\n' }), expect.objectContaining({ key: 'b', close: null })]]);
  const calls = events.filter((e) => e.type === 'call');
  expect(calls.map((c) => [c['name'], c['via'], (c['protocol'] as { server: string } | null)?.server ?? null])).toEqual([[modelName, 'mcp', 'a'], ['echo', 'local', null], [modelName, 'mcp', 'a']]);
  expect(kindOf(dir)).toBe(`verifies ${LEDGER_FORMAT_5}`);
  // --json names each server: key, status, tools bound and not, failure.
  expect(report['servers']).toEqual([
    { key: 'a', status: 'started', tools: { bound: 1, unbound: 1 } },
    { key: 'b', status: 'failed', tools: { bound: 0, unbound: 0 }, failure: { class: 'spawn', kind: 'spawn_failed', message: 'no such command' } },
  ]);
});

test('a run without configured servers keeps format 4 and no servers field', async () => {
  const model = scripted([{ tool_calls: [echoCall('t1', 'hi')], usage }, { text: 'done', usage }]);
  const local = { ...task, tools: () => [localProvider([{ entry: { contract: echoTool().contract, implementation: { kind: 'local', version: 'echo/1' } }, make: () => echoTool() }])] };
  const outcome = await runTask({ task: local, model, runId: 'plain', runDir: join(scratchDir('caplab-servers-'), 'run'), ...testHost() });
  if (!outcome.ok) throw new Error(outcome.message);
  const events = readEvents(outcome.value.runDir);
  expect([LEDGER_FORMAT, events.at(-1)!['format'], 'servers' in events[0]!, 'servers' in events.at(-1)!]).toEqual(['caplab.ledger/4', LEDGER_FORMAT, false, false]);
  expect([outcome.value.servers, 'servers' in runReport(outcome.value, 'artifact')]).toEqual([undefined, false]);
  expect(kindOf(outcome.value.runDir)).toBe(`verifies ${LEDGER_FORMAT}`);
});

/** Edits run_start's (or run_end's) servers in a copy, chain and seal made good. */
const startServers = (edit: (servers: Record<string, unknown>[], start: Event) => unknown) => (events: Event[]) =>
  events.map((e) => (e.type === 'run_start' ? { ...e, servers: edit(structuredClone(e['servers']) as Record<string, unknown>[], e) } : e));
const endServers = (edit: (servers: Record<string, unknown>[]) => unknown) => (events: Event[]) =>
  events.map((e) => (e.type === 'run_end' ? { ...e, servers: edit(structuredClone(e['servers']) as Record<string, unknown>[]) } : e));
/** Edits the named binding and, as a careful forger would, hashes it again and renames its id everywhere. */
const bindingsEdit = (edit: (binding: Record<string, unknown>) => Record<string, unknown>) => (events: Event[]) => {
  const start = events.find((e) => e.type === 'run_start')!;
  const named = (start['bindings'] as Binding[]).find((b) => b.naming !== undefined)!;
  const { id, ...body } = edit(structuredClone(named) as unknown as Record<string, unknown>) as unknown as Binding;
  const rehashed = { id: bindingId(body), ...body };
  const edited = events.map((e) => (e === start ? { ...e, bindings: (e['bindings'] as Binding[]).map((b) => (b === named ? rehashed : b)) } : e));
  return JSON.parse(JSON.stringify(edited).replaceAll(id, rehashed.id)) as Event[];
};
/** Adds a binding of server a under another name (hashed to its id) that no server lists. */
const addBinding = (events: Event[]): Event[] =>
  events.map((e) => {
    if (e.type !== 'run_start') return e;
    const named = (e['bindings'] as Binding[]).find((b) => b.naming !== undefined)!;
    const { id: _id, ...body } = { ...named, tool: 'mcp__a__extra', naming: { full: 'mcp__a__extra', rule: TOOL_NAME_RULE } };
    return { ...e, bindings: [...(e['bindings'] as Binding[]), { id: bindingId(body), ...body }] };
  });
const callsEdit = (edit: (call: Event) => Event) => (events: Event[]) => events.map((e) => (e.type === 'call' && e['via'] === 'mcp' ? edit(structuredClone(e)) : e));

test('tampering with the servers, their tools, names or calls is refused, chain and seal made good (record checks); a bare edit breaks the chain', async () => {
  const parent = scratchDir('caplab-servers-tamper-');
  const { dir } = await serversRun(parent);
  const forged = (edit: (events: Event[]) => Event[]): string => {
    const copy = copyRun(dir, parent);
    rechain(copy, edit);
    return kindOf(copy);
  };
  const cases: [string, (events: Event[]) => Event[], RegExp][] = [
    ['a key twice', startServers((s) => [s[0], { ...s[1], key: 'a' }]), /^bad_event: run_start records server "a" twice/],
    ['started without identity', startServers((s) => [{ ...s[0], identity: undefined }, s[1]]), /^bad_event: server "a" is recorded started, but its identity is missing/],
    ['identity of another key', startServers((s) => [{ ...s[0], identity: { ...(s[0]!['identity'] as object), key: 'z' } }, s[1]]), /^bad_event: .* its identity is server "z"'s/],
    ['failed without failure', startServers((s) => [s[0], { ...s[1], failure: undefined }]), /^bad_event: server "b" is recorded failed, but without its failure/],
    ['failed with a bound tool', startServers((s) => [s[0], { ...s[1], tools: (s[0]!['tools'] as unknown[]).slice(0, 1) }]), /^bad_event: server "b" is recorded failed, but with an identity or a bound tool/],
    ['a bound tool of no binding', startServers((s) => [{ ...s[0], tools: [{ ...(s[0]!['tools'] as object[])[0], binding_id: 'f'.repeat(64) }] }, s[1]]), /^binding_mismatch: .* which run_start does not record/],
    ['a bound tool under another model name', startServers((s) => [{ ...s[0], tools: [{ ...(s[0]!['tools'] as object[])[0], model_name: 'other' }] }, s[1]]), /^binding_mismatch: server "a" lists "echo.v1" bound as "other"/],
    ['a bound tool listed under another name', startServers((s) => [{ ...s[0], tools: [{ ...(s[0]!['tools'] as object[])[0], name: 'echo.v2' }] }, s[1]]), /^binding_mismatch: .* its binding's full name is "mcp__a__echo.v1"/],
    ['a binding no server lists', startServers((s) => [{ ...s[0], tools: (s[0]!['tools'] as unknown[]).slice(1) }, s[1]]), /^binding_mismatch: binding [0-9a-f]{64} \(mcp__a__echo_v1_[0-9a-f]{8}\) is of server "a", which lists no tool bound to it/],
    ['a second binding of server a that it does not list', addBinding, /^binding_mismatch: binding [0-9a-f]{64} \(mcp__a__extra\) is of server "a", which lists no tool bound to it/],
    ['a model name the rule does not make', bindingsEdit((b) => ({ ...b, naming: { ...(b['naming'] as object), full: 'mcp__a__echo.v2' } })), /^binding_mismatch: binding [0-9a-f]{64} shows the model "mcp__a__echo_v1_[0-9a-f]{8}"; caplab.tool-name\/1 makes "mcp__a__echo_v2_/],
    ['another naming rule', bindingsEdit((b) => ({ ...b, naming: { ...(b['naming'] as object), rule: 'caplab.tool-name/0' } })), /^binding_mismatch: .* by rule "caplab.tool-name\/0"/],
    ['a call over another server', callsEdit((c) => ({ ...c, protocol: { ...(c['protocol'] as object), server: 'same-name' } })), /^call_inconsistent: call t1 over MCP names server "same-name", but its binding is server "a"'s/],
    ['a call over the failed server', callsEdit((c) => ({ ...c, protocol: { ...(c['protocol'] as object), server: 'b' } })), /^call_inconsistent: call t1 over MCP names server "b", which did not start/],
    ['no servers in run_end', endServers(() => undefined), /^bad_event: run_end records no servers/],
    ['a started server with no end', endServers((s) => s.slice(1)), /^bad_event: run_end records no end of server "a", which started/],
    ['an end twice', endServers((s) => [s[0], s[0], s[1]]), /^bad_event: run_end records server "a" twice/],
    ['an end of no server', endServers((s) => [...s, { ...s[1], key: 'c' }]), /^bad_event: run_end records server "c" that run_start does not record/],
  ];
  for (const [name, edit, expected] of cases) expect({ [name]: forged(edit) }).toEqual({ [name]: expect.stringMatching(expected) });
  // The bare edit, unchained: the hash chain already refuses it.
  const copy = copyRun(dir, parent);
  const text = await Bun.file(join(copy, 'ledger.jsonl')).text();
  await Bun.write(join(copy, 'ledger.jsonl'), text.replace('"stderr":"ready\\n"', '"stderr":"quiet"'));
  expect(kindOf(copy)).toMatch(/^(chain_broken|seal_mismatch|head_mismatch)/);
});

test('tools that fail to open after configured servers started: run_start records those servers (no binding), run_end how they closed; it verifies', async () => {
  const broken: ToolProvider = { offers: [], open: async () => fail('spawn', 'spawn_failed', 'the next provider did not start') };
  const runIn = async (providers: readonly ToolProvider[]): Promise<string> => {
    const dir = join(scratchDir('caplab-servers-unopened-'), 'run');
    const outcome = await runTask({ task, model: scripted([{ text: 'done', usage }]), runId: 'unopened', runDir: dir, providers, ...testHost() });
    expect(outcome.ok || outcome.kind).toBe('spawn_failed');
    return dir;
  };
  const fake = serversFake();
  const started = await runIn([fake, broken]);
  const [start, end] = readEvents(started);
  expect([start!['bindings'], (start!['servers'] as { key: string }[]).map((s) => s.key), end!['format'], end!['ending'], fake.closed.count]).toEqual([[], ['a', 'b'], LEDGER_FORMAT_5, 'failed', 1]);
  expect(end!['servers']).toEqual([expect.objectContaining({ key: 'a', close: { exitCode: 0, signal: null } }), expect.objectContaining({ key: 'b', close: null })]);
  expect(kindOf(started)).toBe(`verifies ${LEDGER_FORMAT_5}`);
  // No configured server started: format 4, no servers field.
  const none = await runIn([broken]);
  expect(['servers' in readEvents(none)[0]!, 'servers' in readEvents(none).at(-1)!, readEvents(none).at(-1)!['format']]).toEqual([false, false, LEDGER_FORMAT]);
  expect(kindOf(none)).toBe(`verifies ${LEDGER_FORMAT}`);
});

test('format 5 without configured servers is format_mismatch', async () => {
  const parent = scratchDir('caplab-servers-format-');
  const { dir } = await serversRun(parent);
  const bare = copyRun(dir, parent);
  rechain(bare, (events) => events.map((e) => (e.type === 'run_start' ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'servers')) as Event : e)));
  expect(kindOf(bare)).toMatch(/^format_mismatch: the record names format caplab.ledger\/5 but uses none of its shapes \(configured servers in run_start\)/);
});
