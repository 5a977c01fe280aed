import { expect, test } from 'bun:test';
import { ok, sha256Hex } from '../../contract/index.ts';
import { executeCall, type CallRecord, type PermissionDecision, type Pipeline, type ProducingRequest, type RuntimeTool } from '../../pipeline/index.ts';
import { echoTool } from '../../pipeline/testing/call-state.ts';
import { TOOL_SEARCH } from '../disclosure.ts';
import { hostProvider, type HostServices } from '../host-tools.ts';
import { runNames } from '../run-names.ts';
import { toolSearch } from './tool-search.ts';

/**
 * The ToolSearch built-in through the one pipeline, as a run calls it: it
 * reads only its producing request's deferred `tools` entries, answers with
 * tool_reference blocks result_validate lets through (it is the host tool
 * that says `references`), names what it cannot reference in text — a
 * denied tool is referenced with the denial — and its input is Claude Code's,
 * bounded. Ranking is search.ts's to test; only `select:` is used here.
 */

const utf8 = new TextEncoder();
const schema = { type: 'object', properties: { source_id: { type: 'string' } } };
const entry = (name: string, deferred: boolean) => ({ name, description: `the ${name} tool`, input_schema: schema, ...(deferred ? { defer_loading: true } : {}) });

function requestOf(tools: readonly Record<string, unknown>[]): ProducingRequest {
  const payload = utf8.encode(JSON.stringify({ model: 'm', max_tokens: 1, system: [], tools, messages: [{ role: 'user', content: 'go' }] }));
  return { id: 'req-07', payload, payloadSha256: sha256Hex(payload), bindings: {} };
}

async function searched(input: unknown, options: { tools?: readonly Record<string, unknown>[]; deny?: readonly string[] } = {}): Promise<{ record: CallRecord; entered: number }> {
  let entered = 0;
  const table: Record<string, RuntimeTool> = { read_source: echoTool(), write_notes: echoTool() };
  const permission = (tool: RuntimeTool): PermissionDecision => {
    const name = Object.keys(table).find((key) => table[key] === tool) ?? '?';
    return options.deny?.includes(name) ? { decision: 'deny', by: 'rule', rule: name, reason: `deny rule ${name}` } : { decision: 'allow', by: 'default', reason: 'test' };
  };
  const services: HostServices = { tools: () => table, names: runNames(), signal: new AbortController().signal, permission: (tool) => permission(tool) };
  const opened = await hostProvider([toolSearch()], services).open({ runId: 'r' });
  if (!opened.ok) throw new Error(opened.message);
  const search = opened.value.tools[0]!;
  const counting: RuntimeTool = { ...search, handler: (i, c) => (entered++, search.handler(i, c)) };
  const pipeline: Pipeline = {
    tools: { [TOOL_SEARCH]: counting },
    hooks: [],
    permission: () => ({ decision: 'allow', by: 'default', reason: 'read-only' }),
    convert: (_binding, args) => ok({ converted: args, filled: [] }),
    keepOutput: (actionId, text) => ({ path: `outputs/${actionId}.txt`, sha256: sha256Hex(text), bytes: utf8.encode(text).byteLength }),
    session: { id: 's', transcriptPath: '/dev/null', cwd: '/' },
    runDir: '/nonexistent',
  };
  const request = { ...requestOf(options.tools ?? [entry('read_source', true), entry('write_notes', true), entry('create_card', false)]), bindings: { [TOOL_SEARCH]: counting.binding } };
  const record = await executeCall({ id: 'toolu_1', name: TOOL_SEARCH, arguments: input }, request, 'a1', pipeline);
  return { record, entered };
}

test("ToolSearch's own answer passes result_validate: tool_reference blocks in the order named, then text for what it cannot reference", async () => {
  const { record } = await searched({ query: 'select:write_notes,read_source,create_card,ghost', max_results: 5 });
  expect(record.outcome.ok).toBe(true);
  expect(record.stages.map((s) => s.stage)).toContain('result_validate');
  expect(record.modelContent).toEqual([
    { type: 'tool_reference', tool_name: 'write_notes' },
    { type: 'tool_reference', tool_name: 'read_source' },
    { type: 'text', text: 'create_card: no deferred tool of this request has this name\nghost: no deferred tool of this request has this name' },
  ]);
  expect(record.outcome.ok && record.outcome.value.data).toEqual({ references: ['write_notes', 'read_source'], unknown: ['create_card', 'ghost'], denied: [] });
});

test('ToolSearch searches only its producing request: a tool that request did not send deferred is never referenced', async () => {
  const { record } = await searched({ query: 'select:read_source', max_results: 5 }, { tools: [entry('read_source', false), entry('write_notes', true)] });
  expect(record.modelContent.filter((b) => b.type === 'tool_reference')).toEqual([]);
  expect(record.modelContent).toEqual([{ type: 'text', text: 'read_source: no deferred tool of this request has this name\nNo deferred tool matches "select:read_source".' }]);
});

test('max_results caps the references', async () => {
  const { record } = await searched({ query: 'select:read_source,write_notes', max_results: 1 });
  expect(record.modelContent.filter((b) => b.type === 'tool_reference')).toEqual([{ type: 'tool_reference', tool_name: 'read_source' }]);
});

test('discovery is not permission: a denied deferred tool is still referenced, with the denial and that a call will be refused', async () => {
  const { record } = await searched({ query: 'select:read_source,write_notes', max_results: 5 }, { deny: ['read_source'] });
  expect(record.modelContent).toEqual([
    { type: 'tool_reference', tool_name: 'read_source' },
    { type: 'tool_reference', tool_name: 'write_notes' },
    { type: 'text', text: 'read_source: denied by deny rule read_source; a call will be refused' },
  ]);
  expect(record.outcome.ok && record.outcome.value.data).toMatchObject({ denied: [{ tool: 'read_source', reason: 'deny rule read_source' }] });
});

test("ToolSearch's input is exactly Claude Code's, both fields required and bounded: anything else is refused before its handler", async () => {
  const long = 'select:' + 'é'.repeat(494); // 501 code points
  for (const input of [
    { query: 'select:read_source', max_results: 0 },
    { query: 'select:read_source', max_results: 21 },
    { query: 'select:read_source', max_results: 1.5 },
    { query: 'select:read_source' },
    { max_results: 5 },
    { query: '', max_results: 5 },
    { query: long, max_results: 5 },
    { query: 'select:read_source', max_results: 5, limit: 3 },
  ]) {
    const { record, entered } = await searched(input);
    expect({ input, class: record.outcome.ok ? 'ok' : record.outcome.class, entered }).toEqual({ input, class: 'invalid_arguments', entered: 0 });
  }
  const bounds = await searched({ query: 'select:' + 'é'.repeat(493), max_results: 20 });
  expect([bounds.record.outcome.ok, bounds.entered]).toEqual([true, 1]);
});
