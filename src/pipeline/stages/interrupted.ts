import { fail, type Failure } from '../../contract/index.ts';

/** The failure of a call the run's interruption stopped before its handler: not executed. */
export function interrupted(signal: AbortSignal): Failure {
  return fail('precondition', 'run_interrupted', `the run was interrupted (${String(signal.reason)}); the handler was not entered`);
}
