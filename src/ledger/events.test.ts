/**
 * The event schemas (events.ts): every known format's schemas as JSON Schema
 * must be the committed snapshot (`events.schema.json`), so a schema never
 * changes while the format a record names does not; the writer's types and
 * runtime check and the reader's parse agree.
 *
 * After naming a new format (format.ts), add its entry to the snapshot with
 * `UPDATE=1 npx bun test src/ledger/events.test.ts`; that never rewrites the
 * entry of a format already committed.
 */
import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { EVENT_SCHEMAS, eventTypesOf, FORMAT_USES, type CallEvent, type Event, type EventInput } from './events.ts';
import { KNOWN_FORMATS, LEDGER_FORMAT, LEDGER_FORMAT_2, LEDGER_FORMAT_3, LEDGER_FORMAT_4, LEDGER_FORMAT_5, LEDGER_FORMAT_6, LEDGER_FORMAT_7, type RecordFormat } from './format.ts';
import { fixedClock } from './clock.ts';
import { assertWritable } from './parse-events.ts';
import { readRecordEvents } from './read-events.ts';
import { openRunDir } from './run-dir.ts';
import { failedEnd, must, sampleStart, tempDir, writeSampleRun } from './testing/sample-run.ts';

const SNAPSHOT = join(import.meta.dir, 'events.schema.json');

const H = '0'.repeat(64);
/** A binding as a record of format 4 holds one (the ledger imports no binding layer; the shape is the schema's). */
const SAMPLE_BINDING = {
  id: H,
  tool: 'mcp__a__e_x_01234567',
  contract: {
    name: 'e.x', version: '1', description: 'd', discovery: 'd', effect: 'external', identity: 'server a',
    attributes: { readOnly: false, destructive: false, idempotent: false, concurrencySafe: false, openWorld: true },
    limits: { timeoutMs: 1000, maxResultBytes: 1024 }, preconditions: [], completionEvidence: 'e', errorClasses: ['protocol'],
    schema: {}, schemaHash: H, resultSchema: {}, resultSchemaHash: H, fills: {},
  },
  model: { target: 'plain', schema: {}, schemaHash: H },
  conversion: { arguments: 'a', result: 'r' },
  implementation: { kind: 'mcp', version: 'v' },
  server: { key: 'a', name: 'n', version: '1', protocolVersion: 'p', endpoint: { kind: 'stdio', argv: ['s'], cwd: '/', envNames: [] }, instanceId: 'i' },
  gaps: [],
};

/** One format's event schemas as JSON Schema, by event type. */
const jsonSchemasOf = (format: RecordFormat): Record<string, unknown> =>
  Object.fromEntries(eventTypesOf(format).map((type) => [type, toJsonSchema(EVENT_SCHEMAS[format][type].line)]));

const committed = (): { formats: Record<string, unknown> } => JSON.parse(readFileSync(SNAPSHOT, 'utf8'));

/** Why the snapshot and the schemas disagree, one line per format; empty when they agree. */
function snapshotProblems(formats: Readonly<Record<string, unknown>>, current: (format: RecordFormat) => unknown): string[] {
  const problems: string[] = [];
  for (const format of KNOWN_FORMATS) {
    if (!(format in formats)) problems.push(`${format} has no committed schemas: add them with UPDATE=1 npx bun test src/ledger/events.test.ts`);
    else if (JSON.stringify(formats[format]) !== JSON.stringify(current(format))) {
      problems.push(
        `the schemas of ${format} changed, but a record of a format never changes shape: name a new format for the change ` +
          '(LEDGER_FORMAT_n and KNOWN_FORMATS in format.ts, `since(...)` on the field in events.ts), then add its entry with UPDATE=1 ' +
          '(a format that no record has ever named — never on main — may instead have its entry deleted and re-added)',
      );
    }
  }
  for (const format of Object.keys(formats)) {
    if (!(KNOWN_FORMATS as readonly string[]).includes(format)) problems.push(`${format} is committed but no longer read: every earlier format stays readable`);
  }
  return problems;
}

