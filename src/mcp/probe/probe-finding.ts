import { clipChars } from '../../base/index.ts';
import { LIMITS, type Basis, type ErrorClass, type Failure } from '../../contract/index.ts';
import { jsonPrefix } from './json-prefix.ts';
import type { Clipped } from './report-value.ts';
import type { Level } from './probe-rules.ts';

/**
 * One thing probe found: a failure value that also names its basis and its
 * evidence, and, when it is about one tool, that tool. Session-level
 * findings (the handshake, the listing as a whole, the connection) name none.
 */
export interface ProbeFinding {
  readonly class: ErrorClass;
  readonly kind: string;
  readonly basis: Basis;
  readonly message: string;
  /** The tool's name; in the report, clipped like any server value. */
  readonly tool?: string | Clipped;
  /** A short excerpt of what the server sent or did (names, values, error text), at most `evidenceChars`. */
  readonly evidence: string;
  /** SARIF's level, set when the report is given levels (`withLevels`: its kind's default, or `--level`). */
  readonly level?: Level;
  /** What the finding is about inside the tool or server (pins: the moved fields or JSON pointers), for fingerprints. */
  readonly field?: string;
}

/**
 * A finding; the evidence is cut at `evidenceChars` code points.
 * @param where.evidence Required: a finding without evidence asks the reader to take caplab's word.
 */
export function finding(
  errorClass: ErrorClass,
  kind: string,
  basis: Basis,
  message: string,
  where: { readonly tool?: string; readonly evidence: string },
): ProbeFinding {
  return {
    class: errorClass,
    kind,
    basis,
    message,
    ...(where.tool !== undefined ? { tool: where.tool } : {}),
    evidence: clipChars(where.evidence, LIMITS.evidenceChars),
  };
}

/**
 * A failure the connection or the handshake produced, as a finding. A strict
 * client refusal names its own basis (src/mcp/wire/basis.ts); anything else — a
 * deadline, a lost connection — is the host's own limit. Its evidence is
 * what the failure lists (`issues`), else what the caller observed, else its
 * message, which then quotes what the transport saw (the bytes, the exit).
 */
export function fromFailure(failure: Failure, tool?: string, observed?: string): ProbeFinding {
  const basis: Basis = failure.basis ?? 'caplab host rule';
  const issues = failure.issues && failure.issues.length > 0 ? failure.issues.slice(0, 5).join('; ') : undefined;
  return finding(failure.class, failure.kind, basis, failure.message, { ...(tool !== undefined ? { tool } : {}), evidence: issues ?? observed ?? failure.message });
}

/**
 * A value shortened for evidence: its JSON (a string quoted), cut at `max`
 * code points. Its text is built by `jsonPrefix`, without recursion and only
 * as far as the cut needs, so a value of any depth or size costs little.
 */
export function excerpt(value: unknown, max: number = LIMITS.evidenceChars): string {
  // 2·max + 1 UTF-16 units hold more than max code points whenever the whole has more (a code point is 1 or 2 units).
  return clipChars(jsonPrefix(value, 2 * max + 1) ?? String(value), max);
}
