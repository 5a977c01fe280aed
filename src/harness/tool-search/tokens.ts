/**
 * The words ToolSearch compares (issue 25, "BM25, deterministic"): lowercase
 * runs of Unicode letters and digits, no stemming, no stop words. A name is
 * also split where its case changes, so `readSource` and `read_source` give
 * the same tokens; free text (a description, a query) is not, so `GitHub` in
 * prose stays one token.
 */

/** A run of Unicode letters and digits; everything else separates. */
const RUN = /[\p{L}\p{N}]+/gu;

/**
 * Where a name's case changes: before an uppercase letter that follows a
 * lowercase letter or a digit (`read|Source`, `v2|Api`), and before the last
 * capital of a capital run that starts a word (`HTML|Parser`).
 */
const CASE_CHANGE = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu;

/**
 * The tokens of free text: lowercased first, then its runs of letters and
 * digits (so a letter whose lowercase form adds a combining mark splits there).
 *
 * @example
 * textTokens('Größe: 42 files, read-only'); // ['größe', '42', 'files', 'read', 'only']
 */
export function textTokens(text: string): string[] {
  return text.toLowerCase().match(RUN) ?? [];
}

/**
 * The tokens of a tool's or an argument's name: split at case changes, then
 * as text (which splits at `_`, `-` and every other non-letter, non-digit).
 *
 * @example
 * nameTokens('mcp__forge__getHTMLParser_v2'); // ['mcp', 'forge', 'get', 'html', 'parser', 'v2']
 */
export function nameTokens(name: string): string[] {
  return textTokens(name.replace(CASE_CHANGE, ' '));
}

/** One code point that is a letter or a digit. */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Code units at `at` that make one letter or digit of lowercased text: 0 when
 * they are not one, else 1, or 2 for a surrogate pair. ASCII is decided by
 * range (no capitals are left), the rest by Unicode property.
 */
function wordUnits(lower: string, at: number): number {
  const unit = lower.charCodeAt(at);
  if (unit < 0x80) return (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) ? 1 : 0;
  const cp = lower.codePointAt(at)!;
  const size = cp > 0xffff ? 2 : 1;
  return WORD_CHAR.test(lower.slice(at, at + size)) ? size : 0;
}

/** Adds one to `counts` for the token `lower[start, end)` if it is one of `wanted`. */
function countWanted(lower: string, start: number, end: number, wanted: readonly string[], counts: Map<string, number>): void {
  for (const token of wanted) if (token.length === end - start && lower.startsWith(token, start)) counts.set(token, (counts.get(token) ?? 0) + 1);
}

/**
 * Counts the tokens `textTokens(text)` would give without making them:
 * returns how many there are, and adds to `counts` each one that equals one
 * of `wanted` (distinct tokens). A payload's descriptions hold far more
 * tokens than a query, so only a token as long as a wanted one is compared.
 *
 * @example
 * const counts = new Map<string, number>();
 * countTokens('Read a file, read it again.', ['read'], counts); // 6; counts: read → 2
 */
export function countTokens(text: string, wanted: readonly string[], counts: Map<string, number>): number {
  const lower = text.toLowerCase();
  let tokens = 0;
  let start = -1;
  for (let at = 0; at < lower.length; ) {
    const units = wordUnits(lower, at);
    if (units > 0 && start < 0) start = at;
    if (units === 0 && start >= 0) {
      tokens++;
      countWanted(lower, start, at, wanted, counts);
      start = -1;
    }
    at += units === 2 ? 2 : 1;
  }
  if (start >= 0) {
    tokens++;
    countWanted(lower, start, lower.length, wanted, counts);
  }
  return tokens;
}

/** `countTokens` of a name, split at case changes first as `nameTokens` splits it. */
export function countNameTokens(name: string, wanted: readonly string[], counts: Map<string, number>): number {
  return countTokens(name.replace(CASE_CHANGE, ' '), wanted, counts);
}
