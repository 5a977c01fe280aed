/**
 * A big listing bound as a run binds it (issue 22): the hostile test server
 * (src/mcp/probe/testing/hostile.ts) lists 1,000 realistic tools, each
 * distinct (typed arguments with formats and patterns, an outputSchema,
 * hints), so no schema is compiled from a cache. In-process, interleaved per
 * repetition, start to listed (close not counted):
 *
 * - the SDK client connecting and listing them (it compiles each outputSchema with Ajv too);
 * - caplab's host session alone (openHostClient: handshake and every page);
 * - the CLI's path (startConfigured): the same, plus Ajv for every input and
 *   output schema and a binding per tool;
 * - and, to split that, Ajv alone (listedCompiler) over every schema of one
 *   listing, a fresh copy of the listing each time.
 *
 * And whole processes, spawn to exit: `caplab tools --mcp-config FILE --json`
 * (the same path, then printed) against `caplab probe --json -- SERVER`.
 */
import { join } from 'node:path';
import { listedCompiler } from '../../src/harness/index.ts';
import { openHostClient } from '../../src/mcp/index.ts';
import { sdkConnect, startThrough, writeConfig, type Track } from './servers.ts';
import { nowUs, ratio, stats, type Stats } from './util.ts';

const HOSTILE = join(import.meta.dir, '../../src/mcp/probe/testing/hostile.ts');
export const BIG_LISTING = 1_000;

export interface BigListingRow {
  readonly name: string;
  readonly ms: Stats;
  /** Median µs per listed tool. */
  readonly usPerTool: number;
  /** Median over the first row's (the baseline of its group). */
  readonly ratio: number;
}

export interface BigListing {
  readonly tools: number;
  readonly bound: number;
  readonly inProcess: readonly BigListingRow[];
  readonly wholeProcess: readonly BigListingRow[];
}

const rowsOf = (samples: Readonly<Record<string, number[]>>, tools: number): BigListingRow[] => {
  const rows = Object.entries(samples).map(([name, ms]) => ({ name, ms: stats(ms) }));
  return rows.map((r) => ({ ...r, usPerTool: Math.round((r.ms.median * 1000) / tools), ratio: ratio(r.ms.median, rows[0]!.ms.median) }));
};

/** Times open-to-listed of each side, alternating order per repetition; the first repetition is warm-up. */
async function timeSides(sides: Readonly<Record<string, () => Promise<() => Promise<unknown>>>>, reps: number): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (let rep = -1; rep < reps; rep++) {
    const names = Object.keys(sides);
    for (const name of rep % 2 === 0 ? names : names.reverse()) {
      const t0 = nowUs();
      const close = await sides[name]!();
      const ms = (nowUs() - t0) / 1000;
      await close();
      if (rep >= 0) samples[name]!.push(ms);
    }
  }
  return samples;
}

/** One whole process to its end, in ms; it must exit 0. */
async function wholeProcess(argv: readonly string[], cwd: string): Promise<number> {
  const t0 = nowUs();
  const proc = Bun.spawn([...argv], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${err.slice(-500)}`);
  return (nowUs() - t0) / 1000;
}

/** Ajv over every inputSchema and outputSchema of one listing, as startConfigured compiles them; a fresh copy each repetition (Ajv caches by schema object). */
async function compileAlone(server: readonly string[], reps: number, track: Track): Promise<number[]> {
  const opened = await openHostClient({ key: 'big', launch: { command: server, cwd: '/', env: {} }, instanceId: 'bench/compile' });
  if (!opened.ok) throw new Error(`openHostClient: ${opened.class}/${opened.kind}: ${opened.message}`);
  const client = track(opened.value);
  try {
    const compile = await listedCompiler(client.profile);
    const samples: number[] = [];
    for (let rep = -1; rep < reps; rep++) {
      const entries = structuredClone(client.listing.entries) as { name: string; inputSchema: object; outputSchema?: object }[];
      const t0 = nowUs();
      for (const entry of entries) {
        if (!compile(entry.inputSchema, 'inputSchema', entry.name).ok) throw new Error(`${entry.name}: inputSchema did not compile`);
        if (entry.outputSchema && !compile(entry.outputSchema, 'outputSchema', entry.name).ok) throw new Error(`${entry.name}: outputSchema did not compile`);
      }
      if (rep >= 0) samples.push((nowUs() - t0) / 1000);
    }
    return samples;
  } finally {
    await client.close();
  }
}

export async function bigListing(scratch: string, caplab: readonly string[], reps: number, track: Track, log: (text: string) => void): Promise<BigListing> {
  const server = [process.execPath, HOSTILE, 'realistic', String(BIG_LISTING)];
  const file = writeConfig(join(scratch, 'big.mcp.json'), { big: { command: server[0]!, args: server.slice(1) } });
  let bound = 0;
  log(`configured servers, one listing ${BIG_LISTING} realistic tools, in-process …\n`);
  const inProcess = await timeSides(
    {
      'SDK client: connect + listTools': async () => {
        const client = await sdkConnect(server[0]!, server.slice(1), track);
        return () => client.close();
      },
      'caplab host session: open + list': async () => {
        const opened = await openHostClient({ key: 'big', launch: { command: server, cwd: '/', env: {} }, instanceId: 'bench/big' });
        if (!opened.ok) throw new Error(`openHostClient: ${opened.class}/${opened.kind}: ${opened.message}`);
        if (opened.value.listing.entries.length !== BIG_LISTING) throw new Error(`listed ${opened.value.listing.entries.length} tools`);
        return () => track(opened.value).close();
      },
      'caplab startConfigured: + Ajv + bind': async () => {
        const { servers } = await startThrough(file, scratch, 'bench-big');
        bound = servers.provider.offers.length;
        return () => servers.close();
      },
    },
    reps,
  );
  const compileMs = await compileAlone(server, reps, track);
  log(`configured servers, one listing ${BIG_LISTING} realistic tools, whole processes …\n`);
  const wholeSides = { 'caplab probe --json (source)': [...caplab, 'probe', '--json', '--', ...server], 'caplab tools --mcp-config --json (source)': [...caplab, 'tools', '--mcp-config', file, '--json'] };
  const whole: Record<string, number[]> = { [Object.keys(wholeSides)[0]!]: [], [Object.keys(wholeSides)[1]!]: [] };
  for (let rep = 0; rep < reps; rep++) {
    const names = Object.keys(wholeSides) as (keyof typeof wholeSides)[];
    for (const name of rep % 2 === 0 ? names : names.reverse()) whole[name]!.push(await wholeProcess(wholeSides[name], scratch));
  }
  return { tools: BIG_LISTING, bound, inProcess: rowsOf({ ...inProcess, 'caplab Ajv alone: every listed schema': compileMs }, BIG_LISTING), wholeProcess: rowsOf(whole, BIG_LISTING) };
}
