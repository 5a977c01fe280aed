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
