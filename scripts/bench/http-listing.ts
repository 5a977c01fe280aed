/**
 * `caplab probe` listing 1,000 realistic tools (the hostile test server's
 * `realistic` mode, each tool distinct) over Streamable HTTP against over
 * stdio, whole processes from spawn to exit, alternating per repetition (the
 * first repetition is warm-up). Over HTTP the server is already running
 * (hostile-http.ts, the same answers) and probe connects to `--url`; over
 * stdio probe spawns the server, so its wall time includes that server's
 * start. Peak RSS is probe's own (rss.ts). Each run must exit 0 and list
 * every tool.
 */
import { join } from 'node:path';
import type { Started } from './http-servers.ts';
import { peakRss } from './rss.ts';
import { ratio, stats, type Stats } from './util.ts';

const ROOT = join(import.meta.dir, '../..');
const HOSTILE = join(ROOT, 'src/mcp/probe/testing/hostile.ts');
const HOSTILE_HTTP = join(import.meta.dir, 'hostile-http.ts');
export const HTTP_LISTING = 1_000;

export interface HttpListingRow {
  readonly name: string;
  readonly wallMs: Stats;
  /** Median peak RSS of the probe process, KiB. */
  readonly probeKiB: number;
}

export interface HttpListing {
  readonly tools: number;
  readonly rows: readonly HttpListingRow[];
  /** HTTP's median wall time over stdio's. */
  readonly httpOverStdio: number;
}

/** One probe run: it must exit 0 and its JSON report name the last tool listed. */
async function probeOnce(argv: readonly string[], env: Record<string, string>): Promise<{ ms: number; kib: number }> {
  const peak = await peakRss(argv, ROOT, `"search_${HTTP_LISTING - 1}"`, env);
  return { ms: peak.wallMs, kib: peak.self };
}

export async function httpListing(caplab: readonly string[], started: Started, reps: number, tmp: string, log: (text: string) => void): Promise<HttpListing> {
  log(`probe listing ${HTTP_LISTING} realistic tools, HTTP and stdio …\n`);
  const server = await started.spawn([process.execPath, HOSTILE_HTTP, 'realistic', String(HTTP_LISTING)]);
  // probe's temp cwd (stdio) goes under the bench's own folder, so the end can check none is left.
  const env = { PATH: '/usr/bin:/bin', TMPDIR: tmp };
  const sides: Record<string, readonly string[]> = {
    'caplab probe --url (HTTP)': [...caplab, 'probe', '--json', '--url', server.url],
    'caplab probe -- SERVER (stdio)': [...caplab, 'probe', '--json', '--', process.execPath, HOSTILE, 'realistic', String(HTTP_LISTING)],
  };
  const seen: Record<string, { ms: number[]; kib: number[] }> = Object.fromEntries(Object.keys(sides).map((k) => [k, { ms: [], kib: [] }]));
  try {
    for (let rep = -1; rep < reps; rep++) {
      const names = Object.keys(sides);
      for (const name of rep % 2 === 0 ? names : names.reverse()) {
        const run = await probeOnce(sides[name]!, env);
        if (rep >= 0) seen[name]!.ms.push(run.ms), seen[name]!.kib.push(run.kib);
      }
    }
  } finally {
    await server.stop();
  }
  const rows = Object.entries(seen).map(([name, s]) => ({ name, wallMs: stats(s.ms), probeKiB: stats(s.kib).median }));
  return { tools: HTTP_LISTING, rows, httpOverStdio: ratio(rows[0]!.wallMs.median, rows[1]!.wallMs.median) };
}
