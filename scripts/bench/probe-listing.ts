/**
 * `caplab probe` over a long tool list (issue 20): the hostile test server
 * (src/mcp/probe/testing/hostile.ts) lists 10,000 minimal tools, or 1,000 realistic
 * ones (a description, typed arguments with formats and patterns, an
 * outputSchema, hints; each distinct, so none is compiled from a cache), and
 * probe checks every one. Whole processes, from spawn to exit, peak RSS of
 * caplab and of the server polled through /proc (rss.ts). Measurement only.
 */
import { join } from 'node:path';
import { peakRss } from './rss.ts';
import { stats, type Stats } from './util.ts';

export interface ListingCase {
  readonly name: string;
  readonly mode: 'tools' | 'realistic';
  readonly tools: number;
}

export const LISTING_CASES: readonly ListingCase[] = [
  { name: '10,000 minimal tools', mode: 'tools', tools: 10_000 },
  { name: '1,000 realistic tools', mode: 'realistic', tools: 1_000 },
];

export interface ListingPoint {
  readonly name: string;
  /** Which caplab: `source` (bun src/main.ts) or `binary` (dist/caplab). */
  readonly caplab: string;
  readonly wallMs: Stats;
  /** Median peak RSS, KiB. */
  readonly hostKiB: number;
  readonly serverKiB: number;
}

/** Each case `reps` times per caplab entry (the server always runs from source); a run must exit 0 (every tool listed and clean). */
export async function probeListing(root: string, entries: Readonly<Record<string, readonly string[]>>, reps: number, log: (text: string) => void): Promise<ListingPoint[]> {
  const server = join(root, 'src/mcp/probe/testing/hostile.ts');
  const points: ListingPoint[] = [];
  for (const listing of LISTING_CASES) {
    for (const [caplab, argv] of Object.entries(entries)) {
      log(`probe listing, ${listing.name} (${caplab}) …\n`);
      const wall: number[] = [];
      const host: number[] = [];
      const served: number[] = [];
      for (let rep = 0; rep < reps; rep++) {
        const peak = await peakRss([...argv, 'probe', '--json', '--', process.execPath, server, listing.mode, String(listing.tools)], root, '"exit": 0');
        wall.push(peak.wallMs);
        host.push(peak.self);
        // The server by its command line: probe's guard is a child too.
        served.push(peak.children.find((c) => c.argv.includes(server))?.kib ?? 0);
      }
      points.push({ name: listing.name, caplab, wallMs: stats(wall), hostKiB: stats(host).median, serverKiB: stats(served).median });
    }
  }
  return points;
}
