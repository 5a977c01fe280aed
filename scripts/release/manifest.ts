/**
 * What a release writes beside its files: `SHA256SUMS` (the `sha256sum`
 * format, `shasum -a 256 -c` reads it too) and `release.json`, which says
 * how each file was made and which checks ran on it on the release machine
 * (`ran_here`), each with its outcome: a check that was skipped or failed
 * says so, it is never listed as passed.
 */
import type { ReleaseTarget } from '../build.ts';

/** One check on one file, as it went on the release machine. */
export interface CheckRun {
  /** What ran: `header`, `test/binary.test.ts`, `demo under qemu-aarch64-static`. */
  readonly check: string;
  readonly outcome: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped or how it failed (a line); for a pass, how it ran. */
  readonly detail: string;
}

/** One built file. */
export interface BuiltFile {
  readonly name: string;
  readonly target: ReleaseTarget;
  readonly bytes: number;
  readonly sha256: string;
  /** The `bun build` flags it was built with (scripts/build.ts `buildFlags(target)`). */
  readonly build: readonly string[];
}

export interface ReleaseFacts {
  readonly version: string;
  readonly commit: string;
  readonly bun: string;
  /** sha256 of package-lock.json: the dependency tree every file embeds. */
  readonly lockfileSha256: string;
}

/** `SHA256SUMS`: one `<sha256>  <name>` line per file, by name. */
export function sumsText(files: readonly BuiltFile[]): string {
  return [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((file) => `${file.sha256}  ${file.name}\n`)
    .join('');
}

/** `release.json`: the facts, then each file with the checks run on it here, in the order they ran. */
export function manifestOf(facts: ReleaseFacts, files: readonly BuiltFile[], checks: ReadonlyMap<string, readonly CheckRun[]>): unknown {
  return {
    version: facts.version,
    commit: facts.commit,
    bun: facts.bun,
    lockfile_sha256: facts.lockfileSha256,
    files: files.map((file) => ({
      name: file.name,
      target: file.target,
      bytes: file.bytes,
      sha256: file.sha256,
      build: file.build,
      ran_here: (checks.get(file.name) ?? []).map((run) => ({ check: run.check, outcome: run.outcome, detail: run.detail })),
    })),
  };
}

/** Whether every check that ran passed (a skipped one is not a failure: it did not run). */
export function allPassed(checks: ReadonlyMap<string, readonly CheckRun[]>): boolean {
  return [...checks.values()].every((runs) => runs.every((run) => run.outcome !== 'failed'));
}
