import { ok, type Success } from '../contract/index.ts';
import type { Ending, Event } from './events.ts';
import type { RecordedEvent } from './read-ledger.ts';
import { LEDGER_FILE } from './rel-path.ts';
import { failAt, type VerifyFailure, type VerifyLocation } from './report.ts';

/** What the final `run_end` says, once it is consistent with the rest of the ledger. */
export interface RunEnd {
  readonly ending: Ending;
  readonly accepted: boolean;
  readonly exitCode: number;
  readonly cause?: string;
}

const where = ({ line, event }: RecordedEvent): VerifyLocation => ({ file: LEDGER_FILE, line, seq: event.seq, type: event.type });
const at = (event: Event): VerifyLocation => ({ file: LEDGER_FILE, line: event.seq + 1, seq: event.seq, type: event.type });

/**
 * The run's lifecycle, from the order of the events alone: exactly one
 * `run_start`, first; at most one `acceptance`; exactly one `run_end`, last.
 * Checked before any event's shape, so a missing or misplaced event is named as such.
 */
export function checkOrder(recorded: readonly RecordedEvent[]): VerifyFailure | undefined {
  const ofType = (type: string) => recorded.filter((entry) => entry.event.type === type);
  const starts = ofType('run_start');
  const acceptances = ofType('acceptance');
  const ends = ofType('run_end');
  const last = recorded[recorded.length - 1];
  if (starts.length === 0) return failAt('missing_event', 'the ledger has no run_start event', { file: LEDGER_FILE });
  if (starts.length > 1) return failAt('duplicate_event', `the ledger has ${starts.length} run_start events; a run starts once`, where(starts[1]!));
  if (starts[0] !== recorded[0]) return failAt('misplaced_event', 'run_start is not the first event', where(starts[0]!));
  if (acceptances.length > 1) return failAt('duplicate_event', `the ledger has ${acceptances.length} acceptance events; a run is decided once`, where(acceptances[1]!));
  if (ends.length === 0 || !last) {
    return failAt('missing_event', 'the ledger has no run_end event: the run did not record how it ended (or that event was removed)', last ? where(last) : { file: LEDGER_FILE });
  }
  if (ends.length > 1) return failAt('duplicate_event', `the ledger has ${ends.length} run_end events; a run ends once`, where(ends[1]!));
  if (ends[0] !== last) return failAt('misplaced_event', `run_end is not the last event (line ${last.line} follows it)`, where(ends[0]!));
  return undefined;
}

/**
 * How the run ended, from its parsed events (in `checkOrder`'s order): the
 * final `run_end`'s `accepted` and `exit_code` agree with the acceptance
 * event and with how the run ended. A completed run has an acceptance event
 * and repeats its verdict; a failed or interrupted run is not accepted, exits
 * non-zero and names its cause.
 */
export function checkEnd(events: readonly Event[]): Success<RunEnd> | VerifyFailure {
  const last = events[events.length - 1]!;
  if (last.type !== 'run_end') return failAt('misplaced_event', 'run_end is not the last event', at(last));
  const acceptance = events.find((e) => e.type === 'acceptance');
  const { ending, accepted, exit_code: exitCode, cause } = last;
  const contradiction = (message: string) => failAt('inconsistent_end', `run_end says ending=${ending} accepted=${accepted} exit_code=${exitCode}, but ${message}`, at(last));
  if (ending === 'completed') {
    if (!acceptance) return contradiction('there is no acceptance event');
    if (acceptance.accepted !== accepted) return contradiction(`the acceptance event (line ${acceptance.seq + 1}) recorded accepted=${acceptance.accepted}`);
    if (cause !== undefined) return contradiction('a completed run has no failure cause');
  } else {
    if (accepted) return contradiction(`a run that ended ${ending} is never accepted`);
    if (cause === undefined) return contradiction(`a run that ended ${ending} must name its cause`);
  }
  if ((exitCode === 130 || exitCode === 143) && ending !== 'interrupted') return contradiction('exit 130/143 means interrupted by a signal');
  if ((exitCode === 0) !== accepted && (exitCode === 0 || exitCode === 1)) {
    return contradiction(exitCode === 0 ? 'exit 0 means accepted' : 'an accepted run does not exit 1');
  }
  return ok({ ending, accepted, exitCode, ...(cause === undefined ? {} : { cause }) });
}
