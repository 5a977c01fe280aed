import { EXIT, exitCodeOf, type Ending } from '../base/index.ts';

/**
 * The CLI's exit codes. The table (`EXIT`) and the one mapping from how a run
 * ended to its code (`exitCodeOf`, one exhaustive switch over `Ending`) live in
 * base: the run record (`run_end.exit_code`) needs them as much as the process
 * does, and `cli.ts` ranks an interruption before it loads any of the host.
 */
export { EXIT, exitCodeOf };
export type { Ending, ExitCode } from '../base/index.ts';

/** How a command ended that the `interrupt` signal stopped: interrupted by the signal it names. */
export function interrupted(interrupt: AbortSignal): Extract<Ending, { readonly type: 'interrupted' }> {
  return { type: 'interrupted', signal: String(interrupt.reason) };
}

/**
 * The exit code once stdout has settled: a failed stdout turns "accepted" or
 * "not accepted" into `EXIT.io` (the caller never saw that report); usage,
 * protocol and unknown-outcome codes already say more and are kept.
 */
export function exitAfterOutput(code: number, stdoutFailure: Error | undefined): number {
  return stdoutFailure && (code === EXIT.ok || code === EXIT.failed) ? EXIT.io : code;
}
