import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { canonicalJson } from '../contract/index.ts';
import { cli } from './cli.ts';
import { testIo } from './test-io.ts';
import { copyRun, demoRunDir, rechain, refOf, verifyJson, type Event } from './verify-test-kit.ts';

/**
 * verify over deferred-tool records (format 8), each forgery re-chained as a
 * careful forger would (lines, seq, prev and seal recomputed; a changed
 * payload's sha256 and size fixed in its request event): each is refused,
 * naming the event it is about. Only `select:` searches are forged here.
 */

const SCENARIOS = join(import.meta.dir, '../../fixtures/scenarios');
const parent = scratchDir('caplab-verify-deferred-');

async function scenarioRun(name: string, transport: 'local' | 'mcp' = 'local'): Promise<string> {
  const cwd = scratchDir('caplab-verify-deferred-run-');
  const code = await cli(['run', '--scenario', join(SCENARIOS, `${name}.json`), '--transport', transport, '--out', 'run'], testIo(cwd));
  if (code !== 0 && code !== 1) throw new Error(`${name} exited ${code}`);
  return join(cwd, 'run');
}

const SELECT = await scenarioRun('deferred-select');
const UNDISCLOSED = await scenarioRun('deferred-undisclosed');
const DEMO = await demoRunDir(parent);

/** Edits the events of a copy of `dir`, re-chained; returns the copy. */
function forged(dir: string, edit: (events: Event[]) => Event[]): string {
  const copy = copyRun(dir, parent);
  rechain(copy, edit);
  return copy;
}

/** Edits one event (the first that `pick` selects) of a copy, re-chained. */
function forgedEvent(dir: string, pick: (e: Event) => boolean, edit: (e: Event) => Event): string {
  return forged(dir, (events) => {
    const at = events.findIndex(pick);
    if (at < 0) throw new Error('no such event');
    return events.map((e, i) => (i === at ? edit(structuredClone(e)) : e));
  });
}

/** The refusal of verify: its kind, and the message, which names the event. */
async function refusal(dir: string): Promise<{ code: number; kind: string | undefined; message: string }> {
  const { code, doc } = await verifyJson(dir);
  return { code, kind: doc.error?.kind, message: doc.error?.message ?? '' };
}

const isRequest = (id: string) => (e: Event) => e.type === 'request' && e['request_id'] === id;

test('the deferred runs verify as written (both scenarios, over MCP too)', async () => {
  for (const dir of [SELECT, UNDISCLOSED, await scenarioRun('deferred-search', 'mcp')]) expect((await verifyJson(dir)).code).toBe(0);
});

test("a name added to a request's disclosed_tools: disclosure_mismatch, naming the request", async () => {
  const copy = forgedEvent(SELECT, isRequest('req-01'), (e) => ({ ...e, disclosed_tools: ['read_source'] }));
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'disclosure_mismatch']);
  expect(got.message).toContain('request req-01');
  expect(got.message).toContain('disclosed_tools ["read_source"]');
});

test('visible_tool_bytes changed: disclosure_mismatch, naming the request', async () => {
  const copy = forgedEvent(SELECT, isRequest('req-02'), (e) => ({ ...e, visible_tool_bytes: (e['visible_tool_bytes'] as number) - 1 }));
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'disclosure_mismatch']);
  expect(got.message).toContain('request req-02: visible_tool_bytes');
});

test('a deferred: true removed from a request\'s tools, or one added: disclosure_mismatch, naming the request', async () => {
  const removed = forgedEvent(SELECT, isRequest('req-01'), (e) => ({ ...e, tools: (e['tools'] as { deferred?: true }[]).map(({ deferred: _d, ...tool }) => tool) }));
  const added = forgedEvent(SELECT, isRequest('req-03'), (e) => ({ ...e, tools: (e['tools'] as object[]).map((tool) => ({ ...tool, deferred: true })) }));
  for (const copy of [removed, added]) {
    const got = await refusal(copy);
    expect([got.code, got.kind]).toEqual([1, 'disclosure_mismatch']);
    expect(got.message).toMatch(/^request req-0[13]: marks /);
  }
});

test('the refused read of deferred-undisclosed flipped to handler_entered: refused as call_inconsistent (its stages end at resolve), naming the call', async () => {
  // checkRecord's story check comes first; deferral-checks.test.ts reaches undisclosed_call itself.
  const copy = forgedEvent(UNDISCLOSED, (e) => e.type === 'call' && e['name'] === 'read_source', (e) => ({ ...e, handler_entered: true }));
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'call_inconsistent']);
  expect(got.message).toContain('toolu_01');
});

/** Adds a reference to create_card to ToolSearch's tool_result in request 2's payload, fixing the payload's ref in its event. */
function referenceAdded(dir: string, changeEvent = true): string {
  const copy = copyRun(dir, parent);
  const path = 'requests/02-request.json';
  const payload = JSON.parse(readFileSync(join(copy, path), 'utf8'));
  const result = payload.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : [])).find((b: { type: string; tool_use_id?: string }) => b.type === 'tool_result' && b.tool_use_id === 'toolu_01');
  result.content.push({ type: 'tool_reference', tool_name: 'create_card' });
  writeFileSync(join(copy, path), JSON.stringify(payload));
  const ref = refOf(copy, path);
  rechain(copy, (events) =>
    events.map((e) => {
      if (!isRequest('req-02')(e) || !changeEvent) return e;
      const files = (e['files'] as { role: string; path: string }[]).map((f) => (f.path === path ? { ...f, ...ref } : f));
      return { ...e, payload: { ...(e['payload'] as object), ...ref }, files };
    }),
  );
  return copy;
}

