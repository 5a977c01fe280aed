import { describe, expect, test } from 'bun:test';
import { canonicalJson, fail, ok, sha256Hex } from '../contract/index.ts';
import type { Event, ReadRecorded } from '../ledger/index.ts';
import { checkResultFiles } from './result-files.ts';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A record's files by path, read as verify reads them. */
function filesOf(files: Record<string, string>): ReadRecorded {
  return (path) => (path in files ? ok(bytesOf(files[path]!)) : fail('evidence', 'missing_file', `${path} is missing`));
}

const DATA = canonicalJson({ temperature: 36, conditions: 'rain' });
const ref = (path: string, text: string, role = 'call_result') => ({ path, role, sha256: sha256Hex(text), bytes: bytesOf(text).byteLength });

/** A call event as checkResultFiles reads one: its id, outcome and file references. */
function call(id: string, outcome: Record<string, unknown>, files?: ReturnType<typeof ref>[]): Event {
  return { type: 'call', tool_call_id: id, outcome, ...(files ? { files } : {}), seq: 1, prev: '0'.repeat(64) } as unknown as Event;
}
const okCall = (id: string, files?: ReturnType<typeof ref>[], data = DATA) => call(id, { ok: true, data_sha256: sha256Hex(data) }, files);
const failedCall = (id: string, files?: ReturnType<typeof ref>[]) => call(id, { ok: false, class: 'business', kind: 'tool_error' }, files);

const said = (failure: ReturnType<typeof checkResultFiles>): string => (failure === undefined ? 'ok' : `${failure.kind}: ${failure.message}`);

describe('checkResultFiles', () => {
  test('a kept result whose bytes are canonical and whose sha256 is data_sha256 passes; a failed call without one passes', () => {
    const events = [okCall('a', [ref('results/act-01.json', DATA)]), failedCall('b')];
    expect(said(checkResultFiles(events, filesOf({ 'results/act-01.json': DATA }), true))).toBe('ok');
  });

  test('a successful call of a keeping task without a result file is result_mismatch; of another task it is fine', () => {
    expect(said(checkResultFiles([okCall('a')], filesOf({}), true))).toBe('result_mismatch: call a: succeeded, but no result file (call_result) keeps its data');
    expect(said(checkResultFiles([okCall('a')], filesOf({}), false))).toBe('ok');
  });

  test('a file of another role does not count as the result file', () => {
    expect(said(checkResultFiles([okCall('a', [ref('results/act-01.json', DATA, 'scenario')])], filesOf({ 'results/act-01.json': DATA }), true))).toContain('no result file');
  });

  test('a failed call that references a result file is result_mismatch', () => {
    expect(said(checkResultFiles([failedCall('b', [ref('results/act-01.json', DATA)])], filesOf({ 'results/act-01.json': DATA }), true))).toBe('result_mismatch: call b: failed, yet references a result file');
    expect(said(checkResultFiles([failedCall('b', [ref('results/act-01.json', DATA)])], filesOf({ 'results/act-01.json': DATA }), false))).toContain('failed, yet references');
  });

  test('two result files for one call are result_mismatch', () => {
    const files = { 'results/act-01.json': DATA, 'results/act-01b.json': DATA };
    expect(said(checkResultFiles([okCall('a', [ref('results/act-01.json', DATA), ref('results/act-01b.json', DATA)])], filesOf(files), true))).toBe('result_mismatch: call a: references 2 result files');
  });

  test('a result file whose sha256 is not the outcome\'s data_sha256 is result_mismatch naming the file', () => {
    const other = canonicalJson({ temperature: 37, conditions: 'rain' });
    const events = [okCall('a', [ref('results/act-01.json', other)])];
    expect(said(checkResultFiles(events, filesOf({ 'results/act-01.json': other }), true))).toBe('result_mismatch: call a: results/act-01.json is not the data its outcome hashes (data_sha256)');
  });

  test.each([
    ['pretty-printed', JSON.stringify({ temperature: 36, conditions: 'rain' }, null, 2)],
    ['keys out of order', '{"temperature":36,"conditions":"rain"}'],
    ['a trailing newline', `${DATA}\n`],
    ['not JSON at all', 'not json'],
    ['empty', ''],
  ])('result bytes that are not canonical JSON (%s) are result_mismatch, even when data_sha256 hashes them', (_, text) => {
    const events = [okCall('a', [ref('results/act-01.json', text)], text)];
    expect(said(checkResultFiles(events, filesOf({ 'results/act-01.json': text }), true))).toBe('result_mismatch: call a: results/act-01.json is not canonical JSON');
  });

  test('a referenced file that cannot be read is refused with the reader\'s failure', () => {
    const failure = checkResultFiles([okCall('a', [ref('results/act-01.json', DATA)])], filesOf({}), true);
    expect(failure?.kind).toBe('missing_file');
  });

  test('the first bad call is named, whatever its order', () => {
    const events = [okCall('good', [ref('results/act-01.json', DATA)]), okCall('bad'), failedCall('worse', [ref('results/act-01.json', DATA)])];
    expect(said(checkResultFiles(events, filesOf({ 'results/act-01.json': DATA }), true))).toContain('call bad:');
  });
});
