import { fail, ok, type Outcome } from '../contract/index.ts';

/** A source of timestamps, in milliseconds since the Unix epoch. */
export type Clock = () => number;

/** The wall clock. Only the CLI and a host's default (`createHost`) should reach for it; everything else takes a `Clock`. */
export const systemClock: Clock = function systemClock() {
  return Date.now();
};

/** Creates a clock that always answers `epochMs`: every event of a run gets the same `at`. */
export function fixedClock(epochMs: number): Clock {
  return function fixed() {
    return epochMs;
  };
}

/** The largest time a JS Date can hold (±8.64e15 ms), in whole seconds. */
const MAX_EPOCH_SECONDS = 8_640_000_000_000;

/**
 * Chooses the run's clock from the environment. With `SOURCE_DATE_EPOCH` set
 * (reproducible-builds.org: decimal seconds since the epoch) the clock is fixed
 * to it, so two runs with the same run id write byte-identical run dirs.
 * A malformed value is an error, not a silent fallback to the wall clock —
 * that would quietly break the reproducibility the caller asked for.
 *
 * @example
 * const clock = clockFromEnv(process.env);
 * if (!clock.ok) return usage(clock.message);
 */
export function clockFromEnv(env: Readonly<Record<string, string | undefined>>, fallback: Clock = systemClock): Outcome<Clock> {
  const raw = env['SOURCE_DATE_EPOCH'];
  if (raw === undefined || raw === '') return ok(fallback);
  if (!/^[0-9]+$/.test(raw) || Number(raw) > MAX_EPOCH_SECONDS) {
    return fail(
      'invalid_arguments',
      'bad_source_date_epoch',
      `SOURCE_DATE_EPOCH must be whole seconds since the Unix epoch (digits only), got ${JSON.stringify(raw)}`,
    );
  }
  return ok(fixedClock(Number(raw) * 1000));
}

/** Formats a clock reading as the ledger's `at` field (UTC, ISO 8601, milliseconds). */
export function isoAt(clock: Clock): string {
  return new Date(clock()).toISOString();
}
