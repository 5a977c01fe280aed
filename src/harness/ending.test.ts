import { expect, test } from 'bun:test';
import { exitCodeOf } from '../base/index.ts';
import { fail, refusal } from '../contract/index.ts';
import { callsEnding, endingOfFailure, summaryOf } from './ending.ts';

const timeout = fail('timeout', 'handler_timeout', 'no answer');
const framing = refusal('protocol', 'framing', 'spec MUST', 'stray byte');
const refused = fail('invalid_arguments', 'quote_not_verbatim', 'not in alpha');
const bound = fail('invalid_arguments', 'too_many_calls', 'too many');

test('an unknown outcome outranks a protocol failure, which outranks the bound that stopped the run, which outranks the verdict', () => {
  const cases = [
    callsEnding([framing, timeout], false, bound),
    callsEnding([refused, framing], false, bound),
    callsEnding([refused], false, bound),
    callsEnding([refused], true),
    callsEnding([refused], false),
    callsEnding([], false, undefined, ['card_hash', 'quotes']),
  ];
  expect(cases.map((ending) => [exitCodeOf(ending), summaryOf(ending)])).toEqual([
    [4, 'outcome unknown: timeout/handler_timeout'],
    [3, 'protocol failure: protocol/framing'],
    [1, 'failed: invalid_arguments/too_many_calls'],
    [0, 'accepted'],
    [1, 'not accepted: invalid_arguments/quote_not_verbatim'],
    [1, 'not accepted: card_hash, quotes failed'],
  ]);
});

test('a run that could not go on: a server not spoken to (spawn, protocol) exits 3, anything else 1', () => {
  const endings = [fail('spawn', 'spawn_failed', 'no such file'), framing, fail('timeout', 'deadline', 'no handshake'), fail('business', 'record_write_failed', 'disk full')].map(endingOfFailure);
  expect(endings.map((ending) => [ending.type, exitCodeOf(ending)])).toEqual([
    ['protocol_failure', 3],
    ['protocol_failure', 3],
    ['failed', 1],
    ['failed', 1],
  ]);
});

test('an interruption is summarised by its signal', () => {
  expect(summaryOf({ type: 'interrupted', signal: 'SIGTERM' })).toBe('interrupted by SIGTERM');
});
