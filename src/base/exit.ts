/**
 * Exit codes (SPEC F-CLI), documented in `--help` and README. `io` shares 3
 * with `protocol`: both say "the run could not talk to something" (a server,
 * or the place its output goes), never "the result was wrong". 130 and 143
 * are 128 + the number of SIGINT and SIGTERM, as a shell reports them. 70
 * (EX_SOFTWARE) is an internal error: main.ts's last resort, for an error
 * nothing caught. When several apply: 2 > 70 > 130/143 > 4 > 3 > 1 > 0.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, protocol: 3, io: 3, unknown: 4, internal: 70, sigint: 130, sigterm: 143 } as const;

/** The name of a failure an ending names: its class and kind (a live `Failure`, or one read back from a record). */
export interface FailureName {
  readonly class: string;
  readonly kind: string;
}

/**
 * How a run ends, which decides its exit code. `F` is the failure it names: a
 * live `Failure` in the harness, a recorded `{ class, kind }` in `verify`'s recheck.
 * A finished run is `accepted`, `not_accepted` (the first refused call, or the
 * acceptance checks that failed), `unknown_outcome` (a call whose effect may
 * or may not have happened), `protocol_failure` (a server that could not be
 * spoken to) or `failed` at one of the loop's bounds; a run that could not go
 * on (its tools did not start, its record could not be written) is `failed`
 * too; `interrupted` names the signal; `refused` is a usage error found before
 * any work.
 */
export type Ending<F extends FailureName = FailureName> =
  | { readonly type: 'accepted' }
  | { readonly type: 'not_accepted'; readonly failure?: F; readonly failedChecks: readonly string[] }
  | { readonly type: 'unknown_outcome'; readonly failure: F }
  | { readonly type: 'protocol_failure'; readonly failure: F }
  | { readonly type: 'failed'; readonly at: 'bound' | 'run'; readonly failure?: F }
  | { readonly type: 'interrupted'; readonly signal: string }
  | { readonly type: 'refused'; readonly failure: F };

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code an ending gives: the one mapping, for the process (the CLI)
 * and for the record (`run_end.exit_code`, which `verify` re-derives). It
 * lives beneath every folder because both need it, and the CLI needs it
 * before it loads any of the host (`cli.ts` ranks an interruption for every
 * command, `probe` included).
 */
export function exitCodeOf(ending: Ending): ExitCode {
  switch (ending.type) {
    case 'accepted':
      return EXIT.ok;
    case 'not_accepted':
      return EXIT.failed;
    case 'failed':
      return EXIT.failed;
    case 'refused':
      return EXIT.usage;
    case 'unknown_outcome':
      return EXIT.unknown;
    case 'protocol_failure':
      return EXIT.protocol;
    case 'interrupted':
      return ending.signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
    default:
      return unreachable(ending);
  }
}

function unreachable(ending: never): never {
  throw new TypeError(`exitCodeOf: no exit code for ${JSON.stringify(ending)}`);
}
