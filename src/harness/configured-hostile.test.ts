/**
 * Hostile listings through the configured-server provider with the real
 * listed-schema compiler (Ajv, `listedCompiler`): what each entry binds as,
 * or why it stays unbound. The server is a stand-in handing over a listing;
 * src/cli/configured-hostile.test.ts runs the same attacks over real processes.
 */
import { describe, expect, test } from 'bun:test';
import { modelToolName, qualifiedName, type ServerIdentity } from '../binding/index.ts';
import { isSchemaValidator, LIMITS, ok, type ContractSchema, type ValidationIssue } from '../contract/index.ts';
import { versionProfile } from '../mcp/index.ts';
import { textBlock } from '../pipeline/index.ts';
import { startConfiguredServers, type ConfiguredClient, type ConfiguredServers } from './configured-servers.ts';
import { listedCompiler } from './configured-tool.ts';

const identity: ServerIdentity = {
  key: 'h',
  name: 'hostile',
  version: '1.0.0',
  protocolVersion: '2025-06-18',
  endpoint: { kind: 'stdio', argv: ['/bin/hostile'], cwd: '(fresh)', envNames: [] },
  instanceId: 'run-1/h',
};

/** A server that lists `tools` under the revision `protocol`, and answers no call (none is made here). */
function listing(tools: readonly unknown[], protocol = '2025-06-18'): ConfiguredClient {
  return {
    identity: { ...identity, protocolVersion: protocol },
    profile: versionProfile(protocol)!,
    capabilities: { tools: {} },
    listing: { tools, notices: [] },
    callTool: async () => ok({ data: { content: [] }, content: [textBlock('unused')] }),
    listChanged: () => ({ seen: 0, relists: [] }),
    ended: () => undefined,
    exchanges: () => [],
    stderr: () => '',
    close: async () => undefined,
  };
}

async function bindAll(tools: readonly unknown[], protocol?: string): Promise<ConfiguredServers> {
  return startConfiguredServers([{ key: 'h' }], { open: async () => ok(listing(tools, protocol)), compiler: listedCompiler, requestMs: 1_000, redact: (text) => text });
}

async function toolsOf(tools: readonly unknown[], protocol?: string) {
  const servers = await bindAll(tools, protocol);
  const opened = await servers.provider.open({ runId: 'run-1' });
  if (!opened.ok) throw new Error(opened.message);
  return { servers, tools: opened.value.tools, close: () => opened.value.close() };
}

/** A listed tool's schema as its contract holds it: a JSON Schema validator. */
function check(schema: ContractSchema, value: unknown): readonly ValidationIssue[] {
  if (!isSchemaValidator(schema)) throw new Error('a listed schema is a validator');
  return schema.validate(value);
}

const object = (more: Record<string, unknown> = {}) => ({ type: 'object', ...more });

describe('names a value inherits are not its properties', () => {
  // Fails without `ownProperties` in probe-ajv.ts: Ajv read `{}.constructor` (a function) and `{}.__proto__`.
  test('an optional `constructor` or `toString` is absent from {}; a required one, or `__proto__`, is missing from it', async () => {
    const { tools, close } = await toolsOf([
      { name: 'optional', inputSchema: object({ properties: { constructor: { type: 'string' }, toString: { type: 'string' } } }) },
      { name: 'required', inputSchema: object({ required: ['constructor', '__proto__'] }) },
      { name: 'output', inputSchema: object(), outputSchema: object({ required: ['valueOf'] }) },
    ]);
    const [optional, required, output] = tools;
    expect(check(optional!.contract.input, {})).toEqual([]);
    expect(check(optional!.contract.input, { constructor: 'x', toString: 'y' })).toEqual([]);
    expect(check(required!.contract.input, {}).map((issue) => `${issue.keyword} ${issue.path}`)).toEqual(['required /constructor', 'required /__proto__']);
    expect(check(required!.contract.input, { constructor: 1 }).map((issue) => issue.path)).toEqual(['/__proto__']);
    expect(check(output!.contract.result, {}).map((issue) => issue.path)).toEqual(['/valueOf']);
    await close();
  });
});

