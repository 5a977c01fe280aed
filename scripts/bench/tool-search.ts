/**
 * ToolSearch's engine (issue 25): `searchTools` over the fixed 50-tool pool
 * and over 10,000 generated tools, a few fixed queries each, per query in
 * µs (median, p95), against a naive case-insensitive substring scan of the
 * same names and descriptions in the same run, interleaved. The engine works
 * from the payload each call (no index kept between calls), so neither side
 * prepares anything ahead. Measurement only: the one check is that each
 * query finds what it found on its first run.
 */
import { generatedPool, toolPool } from '../../src/harness/testing/tool-pool.ts';
import { searchTools, type SearchableTool } from '../../src/harness/tool-search/index.ts';
import { nowUs, ratio } from './util.ts';

/** Median and p95 of one side's per-query times, µs. */
export interface QueryTimes {
  readonly median: number;
  readonly p95: number;
}

export interface ToolSearchRow {
  readonly pool: string;
  readonly tools: number;
  readonly query: string;
  readonly found: number;
  readonly runs: number;
  readonly search: QueryTimes;
  readonly baseline: QueryTimes;
  /** search median / baseline median. */
  readonly ratio: number;
}

export interface ToolSearchBench {
  readonly maxResults: number;
  readonly rows: readonly ToolSearchRow[];
}

const MAX_RESULTS = 5;

/** The baseline: every tool whose lowercased name or description contains a query word, in pool order. */
function substringScan(tools: readonly SearchableTool[], query: string, max: number): string[] {
  const words = query.toLowerCase().split(/\s+/u).filter((word) => word !== '');
  const hits: string[] = [];
  for (const tool of tools) {
    const text = `${tool.name} ${tool.description}`.toLowerCase();
    if (words.some((word) => text.includes(word))) hits.push(tool.name);
  }
  return hits.slice(0, max);
}

/** Nearest-rank quantile, rounded to 0.1 µs. */
function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 10) / 10;
}

const times = (samples: readonly number[]): QueryTimes => ({ median: quantile(samples, 0.5), p95: quantile(samples, 0.95) });

/** `runs` interleaved pairs (after `runs / 10` warm-up pairs) of the engine and the baseline on one query. */
function measure(pool: string, tools: readonly SearchableTool[], query: string, runs: number): ToolSearchRow {
  const expected = JSON.stringify(searchTools(tools, query, MAX_RESULTS));
  const search: number[] = [];
  const baseline: number[] = [];
  for (let run = -Math.ceil(runs / 10); run < runs; run++) {
    const t0 = nowUs();
    const answer = searchTools(tools, query, MAX_RESULTS);
    const t1 = nowUs();
    substringScan(tools, query, MAX_RESULTS);
    const t2 = nowUs();
    if (JSON.stringify(answer) !== expected) throw new Error(`${pool}: "${query}" answered differently on run ${run}`);
    if (run >= 0) search.push(t1 - t0), baseline.push(t2 - t1);
  }
  const [s, b] = [times(search), times(baseline)];
  return { pool, tools: tools.length, query, found: JSON.parse(expected).names.length, runs, search: s, baseline: b, ratio: ratio(s.median, b.median) };
}

/** Every row: four queries over the 50 tools, four over 10,000 generated ones. */
export function toolSearchBench(log: (text: string) => void): ToolSearchBench {
  const small = toolPool();
  const large = generatedPool(10_000);
  log('tool search: 50 fixed tools …\n');
  const rows = ['merge pull request', 'read file contents', '+issue comment', 'select:get_issue,create_branch,nope'].map((query) => measure('fixed', small, query, 2000));
  log('tool search: 10,000 generated tools …\n');
  const named = `select:${large[17]!.name},${large[9_999]!.name}`;
  for (const query of ['export monthly invoice', 'webhook', '+backup restore', named]) rows.push(measure('generated', large, query, 40));
  return { maxResults: MAX_RESULTS, rows };
}

/** The bench's table for it. */
export function renderToolSearch(bench: ToolSearchBench): string {
  let out = `\ntool search, per query (µs; max_results ${bench.maxResults})                      search            substring scan\n`;
  out += `${'pool'.padEnd(10)}${'tools'.padStart(6)}  ${'query'.padEnd(40)}${'found'.padStart(6)}${'runs'.padStart(6)}${'median'.padStart(10)}${'p95'.padStart(10)}${'median'.padStart(10)}${'p95'.padStart(10)}${'ratio'.padStart(8)}\n`;
  for (const row of bench.rows) {
    const query = row.query.length > 38 ? `${row.query.slice(0, 37)}…` : row.query;
    out += `${row.pool.padEnd(10)}${String(row.tools).padStart(6)}  ${query.padEnd(40)}${String(row.found).padStart(6)}${String(row.runs).padStart(6)}`;
    out += `${row.search.median.toFixed(1).padStart(10)}${row.search.p95.toFixed(1).padStart(10)}${row.baseline.median.toFixed(1).padStart(10)}${row.baseline.p95.toFixed(1).padStart(10)}${String(row.ratio).padStart(8)}\n`;
  }
  return `${out}  ratio: search median / substring-scan median, same run, interleaved\n`;
}
