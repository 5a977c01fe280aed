import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { fail } from '../contract/index.ts';
import { fixedClock, verify } from '../ledger/index.ts';
import { UNDECIDED, type LoopResult } from './decide-acceptance.ts';
import { openRun, reachesHttp, type RunRecordOptions } from './open-run.ts';
import { scripted } from './testing/loop-kit.ts';

const usage = { input_tokens: 1, output_tokens: 1 };

function options(more: Partial<RunRecordOptions> = {}): RunRecordOptions {
  return { task: { id: 'steps' }, model: scripted([{ text: 'done', usage }]), runId: 'open', runDir: join(scratchDir('caplab-open-run-'), 'run'), clock: fixedClock(0), hooks: [], ...more };
}

function opened(more: Partial<RunRecordOptions> = {}) {
  const run = openRun(options(more));
  if (!run.ok) throw new Error(run.message);
  return run.value;
}

const events = (dir: string) => readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
const NO_TOOLS = { transport: null, server: null, bindings: [] };
const finished: LoopResult = { requests: [], calls: [], stop: 'final_answer', ...UNDECIDED, accepted: true };

test('a run through its loop: begin writes the task’s files, start records them, end closes the tools, records run_end and seals', async () => {
  const run = opened();
  expect(run.begin({ files: [{ path: 'snapshot/a.txt', role: 'snapshot', bytes: new TextEncoder().encode('a') }], fields: { own: 1 } })).toEqual({ ok: true, value: undefined });
  let closes = 0;
  run.holdTools(async () => (closes++, { closed: true }));
  expect(run.start({ transport: 'local', server: null, bindings: [] }).ok).toBe(true);
  expect(run.recorder.append('acceptance', { accepted: true, checks: [] }).ok).toBe(true);
  const ended = await run.end({ type: 'loop', loop: finished, answered: 0 });
  if (!ended.ok) throw new Error(ended.message);
  expect([ended.value.ending, ended.value.events, ended.value.closeReport, closes]).toEqual([{ type: 'accepted' }, 3, { closed: true }, 1]);
  const [start, , end] = events(run.dir);
  expect(start).toMatchObject({ type: 'run_start', task: 'steps', own: 1, transport: 'local', files: [{ role: 'snapshot', path: 'snapshot/a.txt' }] });
  expect(end).toMatchObject({ type: 'run_end', ending: 'completed', accepted: true, exit_code: 0, stop: 'final_answer', requests: 0, tool_calls: 0, transport_close: { closed: true } });
  const verified = verify(run.dir, { expectedHead: ended.value.head });
  expect(verified.ok || verified.message).toBe(true);
});

test('an interruption starts the tools’ close at once; the end awaits that same close', async () => {
  const signal = new AbortController();
  const run = opened({ signal: signal.signal });
  let closes = 0;
  run.holdTools(async () => (closes++, 'closed'));
  expect(run.start(NO_TOOLS).ok).toBe(true);
  signal.abort('SIGINT');
  expect(closes).toBe(1);
  const ended = await run.end({ type: 'loop', loop: { ...finished, stop: 'interrupted', accepted: false }, answered: 0 });
  expect([ended.ok && ended.value.ending, closes]).toEqual([{ type: 'interrupted', signal: 'SIGINT' }, 1]);
  expect(events(run.dir).at(-1)).toMatchObject({ ending: 'interrupted', exit_code: 130 });
});

test('tools that did not open: run_start names none, run_end the failure with its ending’s exit code; the failure is returned', async () => {
  const run = opened();
  const failure = fail('spawn', 'spawn_failed', 'the server would not start');
  expect(await run.end({ type: 'unopened', failure })).toEqual(failure);
  const [start, end] = events(run.dir);
  expect(start).toMatchObject({ type: 'run_start', transport: null, server: null, bindings: [] });
  expect(end).toMatchObject({ type: 'run_end', ending: 'failed', exit_code: 3, cause: 'spawn/spawn_failed: the server would not start' });
  expect(existsSync(join(run.dir, 'ledger.head'))).toBe(true);
});

test('a write the record could not take ends the run failed, naming it; a record limit is named by its kind', async () => {
  const write = fail('business', 'record_write_failed', 'business/write_failed: disk full');
  const limit = fail('precondition', 'record_limit', 'past the entries limit');
  for (const [failure, cause] of [[write, 'business/write_failed: disk full'], [limit, 'precondition/record_limit: past the entries limit']] as const) {
    const run = opened();
    expect(run.start(NO_TOOLS).ok).toBe(true);
    expect(await run.end({ type: 'broken', failure, answered: 0 })).toEqual(failure);
    expect(events(run.dir).at(-1)).toMatchObject({ type: 'run_end', ending: 'failed', exit_code: 1, cause });
    expect(verify(run.dir).ok).toBe(true);
  }
});

test('a loop the record broke ends as a broken run: its cause, no counts', async () => {
  const run = opened();
  let closes = 0;
  run.holdTools(async () => void closes++);
  expect(run.start(NO_TOOLS).ok).toBe(true);
  const failure = fail('business', 'record_write_failed', 'business/write_failed: disk full');
  expect(await run.end({ type: 'loop', loop: { ...finished, stop: 'failed', accepted: false, failure }, answered: 0 })).toEqual(failure);
  const end = events(run.dir).at(-1);
  expect([end.cause, 'stop' in end, closes]).toEqual(['business/write_failed: disk full', false, 1]);
});

test('a crash before run_start is recorded as one, with a run_start first', async () => {
  const run = opened();
  await run.end({ type: 'crashed', error: new Error('boom'), answered: 0 });
  expect(events(run.dir).map((e) => [e.type, e.cause])).toEqual([['run_start', undefined], ['run_end', 'crash: Error: boom']]);
});

test('tools with a server reached over HTTP name format 7 (the record verifies); the same run over stdio keeps format 4', async () => {
  const base = { serverInfo: { name: 's', version: '1' }, protocolVersion: '2025-06-18', instanceId: 'open/s', gaps: [] };
  const http = { ...base, url: 'http://127.0.0.1:9/mcp', headerNames: ['Authorization'], sessionSha256: 'a'.repeat(64) };
  const stdio = { ...base, launch: ['srv'], cwd: '/', envNames: [] };
  const formats: unknown[] = [];
  for (const server of [http, stdio]) {
    expect(reachesHttp({ transport: 'mcp', server, bindings: [] })).toBe(server === http);
    const run = opened();
    run.holdTools(async () => null);
    expect(run.start({ transport: 'mcp', server, bindings: [] }).ok).toBe(true);
    expect(run.recorder.append('acceptance', { accepted: true, checks: [] }).ok).toBe(true);
    const ended = await run.end({ type: 'loop', loop: finished, answered: 0 });
    if (!ended.ok) throw new Error(ended.message);
    const verified = verify(run.dir, { expectedHead: ended.value.head });
    expect(verified.ok || verified.message).toBe(true);
    formats.push(JSON.parse(readFileSync(join(run.dir, 'ledger.head'), 'utf8')).format);
  }
  expect(formats).toEqual(['caplab.ledger/7', 'caplab.ledger/4']);
});
