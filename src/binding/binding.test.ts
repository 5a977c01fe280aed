import { describe, expect, test } from 'bun:test';
import * as v from 'valibot';
import { canonicalJson, exportContract, type Contract } from '../contract/index.ts';
import { readSourceContract, createCardContract } from '../excerpt/contracts.ts';
import { createTaskContract, setPropertiesContract, updateNoteContract } from '../../fixtures/contracts/index.ts';
import { bind, bindingId, MODEL_TARGETS, tryBind, type Binding, type BindOptions, type HttpEndpoint, type ServerIdentity, type StdioEndpoint } from './index.ts';

const local = { kind: 'local', version: '1.0.0' } as const;
const stdio: StdioEndpoint = { kind: 'stdio', argv: ['/usr/bin/caplab', 'serve'], cwd: '/', envNames: ['LANG', 'PATH'] };
const server = {
  key: 'caplab-fixture',
  name: 'caplab-fixture',
  version: '0.1.0',
  protocolVersion: '2025-06-18',
  endpoint: stdio,
  instanceId: 'instance-1',
} as const satisfies ServerIdentity;
const mcp: BindOptions = { target: 'strict', implementation: { kind: 'mcp', version: '0.1.0' }, server, gaps: ['remote build unknown'] };

function bound(contract: Contract, options: BindOptions): Binding {
  const result = tryBind(contract, options);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe('binding ids', () => {
  test('are identical across binds and across processes for the same inputs', () => {
    const here = MODEL_TARGETS.map((target) => bound(updateNoteContract, { ...mcp, target }).id);
    expect(MODEL_TARGETS.map((target) => bound(updateNoteContract, { ...mcp, target }).id)).toEqual(here);
    const script = `
      import { tryBind, MODEL_TARGETS } from './src/binding/index.ts';
      import { updateNoteContract } from './fixtures/contracts/index.ts';
      const options = ${JSON.stringify(mcp)};
      console.log(JSON.stringify(MODEL_TARGETS.map((target) => { const b = tryBind(updateNoteContract, { ...options, target }); return b.ok ? b.value.id : b.message; })));`;
    const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: `${import.meta.dir}/../..`, env: {}, stderr: 'pipe' });
    expect(run.stderr.toString()).toBe('');
    expect(JSON.parse(run.stdout.toString())).toEqual(here);
    expect(new Set(here).size).toBe(3); // the target is part of the id
  });

  test('change when the contract schema changes (one field, one bound)', () => {
    const wider = { ...updateNoteContract, input: v.strictObject({ ...updateNoteContract.input.entries, priority: v.optional(v.picklist(['low', 'normal', 'high', 'urgent'])) }) };
    const a = bound(updateNoteContract, mcp);
    const b = bound(wider, mcp);
    expect(b.contract.schemaHash).not.toBe(a.contract.schemaHash);
    expect(b.model.schemaHash).not.toBe(a.model.schemaHash);
    expect(b.id).not.toBe(a.id);
  });

  test('change when the conversion version changes', () => {
    const { id, ...body } = bound(updateNoteContract, mcp);
    expect(bindingId(body)).toBe(id);
    expect(bindingId({ ...body, conversion: { ...body.conversion, arguments: 'strict/2' } })).not.toBe(id);
    expect(bindingId({ ...body, conversion: { ...body.conversion, result: 'plain/2' } })).not.toBe(id);
  });

  test('change when the implementation version changes', () => {
    const a = bound(updateNoteContract, mcp);
    const b = bound(updateNoteContract, { ...mcp, implementation: { kind: 'mcp', version: '0.1.1' } });
    expect(b.id).not.toBe(a.id);
  });

  test('change when the server identity changes (restart, protocol, launch)', () => {
    const a = bound(updateNoteContract, mcp).id;
    const restarted = bound(updateNoteContract, { ...mcp, server: { ...server, instanceId: 'instance-2' } }).id;
    const protocol = bound(updateNoteContract, { ...mcp, server: { ...server, protocolVersion: '2025-03-26' } }).id;
    const launch = bound(updateNoteContract, { ...mcp, server: { ...server, endpoint: { ...server.endpoint, argv: ['/opt/caplab', 'serve'] } } }).id;
    expect(new Set([a, restarted, protocol, launch]).size).toBe(4);
  });

  // One row per contract field a caller relies on: each changes the id at the same name and version.
  const contractRows: [string, (c: Contract) => Contract][] = [
    ['effect', (c) => ({ ...c, effect: 'external' })],
    ['identity', (c) => ({ ...c, identity: 'service account notes-admin' })],
    ['readOnly', (c) => ({ ...c, readOnly: !c.readOnly })],
    ['destructive', (c) => ({ ...c, destructive: !c.destructive })],
    ['idempotent', (c) => ({ ...c, idempotent: !c.idempotent })],
    ['concurrencySafe', (c) => ({ ...c, concurrencySafe: !c.concurrencySafe })],
    ['openWorld', (c) => ({ ...c, openWorld: !c.openWorld })],
    ['limits.timeoutMs', (c) => ({ ...c, limits: { ...c.limits, timeoutMs: c.limits.timeoutMs + 1 } })],
    ['limits.maxResultBytes', (c) => ({ ...c, limits: { ...c.limits, maxResultBytes: c.limits.maxResultBytes + 1 } })],
    ['description', (c) => ({ ...c, description: `${c.description} Also deletes the note.` })],
    ['discovery', (c) => ({ ...c, discovery: `${c.discovery} (now faster)` })],
    ['preconditions', (c) => ({ ...c, preconditions: [...c.preconditions, 'note_unlocked'] })],
    ['completionEvidence', (c) => ({ ...c, completionEvidence: 'none: trust the server' })],
    ['errorClasses', (c) => ({ ...c, errorClasses: c.errorClasses.filter((e) => e !== 'timeout') })],
    ['result schema', (c) => ({ ...c, result: v.strictObject({ id: v.string() }) })],
  ];
  test.each(contractRows)('change when the contract %s changes at the same name and version', (field, change) => {
    const changed = change(updateNoteContract);
    expect([changed.name, changed.version]).toEqual([updateNoteContract.name, updateNoteContract.version]);
    // Schemas unchanged (except in the row about them): the id must move for the field itself.
    if (field !== 'result schema') expect(exportContract(changed)).toEqual(exportContract(updateNoteContract));
    for (const options of [{ implementation: local }, mcp]) {
      const a = bound(updateNoteContract, options);
      const b = bound(changed, options);
      expect(b.id).not.toBe(a.id);
      expect(canonicalJson(b.contract)).not.toBe(canonicalJson(a.contract)); // recorded in the body, not only hashed
    }
  });

  test('the body records every field of the contract a caller relies on', () => {
    const { contract } = bound(updateNoteContract, { implementation: local });
    const c = updateNoteContract;
    expect(contract).toMatchObject({
      name: c.name,
      version: c.version,
      description: c.description,
      discovery: c.discovery,
      effect: c.effect,
      identity: c.identity,
      attributes: { readOnly: c.readOnly, destructive: c.destructive, idempotent: c.idempotent, concurrencySafe: c.concurrencySafe, openWorld: c.openWorld },
      limits: c.limits,
      preconditions: c.preconditions,
      completionEvidence: c.completionEvidence,
      errorClasses: c.errorClasses,
      resultSchemaHash: exportContract(c).resultSchemaHash,
    });
  });

  const endpoint = (change: Partial<StdioEndpoint>): Partial<ServerIdentity> => ({ endpoint: { ...stdio, ...change } });
  const http: HttpEndpoint = { kind: 'http', url: 'https://mcp.example.test/mcp', headerNames: ['Authorization'] };
  const httpAt = (change: Partial<HttpEndpoint>): Partial<ServerIdentity> => ({ endpoint: { ...http, ...change } });
  const serverRows: [string, Partial<ServerIdentity>][] = [
    ['command', endpoint({ argv: ['/opt/caplab', 'serve'] })],
    ['args', endpoint({ argv: ['/usr/bin/caplab', 'serve', '--verbose'] })],
    ['cwd', endpoint({ cwd: '/srv/project' })],
    ['env names', endpoint({ envNames: ['LANG', 'PATH', 'TZ'] })],
    ['transport (an HTTP endpoint)', httpAt({})],
    ['key (the name the host gives it)', { key: 'notes' }],
    ['self-reported name', { name: 'someone-else' }],
  ];
  test.each(serverRows)('change when the MCP server %s changes', (_field, change) => {
    const a = bound(updateNoteContract, mcp);
    const b = bound(updateNoteContract, { ...mcp, server: { ...server, ...change } });
    expect(b.id).not.toBe(a.id);
    expect(b.server).toMatchObject(change);
  });

  test('an HTTP server: the id changes with its URL and its header names (values are not part of an endpoint)', () => {
    const over = (change: Partial<HttpEndpoint>): string => bound(updateNoteContract, { ...mcp, server: { ...server, ...httpAt(change) } }).id;
    const ids = [over({}), over({ url: 'https://mcp.example.test/other' }), over({ url: 'http://127.0.0.1:8080/mcp' }), over({ headerNames: ['Authorization', 'X-Tenant'] }), over({ headerNames: [] })];
    expect(new Set(ids).size).toBe(ids.length);
    expect(bound(updateNoteContract, { ...mcp, server: { ...server, ...httpAt({}) } }).server?.endpoint).toEqual(http);
  });

  test('change when gaps, fills or the tool name change', () => {
    const a = bound(createTaskContract, mcp).id;
    const gaps = bound(createTaskContract, { ...mcp, gaps: [] }).id;
    const fills = bound({ ...createTaskContract, fills: { priority: 'low' } }, mcp).id;
    const name = bound(createTaskContract, { ...mcp, tool: 'mcp__fixture__create_task' }).id;
    expect(new Set([a, gaps, fills, name]).size).toBe(4);
  });
});