test("a reference added to ToolSearch's tool_result in the next payload (its hash fixed): refused as result_mismatch, naming the ToolSearch call", async () => {
  const got = await refusal(referenceAdded(SELECT));
  expect([got.code, got.kind]).toEqual([1, 'result_mismatch']);
  expect(got.message).toContain('toolu_01');
});

/**
 * Rewrites every request/response file of a copy through `edit`, then fixes
 * each changed file's sha256 and size wherever an event refers to it, re-chained.
 */
function filesEdited(dir: string, edit: (text: string) => string, events: (events: Event[]) => Event[] = (e) => e): string {
  const copy = copyRun(dir, parent);
  const changed = new Map<string, { sha256: string; bytes: number }>();
  for (const name of readdirSync(join(copy, 'requests'))) {
    const path = `requests/${name}`;
    const text = readFileSync(join(copy, path), 'utf8');
    const next = edit(text);
    if (next === text) continue;
    writeFileSync(join(copy, path), next);
    changed.set(path, refOf(copy, path));
  }
  const fix = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fix);
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value).map(([k, v]) => [k, fix(v)] as const);
    const path = (value as { path?: unknown }).path;
    const ref = typeof path === 'string' ? changed.get(path) : undefined;
    return { ...Object.fromEntries(entries), ...(ref ?? {}) };
  };
  rechain(copy, (all) => events(all.map((e) => fix(e) as Event)));
  return copy;
}

test("a ToolSearch whose query is rewritten everywhere (call, response, payloads, hashes fixed): searching again disagrees with the next payload's references, search_mismatch naming the call", async () => {
  const query = (q: string) => (e: Event) =>
    e.type === 'call' && e['name'] === 'ToolSearch' ? { ...e, arguments: { converted: { max_results: 1, query: q }, original: { max_results: 1, query: q } } } : e;
  const copy = filesEdited(SELECT, (text) => text.replace(/("query": ?"select:)read_source"/g, '$1create_card"'), (events) => events.map(query('select:create_card')));
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'search_mismatch']);
  expect(got.message).toContain('call toolu_01: the next payload references ["read_source"]; searching its producing payload again gives []');
});

test("`defer` removed from a format-8 record's run_start: format_mismatch", async () => {
  const copy = forgedEvent(SELECT, (e) => e.type === 'run_start', ({ defer: _d, ...start }) => start as Event);
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'format_mismatch']);
});

/** A copy whose seal and run_end name `format` instead. */
function renamed(dir: string, format: string, edit: (events: Event[]) => Event[] = (events) => events): string {
  const copy = copyRun(dir, parent);
  const seal = join(copy, 'ledger.head');
  writeFileSync(seal, `${canonicalJson({ ...JSON.parse(readFileSync(seal, 'utf8')), format })}\n`);
  rechain(copy, (events) => edit(events).map((e) => (e.type === 'run_end' ? { ...e, format } : e)));
  return copy;
}

test('format-8 fields under an older name are refused: a format-8 record renamed 7, and a format-4 record given defer, disclosed_tools or deferred', async () => {
  // renamed 7 with its defer: a record uses format 8's shapes under 7's name
  const as7 = await refusal(renamed(SELECT, 'caplab.ledger/7'));
  expect([as7.code, as7.kind]).toEqual([1, 'format_mismatch']);
  // renamed 7 without its defer: its first request's deferred entry is no format 7 field (named: line 2)
  const bare7 = await refusal(renamed(SELECT, 'caplab.ledger/7', (events) => events.map((e) => (e.type === 'run_start' ? (({ defer: _d, ...start }) => start as Event)(e) : e))));
  expect([bare7.code, bare7.kind]).toEqual([1, 'format_mismatch']);
  expect(bare7.message).toStartWith('line 2 is a request event of caplab.ledger/8, not of caplab.ledger/7');
  const forgeries = [
    forgedEvent(DEMO, (e) => e.type === 'run_start', (e) => ({ ...e, defer: ['read_source'] })),
    forgedEvent(DEMO, isRequest('req-01'), (e) => ({ ...e, disclosed_tools: [] })),
    forgedEvent(DEMO, isRequest('req-01'), (e) => ({ ...e, visible_tool_bytes: 10 })),
    forgedEvent(DEMO, isRequest('req-01'), (e) => ({ ...e, tools: (e['tools'] as object[]).map((tool) => ({ ...tool, deferred: true })) })),
  ];
  const got = await Promise.all(forgeries.map(refusal));
  expect(got.map((g) => [g.code, g.kind, g.message.split(/ that |, /)[0]])).toEqual([
    [1, 'bad_event', 'line 1: run_start has a field "defer"'],
    [1, 'bad_event', 'line 2: request has a field "disclosed_tools"'],
    [1, 'bad_event', 'line 2: request has a field "visible_tool_bytes"'],
    [1, 'format_mismatch', 'line 2 is a request event of caplab.ledger/8'],
  ]);
});

test('a format-8 record whose run_start defers, but whose requests record nothing of it: disclosure_mismatch', async () => {
  const copy = forged(SELECT, (events) => events.map((e) => (e.type === 'request' ? (({ disclosed_tools: _d, visible_tool_bytes: _v, ...rest }) => rest as Event)(e) : e)));
  const got = await refusal(copy);
  expect([got.code, got.kind]).toEqual([1, 'disclosure_mismatch']);
});