describe('hostile entries', () => {
  test('each entry that is not a tool is unbound as malformed_tool, named by its place; the tools beside them bind', async () => {
    const servers = await bindAll([null, [], 7, 'echo', { name: 5, inputSchema: object() }, { name: 'desc', description: { text: 'x' }, inputSchema: object() }, { name: 'notes', inputSchema: object(), annotations: ['readOnlyHint'] }, { name: 'ok', inputSchema: object() }]);
    const tools = servers.starts[0]!.tools;
    expect(tools.map((tool) => [tool.name, tool.status === 'bound' ? 'bound' : `${tool.failure!.class}/${tool.failure!.kind}`])).toEqual([
      ['(unnamed)', 'protocol/malformed_tool'],
      ['(unnamed)', 'protocol/malformed_tool'],
      ['(unnamed)', 'protocol/malformed_tool'],
      ['(unnamed)', 'protocol/malformed_tool'],
      ['(unnamed)', 'protocol/malformed_tool'],
      ['desc', 'protocol/malformed_tool'],
      ['notes', 'protocol/malformed_tool'],
      ['ok', 'bound'],
    ]);
    await servers.close();
  });

  test('annotations that claim safety change nothing: the binding is external, not read-only, asks', async () => {
    const hints = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
    const { tools, close } = await toolsOf([{ name: 'safe', inputSchema: object(), annotations: hints }]);
    const [tool] = tools;
    expect(tool!.binding.contract).toMatchObject({ effect: 'external', attributes: { readOnly: false, idempotent: false, concurrencySafe: false, destructive: true, openWorld: true }, hints });
    expect([tool!.attributes.readOnly, tool!.attributes.needsInteraction, tool!.attributes.concurrencySafe]).toEqual([false, true, false]);
    await close();
  });

  test('a description over 2 KiB of four-byte characters is cut on a character, with the marker; the binding holds what the model is shown', async () => {
    const description = `${'😀'.repeat(1_000)}`;
    const { tools, close } = await toolsOf([{ name: 'long', description, inputSchema: object() }, { name: 'long2', description: `${description}tail`, inputSchema: object() }]);
    const [long, long2] = tools;
    const shown = long!.binding.contract.description;
    expect(new TextEncoder().encode(shown).byteLength).toBeLessThanOrEqual(LIMITS.toolDescriptionBytes);
    expect(shown).toMatch(/^(😀)+\n\[description cut: 4000 bytes\]$/u);
    expect(shown).toBe(long!.contract.description);
    // The same text is shown for both; the entries differ past the cut, so the bindings differ too.
    expect(long2!.binding.contract.description.replace('4004', '4000')).toBe(shown);
    expect(long2!.binding.id).not.toBe(long!.binding.id);
    await close();
  });

  test('an outputSchema listed by a revision without structured results is read as nothing: the tool binds on its blocks', async () => {
    const { tools, close } = await toolsOf([{ name: 'old', inputSchema: object(), outputSchema: object({ required: ['n'] }) }], '2025-03-26');
    expect(check(tools[0]!.contract.result, { content: [] })).toEqual([]);
    expect(tools[0]!.binding.contract.resultSchema).not.toHaveProperty('required', ['n']);
    await close();
  });

  test('a name of 200 characters, a line break or nothing but lone surrogates gets a conforming name; two lone surrogates collide', async () => {
    const names = ['x'.repeat(200), 'line\nbreak', '\ud800', '\udbff'];
    const servers = await bindAll(names.map((name) => ({ name, inputSchema: object() })));
    const models = servers.provider.offers.map((offer) => offer.binding.tool);
    expect(models).toEqual(names.map((name) => modelToolName(qualifiedName('h', name))));
    expect(models.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    // Both encode as U+FFFD before hashing: one model name for two tools, which the run refuses (duplicate_tool).
    expect(models[2]).toBe(models[3]);
    await servers.close();
  });
});

describe('a schema without $schema is read as the answered revision says', () => {
  // draft-07's tuple form: `items` an array, `additionalItems` the rest. 2025-11-25 reads a schema without $schema as 2020-12, where neither means that.
  const tuple = { name: 'pair', inputSchema: object({ properties: { pair: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } }) };

  test('at 2025-06-18 (lenient: 2020-12, else draft-07) the draft-07 tuple binds and refuses a second item', async () => {
    const { tools, close } = await toolsOf([tuple], '2025-06-18');
    expect(tools).toHaveLength(1);
    expect(check(tools[0]!.contract.input, { pair: ['a', 'b'] }).map((i) => i.keyword)).toEqual(['additionalItems']);
    await close();
  });

  test('at 2025-11-25 it is read as 2020-12, where an array `items` does not compile: unbound, named', async () => {
    const servers = await bindAll([tuple], '2025-11-25');
    expect(servers.starts[0]!.tools).toEqual([{ name: 'pair', status: 'unbound', failure: expect.objectContaining({ class: 'protocol', kind: 'unbindable_schema' }) }]);
    await servers.close();
  });
});
