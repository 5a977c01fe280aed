import { join } from 'node:path';
import { fail, ok, type Outcome } from '../contract/index.ts';

/** The ledger itself, at the run dir's root. */
export const LEDGER_FILE = 'ledger.jsonl';
/** The seal written by `close()`: the head hash and event count of a finished ledger. */
export const SEAL_FILE = 'ledger.head';

/** Names the run record keeps for itself; `writeFile` refuses them and file references may not point at them. */
export const RESERVED_FILES: readonly string[] = [LEDGER_FILE, SEAL_FILE];

/**
 * One path segment: the POSIX portable filename characters, not starting with
 * `.` or `-`. This rules out `.` and `..`, hidden temp names (so a leftover temp
 * can never be mistaken for a recorded file), separators, NUL, and Unicode
 * names whose bytes differ between filesystems (NFC vs NFD).
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/**
 * Checks a path relative to the run dir, as written in events: `/`-separated
 * segments, each portable, at most 16 deep. Returns the path unchanged when it
 * is acceptable — there is exactly one spelling for every recorded file.
 */
export function checkRelPath(relPath: string): Outcome<string> {
  const segments = relPath.split('/');
  const bad = segments.find((segment) => !SEGMENT.test(segment));
  if (relPath === '' || segments.length > 16 || bad !== undefined) {
    return fail(
      'invalid_arguments',
      'bad_path',
      `${JSON.stringify(relPath)} is not a run-dir path: use /-separated segments of [A-Za-z0-9._-], none empty, none starting with "." or "-"`,
    );
  }
  if (RESERVED_FILES.includes(relPath)) {
    return fail('invalid_arguments', 'reserved_path', `${relPath} is reserved for the run record itself`);
  }
  return ok(relPath);
}

/** Resolves a checked relative path under `root`. */
export function resolveInside(root: string, relPath: string): Outcome<string> {
  const checked = checkRelPath(relPath);
  return checked.ok ? ok(join(root, ...checked.value.split('/'))) : checked;
}
