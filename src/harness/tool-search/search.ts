/**
 * ToolSearch's engine (issue 25): Claude Code's query forms over a payload's
 * deferred `tools` entries, ranked by BM25. Pure and deterministic: the answer
 * is a function of the entries (as a multiset: their order changes nothing)
 * and the query, so `verify` can re-run a recorded search on its payload.
 */
import { entryName, toolDocument, type SearchableTool, type ToolDocument } from './document.ts';
import { textTokens } from './tokens.ts';

export type { SearchableTool } from './document.ts';

/** What a query found: names best first, and `select:` names no searchable tool has. */
export interface SearchAnswer {
  readonly names: readonly string[];
  readonly unknown: readonly string[];
}

/** The prefix that names tools exactly instead of searching. */
const SELECT = 'select:';
/** BM25's term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/** Scores are compared rounded to 9 decimals, so float noise never decides an order. */
const round9 = (score: number): number => Math.round(score * 1e9) / 1e9;

/** A query's words: `+word` tokens each tool's name must hold, and the distinct tokens that rank. */
interface Query {
  readonly required: readonly string[];
  readonly ranked: readonly string[];
}

/** Splits a query at whitespace; a word starting with `+` is required, the rest rank (each distinct token once). */
function parseQuery(query: string): Query {
  const required = new Set<string>();
  const ranked = new Set<string>();
  for (const word of query.split(/\s+/u)) {
    const into = word.startsWith('+') ? required : ranked;
    for (const token of textTokens(word)) into.add(token);
  }
  return { required: [...required], ranked: [...ranked] };
}

/** `select:A, B,,A`: each named tool once, in the order named; names no entry has go to `unknown`. */
function selectTools(tools: readonly SearchableTool[], list: string, limit: number): SearchAnswer {
  const present = new Set(tools.map((tool) => entryName(tool)));
  const seen = new Set<string>();
  const names: string[] = [];
  const unknown: string[] = [];
  for (const piece of list.split(',')) {
    const name = piece.trim();
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    if (!present.has(name)) unknown.push(name);
    else if (names.length < limit) names.push(name);
  }
  return { names, unknown };
}

/** One admitted tool: its name and its rounded score. */
interface Scored {
  readonly name: string;
  readonly score: number;
}

/**
 * BM25 of each admitted document for the query's ranked tokens. N, document
 * frequencies and the mean length are over every document searched, admitted
 * or not, so a `+word` filters tools without changing any score.
 */
function scoreDocuments(documents: readonly ToolDocument[], query: Query): Scored[] {
  const df = new Map<string, number>();
  for (const document of documents) for (const token of document.counts.keys()) df.set(token, (df.get(token) ?? 0) + 1);
  const n = documents.length;
  const meanLength = documents.reduce((sum, document) => sum + document.length, 0) / n;
  const idf = new Map(query.ranked.map((token) => [token, Math.log(1 + (n - (df.get(token) ?? 0) + 0.5) / ((df.get(token) ?? 0) + 0.5))]));
  const scored: Scored[] = [];
  for (const document of documents) {
    if (!query.required.every((token) => document.nameTokens.includes(token))) continue;
    const norm = K1 * (1 - B + (B * document.length) / meanLength);
    let score = 0;
    for (const token of query.ranked) {
      const tf = document.counts.get(token) ?? 0;
      if (tf > 0) score += (idf.get(token)! * tf * (K1 + 1)) / (tf + norm);
    }
    scored.push({ name: document.name, score: round9(score) });
  }
  return scored;
}

/** Best first; equal scores by name in code-unit order (never locale order). */
function byRank(a: Scored, b: Scored): number {
  return b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * Searches `tools` (a payload's deferred entries, in any order) for `query`,
 * at most `maxResults` names. Pure and deterministic.
 *
 * - `select:A,B` names tools exactly (comma-separated, trimmed, empty pieces
 *   ignored), in the order named, each once; a name no entry has is `unknown`.
 * - Otherwise each whitespace-separated word starting with `+` requires its
 *   tokens among the tool's name tokens, and the other words rank by BM25
 *   (k1 1.2, b 0.75) over name, description and argument names and
 *   descriptions. A tool scoring 0 is dropped unless a `+word` admitted it;
 *   a query with no tokens finds nothing.
 * - An entry whose name repeats another's is searched too; each name is
 *   reported once, at its best rank.
 *
 * @param maxResults Names to return at most; below 1 (or NaN) returns none.
 * @example
 * searchTools(tools, 'select:read_source,nope', 5); // { names: ['read_source'], unknown: ['nope'] }
 * searchTools(tools, '+issue comment', 5); // tools with `issue` in their name, those about comments first
 */
export function searchTools(tools: readonly SearchableTool[], query: string, maxResults: number): SearchAnswer {
  const limit = Number.isNaN(maxResults) ? 0 : Math.max(0, Math.floor(maxResults));
  if (query.startsWith(SELECT)) return selectTools(tools, query.slice(SELECT.length), limit);
  const parsed = parseQuery(query);
  if (parsed.required.length === 0 && parsed.ranked.length === 0) return { names: [], unknown: [] };
  const documents = tools.map((tool) => toolDocument(tool, parsed.ranked)).filter((document) => document !== undefined);
  const kept = scoreDocuments(documents, parsed).filter((scored) => scored.score > 0 || parsed.required.length > 0);
  const names = new Set<string>();
  for (const scored of kept.sort(byRank)) {
    if (names.size >= limit) break;
    names.add(scored.name);
  }
  return { names: [...names], unknown: [] };
}
