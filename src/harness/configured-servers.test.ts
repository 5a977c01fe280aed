import { describe, expect, test } from 'bun:test';
import type { ServerIdentity } from '../binding/index.ts';
import { fail, LIMITS, ok, type SchemaValidator } from '../contract/index.ts';
import { versionProfile } from '../mcp/index.ts';
import { textBlock } from '../pipeline/index.ts';
import { CONFIGURED_GAPS, CONFIGURED_HTTP_GAPS, startConfiguredServers, type ConfiguredClient, type ServerSpec, type StartDeps } from './configured-servers.ts';
import { CONTENT_RESULT, taskHandlerMs, type CompileListed } from './configured-tool.ts';

const identity = (key: string): ServerIdentity => ({
  key,
  name: 'same-name',
  version: '1.0.0',
  protocolVersion: '2025-06-18',
  endpoint: { kind: 'stdio', argv: ['/bin/server'], cwd: '(fresh)', envNames: ['PATH'] },
  instanceId: `run-1/${key}`,
});

const echoEntry = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };

/** A server as the host session would hand it over: its listing, its calls answered by echoing the arguments. */
function fakeClient(key: string, tools: readonly unknown[], stderr = '', session: { version?: string; capabilities?: Record<string, unknown> } = {}): ConfiguredClient & { calls: unknown[]; closed: number } {
  const exchanges: { method: 'tools/call'; jsonrpcId: number; actionId: string; requestBytes: number; responseBytes: number; isError: boolean }[] = [];
  const client = {
    calls: [] as unknown[],
    closed: 0,
    identity: identity(key),
    profile: versionProfile(session.version ?? '2025-06-18')!,
    capabilities: session.capabilities ?? { tools: {} },
    listing: { tools, notices: [] },
    async callTool(tool: { name: string; task?: boolean }, args: unknown, options: { actionId: string }) {
      client.calls.push({ tool: tool.name, args, ...(tool.task ? { task: true } : {}) });
      exchanges.push({ method: 'tools/call', jsonrpcId: exchanges.length + 2, actionId: options.actionId, requestBytes: 10, responseBytes: 20, isError: false });
      return ok({ data: { content: [{ type: 'text', text: JSON.stringify(args) }] }, content: [textBlock(JSON.stringify(args))] });
    },
    ended: () => undefined,
    listChanged: () => ({ seen: 1, relists: [{ outcome: 'unchanged' as const, changed: [], removed: [], added: [] }] }),
    exchanges: () => exchanges,
    stderr: () => stderr,
    async close() {
      client.closed += 1;
      return { exitCode: 0, steps: ['stdin_end'], survivors: [], orphans: { found: 0 } };
    },
  };
  return client;
}

const acceptAll: CompileListed = (schema) => ok({ kind: 'json-schema', jsonSchema: schema as SchemaValidator['jsonSchema'], validate: () => [] });

function deps(clients: Record<string, ConfiguredClient | undefined>, redact = (text: string) => text): StartDeps<ServerSpec> {
  return {
    open: async (spec) => clients[spec.key] ? ok(clients[spec.key]!) : fail('spawn', 'exited_early', `${spec.key} ended before the handshake`),
    compiler: async () => acceptAll,
    requestMs: 1_000,
    redact,
  };
}

