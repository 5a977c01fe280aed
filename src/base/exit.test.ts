import { expect, test } from 'bun:test';
import { EXIT, exitCodeOf, type Ending, type ExitCode } from './exit.ts';

const failure = { class: 'business', kind: 'tool_error' };

test('every ending has its code of the exit table: one switch for the record and the process', () => {
  const endings: readonly [Ending, ExitCode][] = [
    [{ type: 'accepted' }, 0],
    [{ type: 'not_accepted', failure, failedChecks: [] }, 1],
    [{ type: 'not_accepted', failedChecks: ['card_hash'] }, 1],
    [{ type: 'failed', at: 'bound', failure }, 1],
    [{ type: 'failed', at: 'run' }, 1],
    [{ type: 'refused', failure: { class: 'invalid_arguments', kind: 'bad_flag' } }, 2],
    [{ type: 'protocol_failure', failure: { class: 'spawn', kind: 'spawn_failed' } }, 3],
    [{ type: 'unknown_outcome', failure: { class: 'timeout', kind: 'deadline' } }, 4],
    [{ type: 'interrupted', signal: 'SIGINT' }, 130],
    [{ type: 'interrupted', signal: 'SIGTERM' }, 143],
  ];
  expect(endings.map(([ending]) => exitCodeOf(ending))).toEqual(endings.map(([, code]) => code));
  // Every code but 70 (main.ts's last resort) and io (the same 3) is some ending's.
  const codes = new Set(endings.map(([, code]) => code));
  expect(Object.entries(EXIT).filter(([, code]) => !codes.has(code)).map(([name]) => name)).toEqual(['internal']);
});
