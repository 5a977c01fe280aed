import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recheckAcceptance, runTask, scriptedModel, type Scenario } from '../harness/index.ts';
import { happyScenario } from '../harness/testing/happy.ts';
import { testHost } from '../harness/testing/test-host.ts';
import { verify } from '../ledger/index.ts';
import { inProcessHook } from '../pipeline/index.ts';
import { disclosedSources, sourceReads, type ReadCall } from './disclosure.ts';
import { fixtureSnapshot } from './sources.ts';
import { excerptTask } from './task.ts';
import { exitCodeOf } from '../base/index.ts';

const snapshot = fixtureSnapshot();
const [alpha, beta] = snapshot.sources as [(typeof snapshot.sources)[number], (typeof snapshot.sources)[number]];
const scratch = mkdtempSync(join(tmpdir(), 'caplab-disclosure-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const readCall = (toolCallId: string, sourceId: unknown, over: Partial<ReadCall> = {}): ReadCall => ({ toolCallId, name: 'read_source', arguments: { original: { source_id: sourceId } }, ok: true, ...over });
const resultBlock = (id: string, ...texts: string[]) => ({ type: 'tool_result', tool_use_id: id, is_error: false, content: texts.map((text) => ({ type: 'text', text })) });
const payloadOf = (...blocks: object[]) => new TextEncoder().encode(JSON.stringify({ messages: [{ role: 'user', content: blocks }] }));
const disclosed = (calls: readonly ReadCall[], ...blocks: object[]) => disclosedSources(payloadOf(...blocks), snapshot, sourceReads(calls));

test('a source is disclosed by the read tool’s own answer to a recorded, successful read of that source', () => {
  expect(disclosed([readCall('a', 'alpha'), readCall('b', 'beta')], resultBlock('a', alpha.text), resultBlock('b', beta.text))).toEqual(['alpha', 'beta']);
});

test('no other text discloses: a hook block, a read of the other source, an unrecorded or failed call, another tool', () => {
  // The hook's block (the second) quoting alpha, after the tool's answer to a read of beta.
  expect(disclosed([readCall('b', 'beta')], resultBlock('b', beta.text, `[PostToolUse hook leak: ${alpha.text}]`))).toEqual(['beta']);
  // A read of alpha whose own text lacks alpha, a hook block holding it: nothing.
  expect(disclosed([readCall('a', 'alpha')], resultBlock('a', 'no such text', alpha.text))).toEqual([]);
  // The read of beta whose own text also holds alpha discloses beta only.
  expect(disclosed([readCall('b', 'beta')], resultBlock('b', `${beta.text}\n${alpha.text}`))).toEqual(['beta']);
  expect(disclosed([], resultBlock('a', alpha.text))).toEqual([]);
  expect(disclosed([readCall('a', 'alpha', { ok: false })], resultBlock('a', alpha.text))).toEqual([]);
  expect(disclosed([readCall('a', 'alpha', { name: 'echo' })], resultBlock('a', alpha.text))).toEqual([]);
});

test('the read is the one the handler received: a hook’s rewrite of the source id counts, the original does not', () => {
  const rewritten = readCall('a', 'beta', { arguments: { original: { source_id: 'beta' }, rewritten: { source_id: 'alpha' } } });
  expect(disclosed([rewritten], resultBlock('a', alpha.text))).toEqual(['alpha']);
  expect(disclosed([rewritten], resultBlock('a', beta.text))).toEqual([]);
});

test('a read result holding all of its source but the last character discloses nothing', () => {
  expect(disclosed([readCall('a', 'alpha')], resultBlock('a', alpha.text.slice(0, -1)))).toEqual([]);
  // …nor one missing its first character.
  expect(disclosed([readCall('a', 'alpha')], resultBlock('a', alpha.text.slice(1)))).toEqual([]);
});

test('an id two successful reads share is ambiguous and discloses nothing', () => {
  expect(disclosed([readCall('a', 'alpha'), readCall('a', 'beta')], resultBlock('a', alpha.text))).toEqual([]);
});

/** `happy` without the read of alpha: the card still quotes alpha. */
function betaOnly(): Scenario {
  const scenario = happyScenario();
  const first = scenario.responses[0]!;
  if (!first.tool_calls) throw new Error('happy starts with tool calls');
  first.tool_calls.splice(0, 1);
  return scenario;
}

test('a run reading only beta whose PostToolUse reason holds alpha ends sources_not_disclosed, and verify agrees', async () => {
  // Before: the reason was appended to beta's text block, and alpha counted as disclosed: ACCEPTED.
  const leak = inProcessHook('PostToolUse', 'read_source', 'leak', () => ({ block: alpha.text }));
  const outcome = await runTask({ task: excerptTask, model: scriptedModel(betaOnly()), runId: 'leak', runDir: join(scratch, 'leak'), ...testHost(), hooks: [leak] });
  if (!outcome.ok) throw new Error(outcome.message);
  const create = outcome.value.loop.calls.find((c) => c.name === 'create_card')!;
  expect(create.outcome.ok ? 'ok' : `${create.outcome.class}/${create.outcome.kind}`).toBe('precondition/sources_not_disclosed');
  expect([outcome.value.loop.accepted, exitCodeOf(outcome.value.ending)]).toEqual([false, 1]);
  expect(outcome.value.loop.requests.map((r) => r.intent.fields['disclosed_sources'])).toEqual([[], ['beta'], ['beta']]);
  // The reason reached the model, in a block of its own after beta's text.
  const second = JSON.parse(readFileSync(join(outcome.value.runDir, 'requests/02-request.json'), 'utf8'));
  expect(second.messages.at(-1).content[0].content.map((b: { text: string }) => b.text)).toEqual([beta.text, `[PostToolUse hook leak: ${alpha.text}]`]);
  const report = verify(outcome.value.runDir, { recheck: recheckAcceptance(excerptTask) });
  if (!report.ok) throw new Error(`${report.kind}: ${report.message}`);
  expect([report.value.format, report.value.recheck?.accepted]).toEqual(['caplab.ledger/4', false]);
});