describe('startConfiguredServers', () => {
  test('two servers reporting one serverInfo.name and one tool name: two names, two bindings, by key', async () => {
    const a = fakeClient('a', [echoEntry]);
    const b = fakeClient('b', [echoEntry]);
    const servers = await startConfiguredServers([{ key: 'a' }, { key: 'b' }], deps({ a, b }));
    expect(servers.provider.offers.map((offer) => offer.binding.tool)).toEqual(['mcp__a__echo', 'mcp__b__echo']);
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    const [toolA, toolB] = opened.value.tools;
    expect(toolA!.binding.id).not.toBe(toolB!.binding.id);
    expect(toolA!.binding.server?.key).toBe('a');
    await opened.value.close();
  });

  test('a call goes to its own server, its exchange recorded under the key', async () => {
    const a = fakeClient('a', [echoEntry]);
    const b = fakeClient('b', [echoEntry]);
    const servers = await startConfiguredServers([{ key: 'a' }, { key: 'b' }], deps({ a, b }));
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    const toolB = opened.value.tools[1]!;
    const context = { runDir: '/', actionId: 'act-1', toolCallId: 'toolu_1', request: { id: 'req-1', payload: new Uint8Array(), payloadSha256: '', bindings: {} }, signal: new AbortController().signal };
    const called = await toolB.handler({ text: 'hi' }, context);
    expect(called.ok && called.value.protocol?.server).toBe('b');
    expect([a.calls, b.calls]).toEqual([[], [{ tool: 'echo', args: { text: 'hi' } }]]);
    expect(opened.value.protocolOf?.('act-1')?.jsonrpcId).toBe(2);
    await opened.value.close();
  });

  describe('tasks (2025-11-25): a tool is called as one exactly when its taskSupport and its server allow it', () => {
    const TASKS = { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } };
    const withSupport = (name: string, taskSupport: string) => ({ ...echoEntry, name, execution: { taskSupport } });
    const context = (actionId: string) => ({ runDir: '/', actionId, toolCallId: `toolu_${actionId}`, request: { id: 'req-1', payload: new Uint8Array(), payloadSha256: '', bindings: {} }, signal: new AbortController().signal });

    test('optional or required on a server declaring tasks.requests.tools.call: a background contract, called with task; forbidden or absent: synchronous', async () => {
      const a = fakeClient('a', [withSupport('opt', 'optional'), withSupport('req', 'required'), withSupport('never', 'forbidden'), echoEntry], '', { version: '2025-11-25', capabilities: TASKS });
      const servers = await startConfiguredServers([{ key: 'a' }], deps({ a }));
      const opened = await servers.provider.open({ runId: 'run-1' });
      if (!opened.ok) throw new Error(opened.message);
      const [opt, req, never, echo] = opened.value.tools;
      expect([opt!.contract.completion?.support, req!.contract.completion?.support, never!.contract.completion, echo!.contract.completion]).toEqual(['optional', 'required', undefined, undefined]);
      // The handler's deadline leaves room past the task's for the one cancel (taskHandlerMs).
      expect(opt!.contract.limits.timeoutMs).toBe(taskHandlerMs(1_000));
      expect(taskHandlerMs(1_000)).toBeGreaterThan(1_000 + LIMITS.taskCancelMs);
      expect(echo!.contract.limits.timeoutMs).toBe(1_000);
      await opt!.handler({ text: 'hi' }, context('act-1'));
      await echo!.handler({ text: 'hi' }, context('act-2'));
      expect(a.calls).toEqual([{ tool: 'opt', args: { text: 'hi' }, task: true }, { tool: 'echo', args: { text: 'hi' } }]);
      await opened.value.close();
    });

    test('the same listing at 2025-06-18 binds synchronous contracts, the binding ids of a server without tasks', async () => {
      const listing = [withSupport('opt', 'optional'), echoEntry];
      const old = await startConfiguredServers([{ key: 'a' }], deps({ a: fakeClient('a', listing, '', { capabilities: TASKS }) }));
      const plain = await startConfiguredServers([{ key: 'a' }], deps({ a: fakeClient('a', listing, '', { version: '2025-11-25' }) }));
      expect(old.provider.offers.map((o) => o.contract.completion)).toEqual([undefined, undefined]);
      expect(old.starts[0]!.tools).toEqual(plain.starts[0]!.tools);
      await Promise.all([old.close(), plain.close()]);
    });

    test('required on a 2025-11-25 server without the capability: bound, but each call precondition/task_unsupported, never sent', async () => {
      const a = fakeClient('a', [withSupport('req', 'required')], '', { version: '2025-11-25' });
      const servers = await startConfiguredServers([{ key: 'a' }], deps({ a }));
      const opened = await servers.provider.open({ runId: 'run-1' });
      if (!opened.ok) throw new Error(opened.message);
      const refused = opened.value.tools[0]!.check?.({ text: 'hi' }, context('act-1'));
      expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'task_unsupported' });
      expect(a.calls).toEqual([]);
      await opened.value.close();
    });
  });

  test('a server that does not start is recorded failed; the others go on', async () => {
    const b = fakeClient('b', [echoEntry]);
    const servers = await startConfiguredServers([{ key: 'a', configKey: 'a.dotted' }, { key: 'b' }], deps({ b }));
    expect(servers.starts[0]).toEqual({ key: 'a', config_key: 'a.dotted', status: 'failed', failure: { class: 'spawn', kind: 'exited_early', message: 'a ended before the handshake' }, tools: [], notices: [] });
    expect(servers.failureOf('a')?.kind).toBe('exited_early');
    expect(servers.failureOf('b')).toBeUndefined();
    expect(servers.provider.servers).toEqual(['a', 'b']);
    expect(servers.provider.offers.map((offer) => offer.binding.tool)).toEqual(['mcp__b__echo']);
    expect(await servers.close()).toEqual([
      { key: 'a', close: null, list_changed: { seen: 0, relists: [] }, stderr: '' },
      expect.objectContaining({ key: 'b', list_changed: { seen: 1, relists: [expect.objectContaining({ outcome: 'unchanged' })] } }),
    ]);
  });

  test('a tool that cannot be bound is recorded unbound with why; its neighbours bind', async () => {
    const a = fakeClient('a', [{ name: 'broken' }, echoEntry, 'not a tool']);
    const servers = await startConfiguredServers([{ key: 'a' }], deps({ a }));
    expect(servers.starts[0]!.tools.map((tool) => `${tool.name}:${tool.status}`)).toEqual(['broken:unbound', 'echo:bound', '(unnamed):unbound']);
    const bound = servers.starts[0]!.tools[1]!;
    expect(bound.status === 'bound' && bound.model_name).toBe('mcp__a__echo');
    await servers.close();
  });

  test('a name the Messages API refuses is rewritten; the binding keeps both names and the rule', async () => {
    const long = `${'x'.repeat(70)}`;
    const a = fakeClient('a', [{ ...echoEntry, name: 'dotted.name' }, { ...echoEntry, name: long }]);
    const servers = await startConfiguredServers([{ key: 'a' }], deps({ a }));
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    const [dotted, longTool] = opened.value.tools;
    expect(dotted!.binding.tool).toMatch(/^mcp__a__dotted_name_[0-9a-f]{8}$/);
    expect(dotted!.binding.naming).toEqual({ full: 'mcp__a__dotted.name', rule: 'caplab.tool-name/1' });
    expect(longTool!.binding.tool).toHaveLength(64);
    await opened.value.close();
  });

  test('close happens once, after which run_end reads what each server said, its stderr redacted and cut', async () => {
    const a = fakeClient('a', [echoEntry], `${'x'.repeat(10_000)} token=SECRETVALUE`);
    const servers = await startConfiguredServers([{ key: 'a' }], deps({ a }, (text) => text.replaceAll('SECRETVALUE', '[redacted:TOKEN]')));
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    await opened.value.close();
    await servers.close();
    expect(a.closed).toBe(1);
    const [end] = opened.value.servers!.end();
    expect(end!.stderr.endsWith('token=[redacted:TOKEN]')).toBe(true);
    expect(end!.stderr.length).toBeLessThanOrEqual(4096);
  });

  test('a server reached over HTTP: its bindings state the HTTP gaps, its exchanges are mcp-http, its session is recorded by sha256 only', async () => {
    const endpoint = { kind: 'http', url: 'https://mcp.example.test/mcp', headerNames: ['Authorization'] } as const;
    const remote = { ...fakeClient('remote', [echoEntry]), identity: { ...identity('remote'), endpoint }, sessionSha256: 'c'.repeat(64) };
    const local = fakeClient('local', [echoEntry]);
    const servers = await startConfiguredServers([{ key: 'remote' }, { key: 'local' }], deps({ remote, local }));
    expect(servers.starts.map((start) => start.session_sha256)).toEqual(['c'.repeat(64), undefined]);
    expect('session_sha256' in servers.starts[1]!).toBe(false);
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    const [remoteTool, localTool] = opened.value.tools;
    expect([remoteTool!.binding.gaps, localTool!.binding.gaps]).toEqual([CONFIGURED_HTTP_GAPS, CONFIGURED_GAPS]);
    expect(remoteTool!.binding.server?.endpoint).toEqual(endpoint);
    const context = (actionId: string) => ({ runDir: '/', actionId, toolCallId: `toolu_${actionId}`, request: { id: 'req-1', payload: new Uint8Array(), payloadSha256: '', bindings: {} }, signal: new AbortController().signal });
    const calls = [await remoteTool!.handler({ text: 'a' }, context('act-1')), await localTool!.handler({ text: 'b' }, context('act-2'))];
    expect(calls.map((call) => call.ok && call.value.protocol?.transport)).toEqual(['mcp-http', 'mcp-stdio']);
    expect([opened.value.protocolOf?.('act-1')?.transport, opened.value.protocolOf?.('act-2')?.transport]).toEqual(['mcp-http', 'mcp-stdio']);
    await opened.value.close();
  });

  test('a revision without structured results binds no outputSchema: one listed anyway is an extra field', async () => {
    const typed = { ...echoEntry, outputSchema: { type: 'object' } };
    const old = { ...fakeClient('old', [typed]), profile: versionProfile('2025-03-26')! };
    const now = fakeClient('now', [typed]);
    const servers = await startConfiguredServers([{ key: 'old' }, { key: 'now' }], deps({ old, now }));
    const opened = await servers.provider.open({ runId: 'run-1' });
    if (!opened.ok) throw new Error(opened.message);
    const [oldTool, nowTool] = opened.value.tools;
    expect(oldTool!.contract.result).toBe(CONTENT_RESULT);
    expect(nowTool!.contract.result).not.toBe(CONTENT_RESULT);
    await opened.value.close();
  });
});
