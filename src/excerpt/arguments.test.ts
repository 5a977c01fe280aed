import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { executeCall } from '../pipeline/index.ts';
import { CARD_PATH } from './card.ts';
import { localCreateCard } from './create-card.ts';
import { localReadSource } from './read-source.ts';
import { newExcerptRun } from './run-state.ts';
import { fixtureSnapshot } from './sources.ts';
import { counted, requestWith, testPipeline } from './testing/test-kit.ts';

const snapshot = fixtureSnapshot();
/** A fresh run of the task: what each request disclosed is kept per run. */
const fresh = () => newExcerptRun('run-test', snapshot);
const A = 'A claim that cannot be checked against the casks is only a story.';
const B = '记下发生了什么，而不是希望发生了什么。';
const good = (a = A, b = B) => ({ excerpts: [{ source_id: 'alpha', quote: a }, { source_id: 'beta', quote: b }] });

type Case = readonly [label: string, tool: 'read_source' | 'create_card', args: unknown, errorClass: string, kind: string];
const cases: Case[] = [
  ['missing field', 'read_source', {}, 'invalid_arguments', 'missing_field'],
  ['null source_id', 'read_source', { source_id: null }, 'invalid_arguments', 'wrong_type'],
  ['empty source_id', 'read_source', { source_id: '' }, 'invalid_arguments', 'unknown_source'],
  ['extra field', 'read_source', { source_id: 'alpha', path: '/etc/passwd' }, 'invalid_arguments', 'extra_field'],
  ['wrong type', 'read_source', { source_id: 1 }, 'invalid_arguments', 'wrong_type'],
  ['arguments as a JSON string', 'read_source', '{"source_id":"alpha"}', 'invalid_arguments', 'not_object'],
  ['arguments null', 'read_source', null, 'invalid_arguments', 'not_object'],
  ['path traversal id', 'read_source', { source_id: '../alpha' }, 'invalid_arguments', 'unknown_source'],
  ['upper case id', 'read_source', { source_id: 'ALPHA' }, 'invalid_arguments', 'unknown_source'],
  ['trailing space', 'read_source', { source_id: 'alpha ' }, 'invalid_arguments', 'unknown_source'],
  ['NUL byte', 'read_source', { source_id: 'alpha\u0000' }, 'invalid_arguments', 'unknown_source'],
  ['homoglyph (Cyrillic а)', 'read_source', { source_id: '\u0430lpha' }, 'invalid_arguments', 'unknown_source'],
  ['create: missing excerpts', 'create_card', {}, 'invalid_arguments', 'missing_field'],
  ['create: excerpts null', 'create_card', { excerpts: null }, 'invalid_arguments', 'wrong_type'],
  ['create: quote ""', 'create_card', good('', B), 'invalid_arguments', 'quote_length'],
  ['create: quote too short', 'create_card', good('A claim', B), 'invalid_arguments', 'quote_length'],
  ['create: quote too long', 'create_card', good(`${A} `.repeat(3), B), 'invalid_arguments', 'quote_length'],
  ['create: quote from the other source', 'create_card', good(A, 'A tally records what happened'.replace('A tally', 'claim that cannot')), 'invalid_arguments', 'quote_not_verbatim'],
  ['create: beta quote taken from alpha', 'create_card', good(A, 'cannot be checked against the casks'), 'invalid_arguments', 'quote_wrong_source'],
  ['create: not verbatim', 'create_card', good(A.replace('story', 'tale'), B), 'invalid_arguments', 'quote_not_verbatim'],
  ['create: extra excerpt field', 'create_card', { excerpts: [{ source_id: 'alpha', quote: A, note: 'x' }, { source_id: 'beta', quote: B }] }, 'invalid_arguments', 'extra_field'],
  ['create: extra top-level path', 'create_card', { ...good(), path: '/tmp/card.md' }, 'invalid_arguments', 'extra_field'],
  ['create: one excerpt only', 'create_card', { excerpts: [{ source_id: 'alpha', quote: A }] }, 'invalid_arguments', 'excerpt_count'],
  ['create: wrong order', 'create_card', { excerpts: [{ source_id: 'beta', quote: B }, { source_id: 'alpha', quote: A }] }, 'invalid_arguments', 'source_order'],
  ['create: unknown source', 'create_card', { excerpts: [{ source_id: 'gamma', quote: A }, { source_id: 'beta', quote: B }] }, 'invalid_arguments', 'unknown_source'],
];