describe('bind', () => {
  test('returns deep-frozen data and leaves the contract untouched', () => {
    const before = canonicalJson(exportContract(updateNoteContract));
    const binding = bound(updateNoteContract, mcp);
    expect(canonicalJson(exportContract(updateNoteContract))).toBe(before);
    expect(Object.isFrozen(updateNoteContract)).toBe(false);
    expect(Object.isFrozen(binding.model.schema)).toBe(true);
    expect(() => {
      (binding.contract.fills as Record<string, unknown>)['x'] = 1;
    }).toThrow();
    expect(() => {
      (binding.gaps as string[]).push('x');
    }).toThrow();
  });

  test('defaults to the plain target, whose model schema is the contract schema', () => {
    const binding = bind(readSourceContract, { implementation: local });
    expect(binding.model.target).toBe('plain');
    expect(binding.model.schemaHash).toBe(binding.contract.schemaHash);
    expect(binding.conversion).toEqual({ arguments: 'plain/1', result: 'plain/1' });
  });

  test('the excerpt contracts bind to every target without optional fields to encode', () => {
    for (const contract of [readSourceContract, createCardContract]) {
      for (const target of MODEL_TARGETS) expect(tryBind(contract, { target, implementation: local }).ok).toBe(true);
    }
  });

  test('refuses the unrepresentable example for strict, naming the field and why; bind throws for it', () => {
    const refused = tryBind(setPropertiesContract, { target: 'strict', implementation: local });
    expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'unrepresentable' });
    if (refused.ok) return;
    expect(refused.issues?.[0]).toBe('properties');
    expect(refused.message).toContain('set_properties: strict: properties: open key set');
    expect(refused.message).toContain('additionalProperties: false');
    expect(() => bind(setPropertiesContract, { target: 'strict', implementation: local })).toThrow(TypeError);
    expect(tryBind(setPropertiesContract, { target: 'anthropic', implementation: local }).ok).toBe(true);
  });

  test('refuses a valibot default on every target: validation would fill it silently', () => {
    const contract = { ...updateNoteContract, input: v.strictObject({ id: v.string(), title: v.optional(v.string(), 'untitled') }) };
    for (const target of MODEL_TARGETS) {
      const refused = tryBind(contract, { target, implementation: local });
      expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'silent_default' });
      if (!refused.ok) expect(refused.issues?.[0]).toBe('/properties/title');
    }
  });

  test("binds a SchemaValidator's default as an annotation (silent_default is valibot's), on each target that carries it", () => {
    const jsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({ n: Object.freeze({ type: 'integer', default: 3 }) }) });
    const input = { kind: 'json-schema', jsonSchema, validate: () => [] } as const;
    const contract: Contract = { ...updateNoteContract, input };
    for (const target of ['plain', 'anthropic'] as const) {
      const binding = bound(contract, { target, implementation: local });
      expect(binding.contract.schema).toEqual(jsonSchema);
      expect(binding.contract.fills).toEqual({});
      expect((binding.model.schema['properties'] as Record<string, { default?: unknown }>)['n']!.default).toBe(3);
    }
    // A target that cannot carry a default refuses it as it would any schema's: the caller leaves the tool unbound.
    expect(tryBind(contract, { target: 'strict', implementation: local })).toMatchObject({ ok: false, class: 'precondition', kind: 'unrepresentable' });
    // The same default written in valibot is still refused.
    expect(tryBind({ ...updateNoteContract, input: v.strictObject({ n: v.optional(v.number(), 3) }) }, { implementation: local })).toMatchObject({ kind: 'silent_default' });
  });

  test('refuses fills on a SchemaValidator input: a listed tool gets its arguments as the model sent them', () => {
    const jsonSchema = { type: 'object', properties: { n: { type: 'integer' } } };
    const contract: Contract = { ...updateNoteContract, input: { kind: 'json-schema', jsonSchema, validate: () => [] }, fills: { n: 3 } };
    const refused = tryBind(contract, { implementation: local });
    expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'invalid_fills', issues: ['n', expect.stringContaining('fills nothing')] });
    expect(bound({ ...contract, fills: {} }, { implementation: local }).contract.fills).toEqual({});
  });

  test('refuses fills that name a required or unknown field, or an invalid value', () => {
    const cases: [Readonly<Record<string, unknown>>, string][] = [
      [{ title: 'x' }, 'is required'],
      [{ owner: 'me' }, 'is not a field'],
      [{ priority: 'urgent' }, 'is not a valid value'],
    ];
    for (const [fills, reason] of cases) {
      const input = v.strictObject({ title: v.string(), priority: v.optional(v.picklist(['low', 'normal'])) });
      const refused = tryBind({ ...createTaskContract, input, fills }, { implementation: local });
      expect(refused).toMatchObject({ ok: false, class: 'precondition', kind: 'invalid_fills' });
      if (!refused.ok) expect(refused.message).toContain(reason);
    }
  });
});