test('every known format\'s event schemas are the committed snapshot (a schema does not change while its format does not)', () => {
  const { formats } = committed();
  if (process.env['UPDATE'] === '1') {
    const added = Object.fromEntries(KNOWN_FORMATS.filter((format) => !(format in formats)).map((format) => [format, jsonSchemasOf(format)]));
    writeFileSync(SNAPSHOT, `${JSON.stringify({ formats: { ...formats, ...added } }, null, 2)}\n`);
  }
  expect(snapshotProblems(committed().formats, jsonSchemasOf)).toEqual([]);
});

test('the snapshot check names a changed schema, a format without an entry and one no longer read', () => {
  const { formats } = committed();
  const changed = (format: RecordFormat) => (format === LEDGER_FORMAT ? { changed: true } : jsonSchemasOf(format));
  expect(snapshotProblems(formats, changed)).toEqual([expect.stringContaining(`the schemas of ${LEDGER_FORMAT} changed`)]);
  const { [LEDGER_FORMAT_3]: _newest, ...older } = formats;
  expect(snapshotProblems(older, jsonSchemasOf)).toEqual([`${LEDGER_FORMAT_3} has no committed schemas: add them with UPDATE=1 npx bun test src/ledger/events.test.ts`]);
  expect(snapshotProblems({ ...formats, 'caplab.ledger/1': {} }, jsonSchemasOf)).toEqual(['caplab.ledger/1 is committed but no longer read: every earlier format stays readable']);
});

test('a field a format added is absent from the earlier ones: the shapes of 3 are not events of 2', () => {
  const line = (data: object, type: string) => ({ ...data, seq: 0, type, at: '2023-11-14T22:13:20.000Z', prev: '0'.repeat(64) });
  const { task: _task, ...untasked } = sampleStart();
  const plain = line({ ...untasked, method: { plain: true, name: 'p', body: { sha256: '0'.repeat(64), bytes: 0 } } }, 'run_start');
  expect(() => assertWritable(LEDGER_FORMAT_2, 'run_start', plain)).toThrow(/method\.plain: Invalid type: Expected never/);
  expect(() => assertWritable(LEDGER_FORMAT_3, 'run_start', plain)).not.toThrow();
  // run_end names the format above the base one, and only that one.
  expect(() => assertWritable(LEDGER_FORMAT_3, 'run_end', line(failedEnd(), 'run_end'))).toThrow(/format: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_3, 'run_end', line({ ...failedEnd(), format: LEDGER_FORMAT_3 }, 'run_end'))).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_2, 'run_end', line({ ...failedEnd(), format: LEDGER_FORMAT_2 }, 'run_end'))).toThrow(/format: Invalid type: Expected never/);
  expect(v.is(EVENT_SCHEMAS[LEDGER_FORMAT_2].call.line, {})).toBe(false);
});

