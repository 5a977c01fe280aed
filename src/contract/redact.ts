/**
 * Redaction of values caplab itself handed to a child process (an MCP
 * server's launch environment, a hook's environment). A child may print what
 * it was given — on stderr, in hook output, in an error — and whatever caplab
 * records or prints must not carry it on: each occurrence becomes
 * `[redacted:NAME]`.
 *
 * The rule has one exception, by length, and none by name: a value shorter
 * than `MIN_REDACTED_LENGTH` characters is left alone, because blanking `1`,
 * `C` or `UTC` everywhere would corrupt every record while protecting nothing
 * a guess could not find. Non-secret names (PATH, HOME, LANG,
 * CLAUDE_PROJECT_DIR …) are redacted like any other: a rule without a list of
 * "safe" names cannot be wrong about one, and the marker still says which
 * variable the text held.
 */

/** Values shorter than this many UTF-16 code units are never redacted. */
export const MIN_REDACTED_LENGTH = 4;

export interface Redactor {
  /** Replaces every whole occurrence of a placed value with `[redacted:NAME]`. */
  readonly redact: (text: string) => string;
  /** The values redacted, longest first (empty: nothing to redact); see `redactCut`. */
  readonly values: readonly string[];
}

/** Redacts nothing. */
export const NO_REDACTION: Redactor = { redact: (text) => text, values: [] };

/**
 * A redactor for the values of `env`. Longer values are matched first, so a
 * value that contains another is replaced whole; two names with one value are
 * named by the first in sort order.
 *
 * @example
 * redactorFor({ TOKEN_FILE: '/run/secret-abc' }).redact('open /run/secret-abc: denied') // 'open [redacted:TOKEN_FILE]: denied'
 */
export function redactorFor(env: Readonly<Record<string, string>>): Redactor {
  const names = new Map<string, string>();
  for (const name of Object.keys(env).sort()) {
    const value = env[name]!;
    if (value.length >= MIN_REDACTED_LENGTH && !names.has(value)) names.set(value, name);
  }
  if (names.size === 0) return NO_REDACTION;
  const values = [...names.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return {
    redact: (text) => text.replace(pattern, (value) => `[redacted:${names.get(value)}]`),
    values,
  };
}

/**
 * Redacts a text that was cut from a longer one. Where it was cut, a value may
 * be split, and its remaining part no longer matches; so after redaction the
 * edge is trimmed as well: at a cut end, the longest part that could begin a
 * value (at a cut start, end one), with a character split by the cut
 * (U+FFFD) — and `…` says so. Nothing else is dropped.
 *
 * @param cut `start`: the text is a tail (its beginning was dropped); `end`: a head.
 */
export function redactCut(redactor: Redactor, text: string, cut: 'start' | 'end' | 'none'): string {
  const redacted = redactor.redact(text);
  if (cut === 'none' || redactor.values.length === 0) return redacted;
  if (cut === 'end') {
    const body = redacted.replace(/\uFFFD$/, '');
    const keep = body.length - longestEdge(redactor.values, (j) => body.endsWith(j), (v, n) => v.slice(0, n));
    return keep === redacted.length ? redacted : `${body.slice(0, keep)}…`;
  }
  const body = redacted.replace(/^\uFFFD/, '');
  const drop = longestEdge(redactor.values, (j) => body.startsWith(j), (v, n) => v.slice(v.length - n));
  return drop === 0 && body === redacted ? redacted : `…${body.slice(drop)}`;
}

/** The length of the longest proper part of a value (`part(value, n)`) the text has at its edge. */
function longestEdge(values: readonly string[], atEdge: (part: string) => boolean, part: (value: string, n: number) => string): number {
  let longest = 0;
  for (const value of values) {
    for (let n = value.length - 1; n > longest; n--) {
      if (atEdge(part(value, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
