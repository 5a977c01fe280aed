import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../test/scratch.ts';
import { cli } from './cli.ts';
import { effectViolation, readRunEffects } from './check-effects.ts';
import { testIo } from './test-io.ts';
import { copyRun, rechain, refOf, verifyJson, type Event } from './verify-test-kit.ts';

/**
 * verify over subagent records (format 11), each forgery re-chained (lines,
 * seq, prev and seal recomputed, a file's reference rehashed): each is
 * refused, naming the subagent's event.
 */

const parent = scratchDir('caplab-verify-subagent-');

async function scenarioRun(name: string, transport: 'local' | 'mcp' = 'local'): Promise<string> {
  const cwd = scratchDir('caplab-verify-subagent-run-');
  const io = testIo(cwd);
  await cli(['run', '--scenario', name, '--transport', transport, '--out', 'run'], io);
  return join(cwd, 'run');
}

const CREATES = await scenarioRun('subagent-creates');
const TWICE = await scenarioRun('subagent-create-twice');

function forged(dir: string, edit: (events: Event[], copy: string) => Event[]): string {
  const copy = copyRun(dir, parent);
  rechain(copy, (events) => edit(events, copy));
  return copy;
}

async function refusal(dir: string): Promise<{ code: number; kind: string | undefined; message: string }> {
  const { code, doc } = await verifyJson(dir);
  return { code, kind: doc.error?.kind, message: doc.error?.message ?? '' };
}

test('a subagent run verifies as written, names format 11, and keeps its own ids and files', async () => {
  const { code, doc } = await verifyJson(CREATES);
  expect(code).toBe(0);
  expect(doc['format']).toBe('caplab.ledger/11');
  const events = readFileSync(join(CREATES, 'ledger.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Event);
  const start = events.find((e) => e.type === 'subagent_start')!;
  expect([start['agent_id'], start['action_id'], start['agent_type']]).toEqual(['agent-act-01', 'act-01', 'carder']);
  const nested = events.filter((e) => e['agent_id'] === 'agent-act-01');
  expect(nested.filter((e) => e.type === 'request').map((e) => e['request_id'])).toEqual(['act-01.req-01', 'act-01.req-02', 'act-01.req-03']);
  expect(nested.filter((e) => e.type === 'call').map((e) => e['action_id'])).toEqual(['act-01.act-01', 'act-01.act-02', 'act-01.act-03']);
  expect((nested.find((e) => e.type === 'request')!['files'] as { path: string }[])[0]!.path).toBe('requests/act-01/01-request.json');
  // The subagent's end, then the parent's Agent call, in that order; no acceptance inside.
  const end = events.findIndex((e) => e.type === 'subagent_end');
  expect(events[end + 1]!['action_id']).toBe('act-01');
  // The create inside is judged against its own producing request (which disclosed both): accepted.
  const acceptance = events.filter((e) => e.type === 'acceptance');
  expect(acceptance.map((e) => [e['accepted'], e['producing_request']])).toEqual([[true, 'act-01.req-02']]);
});

test("the subagent's last response text edited, its file's hashes fixed: subagent_mismatch, naming subagent_end", async () => {
  const copy = forged(CREATES, (events, dir) => {
    const path = 'requests/act-01/03-response.json';
    const file = JSON.parse(readFileSync(join(dir, path), 'utf8'));
    file.content[0].text = 'A different answer.';
    writeFileSync(join(dir, path), `${JSON.stringify(file, null, 2)}\n`);
    return events.map((e) => (e.type === 'response' && e['request_id'] === 'act-01.req-03' ? { ...e, files: [{ role: 'model_response', path, ...refOf(dir, path) }] } : e));
  });
  const refused = await refusal(copy);
  expect(refused.code).toBe(1);
  expect(refused.kind).toBe('subagent_mismatch');
  expect(refused.message).toContain('subagent agent-act-01');
  expect(refused.message).toContain('final_text_sha256');
});

test("a nested call's request_id pointed at a parent request: refused, naming the subagent", async () => {
  const copy = forged(CREATES, (events) => events.map((e) => (e.type === 'call' && e['action_id'] === 'act-01.act-03' ? { ...e, request_id: 'req-01' } : e)));
  const refused = await refusal(copy);
  expect(refused.code).toBe(1);
  expect(refused.kind).toBe('subagent_mismatch');
  expect(refused.message).toContain('subagent agent-act-01');
});

test("subagent_end's counts changed: subagent_mismatch", async () => {
  const copy = forged(CREATES, (events) => events.map((e) => (e.type === 'subagent_end' ? { ...e, tool_calls: 2 } : e)));
  const refused = await refusal(copy);
  expect(refused.kind).toBe('subagent_mismatch');
  expect(refused.message).toContain('counts 3 requests and 2 calls');
});

test('a nested request that disclosed nothing recorded as disclosing both: disclosure_mismatch at that request', async () => {
  const copy = forged(CREATES, (events) => events.map((e) => (e.type === 'request' && e['request_id'] === 'act-01.req-01' ? { ...e, disclosed_sources: ['alpha', 'beta'] } : e)));
  const refused = await refusal(copy);
  expect(refused.kind).toBe('disclosure_mismatch');
  expect(refused.message).toContain('act-01.req-01');
});

test('check counts effects at every level: a forged run dir where a nested and a top-level create both entered the handler is flagged', () => {
  expect(effectViolation(readRunEffects(TWICE, 'card'), 'card')).toBeUndefined();
  const copy = forged(TWICE, (events) => events.map((e) => (e.type === 'call' && e['tool_call_id'] === 'toolu_p04' ? { ...e, handler_entered: true } : e)));
  expect(readRunEffects(copy, 'card').effects['create_card']).toBe(2);
  expect(effectViolation(readRunEffects(copy, 'card'), 'card')).toBe('create_card handler entered 2 times');
});