test('format 4 has the shapes of 3 and adds its own, which 2 and 3 refuse; what it no longer names is the task\'s', () => {
  const line = (data: object, type: string) => ({ ...data, seq: 0, type, at: '2023-11-14T22:13:20.000Z', prev: '0'.repeat(64) });
  const start = line({ ...sampleStart(), method: { plain: true, name: 'p', body: { sha256: '0'.repeat(64), bytes: 0 } } }, 'run_start');
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', start)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_3, 'run_start', start)).toThrow(/task: Invalid key/);
  // run_start and request are open from 4 (a task's own fields); 2 and 3 name the excerpt's snapshot and disclosure.
  const { snapshot: _snapshot, ...withoutSnapshot } = start as Record<string, unknown>;
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', withoutSnapshot)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', { ...withoutSnapshot, own: 1 })).not.toThrow();
  const replayed = { name: 'replayed:m', scripted: false, origin: 'replayed', replay: { file: 'r.jsonl', sha256: '0'.repeat(64), bytes: 1, lines: 1 } };
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', { ...start, scenario: null, model: replayed })).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', { ...start, model: { ...replayed, origin: 'scripted' } })).toThrow(/model/);
  const response = (data: object) => line({ request_id: 'req-1', files: [], stop_reason: 'max_tokens', ...data }, 'response');
  const usage = { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: null, cache_read_input_tokens: 3, service_tier: 'standard' };
  expect(() => assertWritable(LEDGER_FORMAT_4, 'response', response({ scripted: false, origin: 'replayed', usage }))).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_4, 'response', response({ scripted: false, origin: 'replayed', usage: { ...usage, synthetic: true } }))).toThrow(/synthetic: Invalid type/);
  expect(() => assertWritable(LEDGER_FORMAT_3, 'response', response({ scripted: true, stop_reason: 'end_turn', origin: 'replayed', usage: { input_tokens: 1, output_tokens: 2, synthetic: true } }))).toThrow(/origin: Invalid key/);
  const end = line({ ...failedEnd(), format: LEDGER_FORMAT_4, replay: { lines_used: 1, lines_unused: 0 } }, 'run_end');
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_end', end)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_3, 'run_end', { ...end, format: LEDGER_FORMAT_3 })).toThrow(/replay: Invalid key/);
  // A call hashes its result blocks from 4, its text block before it.
  const call = EVENT_SCHEMAS[LEDGER_FORMAT_4].call.line;
  const schema = (format: RecordFormat) => toJsonSchema(EVENT_SCHEMAS[format].call.line) as { properties: Record<string, unknown>; required: string[] };
  expect(schema(LEDGER_FORMAT_4).required).toContain('model_content_sha256');
  expect(schema(LEDGER_FORMAT_4).properties).not.toHaveProperty('model_text_sha256');
  expect(schema(LEDGER_FORMAT_3).required).toContain('model_text_sha256');
  expect(schema(LEDGER_FORMAT_3).properties).not.toHaveProperty('model_content_sha256');
  expect(v.is(call, {})).toBe(false);
});

test('format 5 has the shapes of 4 and adds configured servers (run_start, run_end) and a binding\'s naming and hints, which 4 refuses', () => {
  const line = (data: object, type: string) => ({ ...data, seq: 0, type, at: '2023-11-14T22:13:20.000Z', prev: '0'.repeat(64) });
  const identity = { key: 'a', name: 'n', version: '1', protocolVersion: '2025-06-18', endpoint: { kind: 'stdio', argv: ['s'], cwd: '(fresh)', envNames: [] }, instanceId: 'i' };
  const failure = { class: 'spawn', kind: 'spawn_failed', message: 'no' };
  const tools = [{ name: 'e.x', status: 'bound', model_name: 'mcp__a__e_x_01234567', binding_id: '0'.repeat(64) }, { name: 'odd', status: 'unbound', failure }];
  const servers = [{ key: 'a', status: 'started', identity, tools, notices: [] }, { key: 'b', config_key: 'b.c', status: 'failed', failure, tools: [], notices: ['b did not start'] }];
  const start = line({ ...sampleStart(), servers }, 'run_start');
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_start', start)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_start', { ...start, servers: [] })).toThrow(/servers: Invalid length/);
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_start', { ...start, servers: [{ ...servers[0], tools: [{ ...tools[0], failure }] }] })).toThrow(/failure: Invalid key/);
  const ends = [{ key: 'a', close: { exitCode: 0 }, list_changed: { seen: 1, relists: [{ outcome: 'unchanged', changed: [], removed: [], added: [] }] }, stderr: '' }, { key: 'b', close: null, list_changed: { seen: 0, relists: [] }, stderr: '' }];
  const end = line({ ...failedEnd(), format: LEDGER_FORMAT_5, servers: ends }, 'run_end');
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_end', end)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_end', { ...end, format: LEDGER_FORMAT_4 })).toThrow(/servers: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_end', { ...end, servers: [{ ...ends[0], list_changed: { seen: -1, relists: [] } }] })).toThrow(/seen/);
  // A binding's naming and hints are format 5's.
  const binding = { ...SAMPLE_BINDING, naming: { full: 'mcp__a__e.x', rule: 'caplab.tool-name/1' }, contract: { ...SAMPLE_BINDING.contract, hints: { readOnlyHint: true } } };
  expect(() => assertWritable(LEDGER_FORMAT_5, 'run_start', { ...start, bindings: [binding] })).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', line({ ...sampleStart(), bindings: [binding] }, 'run_start'))).toThrow(/naming: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', line({ ...sampleStart(), bindings: [{ ...binding, naming: undefined }] }, 'run_start'))).toThrow(/hints: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_4, 'run_start', line({ ...sampleStart(), bindings: [SAMPLE_BINDING] }, 'run_start'))).not.toThrow();
});

