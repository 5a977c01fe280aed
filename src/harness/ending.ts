import type { Ending, FailureName } from '../base/index.ts';
import { isUnknownOutcome, type Failure } from '../contract/index.ts';
import type { LoopResult } from './decide-acceptance.ts';

/** How a run ended (SPEC F-CLI); `exitCodeOf` (base) gives its exit code, `summaryOf` its one-line account. */
export type RunEnding = Ending<Failure>;

/** A failure that says a server could not be spoken to: it could not be started, or broke the protocol. */
function isTransportFailure(failure: FailureName): boolean {
  return failure.class === 'protocol' || failure.class === 'spawn';
}

/**
 * How a run that went through its loop ended, from its call failures (in call
 * order), its verdict and the bound that stopped it, if one did: an unknown
 * outcome outranks a protocol failure, which outranks the bound, which
 * outranks the verdict. The live run and `verify`'s recheck (over recorded
 * failures) both take it from here, so the record's `exit_code` is
 * re-derived, never trusted.
 */
export function callsEnding<F extends FailureName>(failures: readonly F[], accepted: boolean, stopped?: F, failedChecks: readonly string[] = []): Ending<F> {
  const unknown = failures.find(isUnknownOutcome);
  if (unknown) return { type: 'unknown_outcome', failure: unknown };
  const transport = failures.find(isTransportFailure);
  if (transport) return { type: 'protocol_failure', failure: transport };
  if (stopped) return { type: 'failed', at: 'bound', failure: stopped };
  if (accepted) return { type: 'accepted' };
  const first = failures[0];
  return { type: 'not_accepted', ...(first ? { failure: first } : {}), failedChecks };
}

/** How a run ended once its loop returned: interrupted by the signal, if one came, else as its calls and verdict say. */
export function loopEnding(loop: LoopResult, signal: string | undefined): RunEnding {
  if (signal !== undefined) return { type: 'interrupted', signal };
  const failures = loop.calls.flatMap((c) => (c.outcome.ok ? [] : [c.outcome]));
  const failedChecks = loop.checks.filter((c) => c.verdict === 'fail').map((c) => c.id);
  return callsEnding(failures, loop.accepted, loop.failure, failedChecks);
}

/**
 * How a run ended that could not go on (its tools did not start, its record
 * could not be written): a server that could not be spoken to, or failed.
 */
export function endingOfFailure(failure: Failure): RunEnding {
  return isTransportFailure(failure) ? { type: 'protocol_failure', failure } : { type: 'failed', at: 'run', failure };
}

const named = (failure: FailureName): string => `${failure.class}/${failure.kind}`;

/** The ending in one line, as the record's `run_end.summary`, the text report and `--json` `ending` give it. */
export function summaryOf(ending: RunEnding): string {
  switch (ending.type) {
    case 'accepted':
      return 'accepted';
    case 'not_accepted':
      return ending.failure ? `not accepted: ${named(ending.failure)}` : `not accepted: ${ending.failedChecks.join(', ')} failed`;
    case 'unknown_outcome':
      return `outcome unknown: ${named(ending.failure)}`;
    case 'protocol_failure':
      return `protocol failure: ${named(ending.failure)}`;
    case 'failed':
      return ending.failure ? `failed: ${named(ending.failure)}` : 'failed';
    case 'interrupted':
      return `interrupted by ${ending.signal}`;
    case 'refused':
      return `refused: ${named(ending.failure)}`;
  }
}