test.each(cases)('%s → class and kind, handler never entered', async (_label, name, args, errorClass, kind) => {
  const run = fresh();
  const read = counted(localReadSource(snapshot));
  const create = counted(localCreateCard(run));
  const tools = [read.tool, create.tool];
  const pipeline = testPipeline(tools);
  const request = requestWith(run, tools, ['alpha', 'beta']);
  const record = await executeCall({ id: 'toolu_x', name, arguments: args }, request, 'act-01', pipeline);
  expect(record.outcome.ok).toBe(false);
  if (record.outcome.ok) return;
  expect(`${record.outcome.class}/${record.outcome.kind}`).toBe(`${errorClass}/${kind}`);
  expect(record.handlerEntered).toBe(false);
  expect(read.entered() + create.entered()).toBe(0);
  expect(existsSync(join(pipeline.runDir, CARD_PATH))).toBe(false);
});

test('the same arguments, well-formed, do enter the handler (the table above can fail)', async () => {
  const run = fresh();
  const read = counted(localReadSource(snapshot));
  const create = counted(localCreateCard(run));
  const tools = [read.tool, create.tool];
  const pipeline = testPipeline(tools);
  const request = requestWith(run, tools, ['alpha', 'beta']);
  const readRecord = await executeCall({ id: 't1', name: 'read_source', arguments: { source_id: 'beta' } }, request, 'act-01', pipeline);
  const createRecord = await executeCall({ id: 't2', name: 'create_card', arguments: good() }, request, 'act-02', pipeline);
  expect(readRecord.outcome.ok && createRecord.outcome.ok).toBe(true);
  expect([read.entered(), create.entered()]).toEqual([1, 1]);
  expect(existsSync(join(pipeline.runDir, CARD_PATH))).toBe(true);
});

test('sources not in the producing request: precondition/sources_not_disclosed, no card', async () => {
  const run = fresh();
  const create = counted(localCreateCard(run));
  const pipeline = testPipeline([create.tool]);
  const request = requestWith(run, [create.tool], ['alpha']);
  const record = await executeCall({ id: 't', name: 'create_card', arguments: good() }, request, 'act-01', pipeline);
  expect(record.outcome.ok ? 'ok' : `${record.outcome.class}/${record.outcome.kind}`).toBe('precondition/sources_not_disclosed');
  expect(create.entered()).toBe(0);
  expect(existsSync(join(pipeline.runDir, CARD_PATH))).toBe(false);
});

test('a second create in the same run: precondition/target_exists, the first card is untouched', async () => {
  const run = fresh();
  const create = localCreateCard(run);
  const pipeline = testPipeline([create]);
  const request = requestWith(run, [create], ['alpha', 'beta']);
  const first = await executeCall({ id: 't1', name: 'create_card', arguments: good() }, request, 'act-01', pipeline);
  const bytes = await Bun.file(join(pipeline.runDir, CARD_PATH)).bytes();
  const second = await executeCall({ id: 't2', name: 'create_card', arguments: good() }, request, 'act-02', pipeline);
  expect(first.outcome.ok).toBe(true);
  expect(second.outcome.ok ? 'ok' : `${second.outcome.class}/${second.outcome.kind}`).toBe('precondition/target_exists');
  expect(await Bun.file(join(pipeline.runDir, CARD_PATH)).bytes()).toEqual(bytes);
});