test('format 7 has the shapes of 6 and adds servers reached over HTTP (endpoint, run_start.server, session_sha256, mcp-http), which 6 refuses', () => {
  const line = (data: object, type: string) => ({ ...data, seq: 0, type, at: '2023-11-14T22:13:20.000Z', prev: H });
  const http = { kind: 'http', url: 'https://mcp.example.test/mcp', headerNames: ['Authorization'] };
  const identity = { ...SAMPLE_BINDING.server, endpoint: http };
  const servers = [{ key: 'a', status: 'started', identity, session_sha256: H, tools: [], notices: [] }];
  const start = line({ ...sampleStart(), servers, bindings: [{ ...SAMPLE_BINDING, server: identity }] }, 'run_start');
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', start)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_6, 'run_start', start)).toThrow(/endpoint/);
  // A stdio record of 6 is one of 7 too (7 has 6's shapes).
  const stdio = line({ ...sampleStart(), servers: [{ key: 'a', status: 'started', identity: SAMPLE_BINDING.server, tools: [], notices: [] }], bindings: [SAMPLE_BINDING] }, 'run_start');
  expect(() => assertWritable(LEDGER_FORMAT_6, 'run_start', stdio)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', stdio)).not.toThrow();
  // A session is recorded by its sha256 only, and only from 7; an endpoint never holds header values.
  expect(() => assertWritable(LEDGER_FORMAT_6, 'run_start', { ...stdio, servers: [{ ...servers[0], identity: SAMPLE_BINDING.server }] })).toThrow(/session_sha256: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', { ...start, servers: [{ ...servers[0], session_sha256: 'sess-1' }] })).toThrow(/session_sha256/);
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', { ...start, servers: [{ ...servers[0], identity: { ...identity, endpoint: { ...http, headers: { Authorization: 'Bearer t' } } } }] })).toThrow(/headers: Invalid key/);
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', { ...start, servers: [{ ...servers[0], identity: { ...identity, endpoint: { ...http, argv: ['s'] } } }] })).toThrow(/argv: Invalid key/);
  // run_start.server reached over HTTP: its URL and header names, its session by sha256.
  const server = { serverInfo: { name: 'n', version: '1' }, protocolVersion: 'p', url: http.url, headerNames: [], sessionSha256: H, instanceId: 'i', gaps: [] };
  expect(() => assertWritable(LEDGER_FORMAT_7, 'run_start', line({ ...sampleStart(), transport: 'mcp', server }, 'run_start'))).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_6, 'run_start', line({ ...sampleStart(), transport: 'mcp', server }, 'run_start'))).toThrow(/server/);
  // A call's exchange over HTTP.
  const call = line({
    request_id: 'req-1', tool_call_id: 'toolu_1', action_id: 'act-01', jsonrpc_id: 2, via: 'mcp', name: 'e.x', binding_id: H,
    protocol: { transport: 'mcp-http', server: 'a', method: 'tools/call', jsonrpcId: 2, requestBytes: 10, responseBytes: 20, isError: false },
    arguments: { original: {} }, stages: [], hooks: [], permission: null, handler_entered: true,
    outcome: { ok: true, evidence: 'e', object_version: null, data_sha256: H }, model_content_sha256: H,
  }, 'call');
  expect(() => assertWritable(LEDGER_FORMAT_7, 'call', call)).not.toThrow();
  expect(() => assertWritable(LEDGER_FORMAT_6, 'call', call)).toThrow(/transport/);
});

