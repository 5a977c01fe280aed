/**
 * Polling with a deadline, for tests that wait on something another party
 * does (a process, a pipe, a queued delivery). Tests never race a clock: the
 * deadline only bounds how long a failing test takes, and the caller's
 * assertion after it says what was expected.
 */
export async function until(done: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!done() && performance.now() < deadline) await Bun.sleep(1);
}
