import { expect, test } from 'bun:test';
import { fail, ok } from '../contract/index.ts';
import { textBlock, type CallRecord } from '../pipeline/index.ts';
import { stageOf, STAGES } from './stages.ts';

const call = (name: string, data?: unknown): CallRecord =>
  ({ name, outcome: data === undefined ? fail('invalid_arguments', 'quote_not_verbatim', 'refused') : ok({ data, content: [textBlock('')], evidence: '' }) }) as unknown as CallRecord;

test('the stage follows host-checked calls only: read until every source was read, then create, then finish', () => {
  expect(STAGES).toEqual(['read', 'create', 'finish']);
  expect(stageOf([])).toBe('read');
  expect(stageOf([call('read_source', { source_id: 'alpha' })])).toBe('read');
  // The same source twice is not both sources; a refused read counts for nothing.
  expect(stageOf([call('read_source', { source_id: 'alpha' }), call('read_source', { source_id: 'alpha' }), call('read_source')])).toBe('read');
  const both = [call('read_source', { source_id: 'alpha' }), call('read_source', { source_id: 'beta' })];
  expect(stageOf(both)).toBe('create');
  expect(stageOf([...both, call('create_card')])).toBe('create');
  expect(stageOf([...both, call('create_card', { path: 'card/excerpt-card.md' })])).toBe('finish');
  expect(stageOf([call('create_card', { path: 'card/excerpt-card.md' })])).toBe('finish');
});