test('FORMAT_USES: a record names format 7 only when a server is reached over HTTP, in a binding, a configured server or run_start.server', () => {
  const start = (data: object) => ({ ...sampleStart(), seq: 0, type: 'run_start', at: '', prev: H, ...data }) as unknown as Event;
  const http = { kind: 'http', url: 'http://127.0.0.1:9/mcp', headerNames: [] };
  const { used } = FORMAT_USES[LEDGER_FORMAT_7];
  expect(used([start({ bindings: [SAMPLE_BINDING] })])).toBe(false);
  expect(used([start({ servers: [{ key: 'a', status: 'failed', failure: { class: 'spawn', kind: 'exited_early', message: 'm' }, tools: [], notices: [] }] })])).toBe(false);
  expect(used([start({ bindings: [{ ...SAMPLE_BINDING, server: { ...SAMPLE_BINDING.server, endpoint: http } }] })])).toBe(true);
  expect(used([start({ servers: [{ key: 'a', status: 'started', identity: { ...SAMPLE_BINDING.server, endpoint: http }, tools: [], notices: [] }] })])).toBe(true);
  expect(used([start({ server: { serverInfo: { name: 'n', version: '1' }, protocolVersion: 'p', url: http.url, headerNames: [], instanceId: 'i', gaps: [] } })])).toBe(true);
});

test('the writer\'s types are the schemas\': each value below fails tsc (without its directive) and the run dir\'s check', () => {
  // @ts-expect-error run_end has no field `exitCode`
  const misnamed: EventInput<'run_end'> = { ...failedEnd(), exitCode: 1 };
  // @ts-expect-error an exit code no run ends with
  const wrongValue: EventInput<'run_end'> = { ...failedEnd(), exit_code: 2 };
  // @ts-expect-error a response is answered (files, label, usage, stop reason) or missing, not half of each
  const half: EventInput<'response'> = { request_id: 'req-1', missing: true, scripted: true };
  const run = must(openRunDir(join(tempDir(), 'run'), { clock: fixedClock(0) }));
  expect(() => run.append('run_end', misnamed)).toThrow(/exitCode: Invalid key/);
  expect(() => run.append('run_end', wrongValue)).toThrow(/exit_code: Invalid type/);
  expect(() => run.append('response', half)).toThrow(/not a response event/);
  // A task adds its own acceptance fields; the ledger keeps them as given.
  const ownFields: EventInput<'acceptance'> = { accepted: true, checks: [], receipt: null };
  expect(run.append('acceptance', ownFields).ok).toBe(true);
  run.closeUnsealed('test over');
});

test('a parsed event is typed as of any known format: a field a later format added may be absent', () => {
  const named = (end: Event<'run_end'>): RecordFormat | undefined => end.format;
  const hooks = (call: CallEvent): number => call.hook_text_sha256?.length ?? 0;
  // @ts-expect-error a parsed event cannot be changed
  const change = (start: Event<'run_start'>) => void (start.run_id = 'x');
  const sample = readRecordEvents(writeSampleRun(join(tempDir(), 'run'), undefined, undefined, LEDGER_FORMAT_2).dir);
  const end = sample.ok ? sample.value.find((e) => e.type === 'run_end') : undefined;
  expect(end && named(end)).toBeUndefined();
  const newest = readRecordEvents(writeSampleRun(join(tempDir(), 'run')).dir);
  expect(newest.ok && newest.value.find((e) => e.type === 'run_end')?.format).toBe(LEDGER_FORMAT);
  const calls = sample.ok ? sample.value.filter((e) => e.type === 'call') : [];
  expect([sample.ok, calls.map(hooks), typeof change]).toEqual([true, [], 'function']);
});
