/**
 * Plain helpers several folders need, each with one home: deep freezing,
 * valibot issue paths, byte- and character-bounded cuts of text (`clip`, `clipChars`), text a
 * terminal shows without acting on it (`inert`), and child
 * environments built from an allowlist under one credential-name guard, and the exit table with the one mapping from how a
 * run ended to its exit code (the record and the process both read it), and seeded randomness (`rng`). Pure functions over data; imports nothing of
 * caplab, and every folder may import it. OS calls live in `platform`.
 */
export { clip, clipChars } from './clip.ts';
export { deepFreeze } from './deep-freeze.ts';
export { inert } from './inert.ts';
export { issuePath } from './issue-path.ts';
export type { PathedIssue } from './issue-path.ts';
export { buildEnv, envNameAllowed } from './env.ts';
export type { EnvSource } from './env.ts';
export { EXIT, exitCodeOf } from './exit.ts';
export { rng } from './rng.ts';
export type { Rng } from './rng.ts';
export type { Ending, ExitCode, FailureName } from './exit.ts';
