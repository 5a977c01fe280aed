/**
 * Runs `work` under a deadline and the caller's signal. The signal `work`
 * gets aborts when either does (`AbortSignal.any`), so an interruption
 * reaches it at once instead of at its deadline. At the deadline the
 * `expired()` value settles the race first and only then is the signal
 * aborted: work that settles inside its abort listener (a plain function
 * returning a promise, no `async` wrapper to delay it) still loses, so its
 * late answer is never taken for one given in time.
 *
 * @param outer The caller's signal (the run's interruption).
 * @param ms The deadline, from now.
 * @param expired The value the race settles with at the deadline.
 * @param work Started at once with the combined signal; a synchronous throw rejects the returned promise.
 * @returns What `work` settled with, or `expired()` at the deadline.
 */
export async function withDeadline<T, E>(outer: AbortSignal, ms: number, expired: () => E, work: (signal: AbortSignal) => Promise<T>): Promise<T | E> {
  const expiry = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lapsed = new Promise<E>((resolve) => {
    timer = setTimeout(() => {
      resolve(expired());
      expiry.abort(new DOMException(`deadline of ${ms} ms passed`, 'TimeoutError'));
    }, ms);
  });
  try {
    return await Promise.race([work(AbortSignal.any([outer, expiry.signal])), lapsed]);
  } finally {
    clearTimeout(timer);
  }
}
