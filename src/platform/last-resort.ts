import type { Release } from './guard.ts';

/**
 * What main.ts's last-resort handler runs when an error reaches it that
 * nothing caught: each registered cleanup, newest first, once, before it
 * exits 70. They are synchronous (the process ends right after them), so
 * what a command made — a server's process group, probe's temp folder — is
 * released by caplab itself; the guard (guard.ts) stays the backstop for a
 * death in which no code runs at all.
 * Process-wide, like the guard: a command registers, the program entry runs.
 */
const cleanups = new Set<() => void>();

/** Registers a cleanup for the last resort; releasing it (once the work released its own) unregisters it. */
export function atLastResort(cleanup: () => void): Release {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}

/** Runs every registered cleanup, newest first; one that throws does not stop the others. */
export function runLastResort(): void {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // The process is ending: the guard takes what this cleanup could not.
    }
  }
}
