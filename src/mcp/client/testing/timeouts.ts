/**
 * TEST ONLY — the client's waits for tests: short, so failing paths end quickly.
 */
import type { Timeouts } from '../index.ts';

/** Short, configured limits so failing paths end quickly. */
export const FAST: Partial<Timeouts> = { handshakeMs: 5_000, callMs: 5_000, exitMs: 300, termMs: 300, killMs: 2_000 };
