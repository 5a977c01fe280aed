import { fail, ok, readBounded, type FailureKind, type Outcome } from '../contract/index.ts';
import type { RunDirFs } from './fs.ts';

/** The bounded reader's kinds, as `verify` names them: a run dir's files are evidence. */
const EVIDENCE_KIND: Readonly<Partial<Record<FailureKind, FailureKind>>> = {
  not_found: 'missing_file',
  not_regular_file: 'not_a_file',
  too_large: 'too_large',
};

/**
 * Reads one file of a run dir for `verify`, through the one bounded reader
 * (`readBounded` in contract): regular files only, no symlink followed, at
 * most `limit + 1` bytes read. A refusal is `evidence/missing_file`,
 * `not_a_file`, `too_large` or `unreadable`, naming the file by `name` (its
 * path in the run dir), never a throw.
 */
export function readRecorded(fs: RunDirFs, path: string, name: string, limit: number): Outcome<Uint8Array> {
  const read = readBounded(path, limit, { fs, noFollow: true });
  if (read.ok) return ok(read.value);
  const reason = read.message.startsWith(`${path}: `) ? read.message.slice(path.length + 2) : read.message;
  return fail('evidence', EVIDENCE_KIND[read.kind] ?? 'unreadable', `${name}: ${reason}`);
}
