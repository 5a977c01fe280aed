/** The human-readable tables of scripts/bench.ts (the JSON line is printed after them). */
import type { ColdStart } from './cold.ts';
import type { HttpBench } from './http.ts';
import type { ListingPoint } from './probe-listing.ts';
import type { ProfileRow } from './profile.ts';
import type { BigListing } from './servers-listing.ts';
import type { StartPoint, SteadyPoint } from './servers.ts';
import type { SizePoint } from './sweep.ts';
import type { Stats } from './util.ts';

export interface BenchResult {
  readonly machine: { readonly cpu: string; readonly cpus: number; readonly bun: string };
  readonly perCallUs: readonly (Stats & { readonly name: string; readonly vsSdk: number; readonly vsEcho: number })[];
  readonly sweep: readonly SizePoint[];
  readonly slope16to256: readonly { readonly name: string; readonly usPerKiB: number; readonly largeOverSmall: number }[];
  readonly profile: readonly { readonly sourceBytes: number; readonly rows: readonly ProfileRow[] }[];
  readonly setupMs?: Record<string, { readonly open: Stats; readonly close: Stats }>;
  readonly setupRatioCaplabVsSdk?: number;
  readonly demoMs?: Record<string, Stats>;
  readonly cold?: string | (ColdStart & { readonly pairs: number });
  readonly listing?: readonly ListingPoint[];
  readonly servers?: ServersBench;
  readonly binary: { readonly path: string; readonly bytes: number; readonly mib: number } | null;
  readonly cleanup: { readonly childrenStillAlive: readonly number[]; readonly newLookalikes: readonly { readonly pid: number }[] };
  readonly wallSeconds: number;
}

/** The configured-server rows (scripts/bench/servers.ts, servers-listing.ts). */
export interface ServersBench {
  readonly start: readonly StartPoint[];
  readonly steady: SteadyPoint;
  readonly listing?: BigListing;
}

const f = (x: number, width = 9) => x.toFixed(1).padStart(width);
const kib = (bytes: number) => `${bytes / 1024} KiB`;
const row = (name: string, s: Stats, extra = '') => `${name.padEnd(32)}${String(s.n).padStart(5)}${f(s.median)}${f(s.p10)}${f(s.p90)}${f(s.min)}${f(s.max)}${extra}\n`;

function steady(result: BenchResult): string {
  let out = '';
  for (const point of result.sweep) {
    const [echo, sdk] = [point.perCallUs[0]!.us.median, point.perCallUs[1]!.us.median];
    out += `\nper call (µs), ${kib(point.sourceBytes)} sources      n   median      p10      p90      min      max   ×SDK  ×echo\n`;
    for (const { name, us } of point.perCallUs) out += row(name, us, `${(us.median / sdk).toFixed(2).padStart(7)}${(us.median / echo).toFixed(2).padStart(7)}`);
    out += `response line bytes (alpha, beta): ${point.responseBytes.join(', ')}; ${point.responsePerSourceByte} response bytes per source byte\n`;
  }
  out += `\nper-byte cost, 16 → 256 KiB           µs per KiB   256 KiB / 16 KiB\n`;
  for (const s of result.slope16to256) out += `${s.name.padEnd(36)}${s.usPerKiB.toFixed(2).padStart(12)}${s.largeOverSmall.toFixed(2).padStart(19)}\n`;
  return out;
}

function profile(result: BenchResult): string {
  const sizes = result.profile.map((p) => kib(p.sourceBytes).padStart(11)).join('');
  let out = `\none read_source round trip, median µs per part${' '.repeat(14)}${sizes}\n`;
  for (const [i, first] of result.profile[0]!.rows.entries()) {
    out += `${first.part.padEnd(60)}${result.profile.map((p) => f(p.rows[i]!.us, 11)).join('')}\n`;
  }
  return out;
}

function cold(c: Exclude<BenchResult['cold'], string | undefined>): string {
  let out = `\ncold start, compiled, ${c.pairs} interleaved pairs (median)   wall ms   cpu ms\n`;
  const side = (name: string, s: { wallMs: Stats; cpuMs: Stats }) => `${name.padEnd(48)}${f(s.wallMs.median)}${f(s.cpuMs.median)}\n`;
  const ratios = (r: { wall: number; cpu: number }) => `${'  ratio caplab / baseline'.padEnd(48)}${r.wall.toFixed(2).padStart(9)}${r.cpu.toFixed(2).padStart(9)}\n`;
  out += side('dist/caplab --version', c.version.caplab) + side('hello-world', c.version.baseline) + ratios(c.version.ratio);
  out += side('dist/caplab demo (starts the guard, then serve)', c.demo.caplab) + side('SDK client + server (spawn, init, list, 3 calls)', c.demo.baseline) + ratios(c.demo.ratio);
  out += side('dist/caplab demo --transport local + hook `true`', c.guardedRun.caplab) + side('dist/caplab demo --transport local (no guard)', c.guardedRun.baseline);
  out += `${'  ratio with hook (sh + guard) / without'.padEnd(48)}${c.guardedRun.ratio.wall.toFixed(2).padStart(9)}${c.guardedRun.ratio.cpu.toFixed(2).padStart(9)}\n`;
  out += side('dist/caplab __guard alone (stdin at EOF)', c.guard.caplab) + side('hello-world', c.guard.baseline) + ratios(c.guard.ratio);
  const { rss } = c;
  out += `\npeak RSS, cold demo, median of ${rss.runs} runs (KiB)          host   server    guard\n`;
  out += `${'caplab (dist/caplab demo, its serve child)'.padEnd(48)}${String(rss.caplab.hostKiB).padStart(9)}${String(rss.caplab.serverKiB).padStart(9)}${String(rss.caplab.guardKiB).padStart(9)}\n`;
  out += `${'SDK client, SDK server'.padEnd(48)}${String(rss.baseline.hostKiB).padStart(9)}${String(rss.baseline.serverKiB).padStart(9)}\n`;
  out += `${'  ratio caplab / SDK'.padEnd(48)}${rss.ratio.host.toFixed(2).padStart(9)}${rss.ratio.server.toFixed(2).padStart(9)}\n`;
  return out;
}

/** Probe over a long tool list: wall time and the peak RSS of caplab and of the server. */
export function renderListing(points: readonly ListingPoint[]): string {
  let out = `\nprobe listing, whole process                      n  median ms    min ms    max ms  caplab KiB  server KiB\n`;
  for (const p of points) {
    out += `${`${p.name} (${p.caplab})`.padEnd(46)}${String(p.wallMs.n).padStart(5)}${f(p.wallMs.median, 11)}${f(p.wallMs.min, 10)}${f(p.wallMs.max, 10)}${String(p.hostKiB).padStart(12)}${String(p.serverKiB).padStart(12)}\n`;
  }
  return out;
}

/** A table's header over `row`'s columns, its name column `width` wide, then `extra` columns right-aligned to theirs. */
const head = (title: string, width: number, extra: readonly [string, number][]) =>
  `\n${title.padEnd(width)}${'n'.padStart(5)}${['median', 'p10', 'p90', 'min', 'max'].map((c) => c.padStart(9)).join('')}${extra.map(([c, w]) => c.padStart(w)).join('')}\n`;

/** Configured servers (`--mcp-config`): starting N at once, steady calls, and a big listing bound. */
export function renderServers(servers: ServersBench): string {
  let out = head('configured servers started at once (ms)', 45, [['close ms', 10], ['×SDK', 6]]);
  for (const p of servers.start) {
    const line = (name: string, side: StartPoint['caplab'], x: number) => row(`${name}, ${p.servers}`.padEnd(45), side.openMs, `${f(side.closeMs.median, 10)}${x.toFixed(2).padStart(6)}`);
    out += line('caplab startConfigured (+ Ajv, bind)', p.caplab, p.openRatio) + line('SDK clients connect + listTools', p.sdk, 1);
  }
  out += head('steady tools/call, one configured server (µs)', 45, [['×SDK', 7], ['×echo', 7]]);
  for (const { name, us, vsSdk, vsEcho } of servers.steady.perCallUs) out += row(name.padEnd(45), us, `${vsSdk.toFixed(2).padStart(7)}${vsEcho.toFixed(2).padStart(7)}`);
  out += `response line bytes (alpha, beta): ${servers.steady.responseBytes.join(', ')}\n`;
  const big = servers.listing;
  if (big) {
    out += head(`one server listing ${big.tools} realistic tools (ms)`, 45, [['µs/tool', 9], ['ratio', 8]]);
    for (const r of big.inProcess) out += row(r.name.padEnd(45), r.ms, `${String(r.usPerTool).padStart(9)}${r.ratio.toFixed(2).padStart(8)}`);
    out += `  ratios against the SDK client's listing; bound ${big.bound} of ${big.tools}\n`;
    for (const r of big.wholeProcess) out += row(r.name.padEnd(45), r.ms, `${String(r.usPerTool).padStart(9)}${r.ratio.toFixed(2).padStart(8)}`);
    out += `  whole processes, spawn to exit; ratios against probe's\n`;
  }
  return out;
}

export function render(result: BenchResult): string {
  let out = steady(result) + profile(result);
  if (result.setupMs) {
    out += `\nsession setup (ms)                  n   median      p10      p90      min      max\n`;
    for (const [name, s] of Object.entries(result.setupMs)) out += row(`${name} open`, s.open) + row(`${name} close`, s.close);
    out += `caplab/SDK open median ratio: ${result.setupRatioCaplabVsSdk}\n`;
  }
  if (result.demoMs) {
    out += `\ndemo wall time (ms)                 n   median      p10      p90      min      max\n`;
    for (const [name, s] of Object.entries(result.demoMs)) out += row(`demo (${name})`, s);
  }
  if (typeof result.cold === 'object') out += cold(result.cold);
  else if (result.cold) out += `\ncold start: ${result.cold}\n`;
  if (result.listing) out += renderListing(result.listing);
  if (result.servers) out += renderServers(result.servers);
  out += `\nbinary: ${result.binary ? `${result.binary.path} ${result.binary.bytes} bytes (${result.binary.mib} MiB)` : 'dist/caplab not built'}\n`;
  return out + footer(result);
}

/** The machine, what was left behind, and the wall time: the last lines of every mode's tables. */
export function footer(result: Pick<BenchResult, 'machine' | 'cleanup' | 'wallSeconds'>): string {
  let out = `machine: ${result.machine.cpu} ×${result.machine.cpus}, bun ${result.machine.bun}\n`;
  const { childrenStillAlive: alive, newLookalikes: lookalikes } = result.cleanup;
  out += `cleanup: ${alive.length === 0 ? 'no child process left' : `killed leftover children ${alive.join(', ')}`}`;
  out += `${lookalikes.length === 0 ? '' : `; new look-alike processes (maybe another run): ${lookalikes.map((l) => l.pid).join(', ')}`}; wall ${result.wallSeconds} s\n\n`;
  return out;
}

const ratioLines = (ratios: readonly { readonly name: string; readonly ratio: number }[]) => ratios.map((r) => `  ${r.name.padEnd(58)}${r.ratio.toFixed(2).padStart(7)}\n`).join('');

/** The name column of the HTTP tables. */
const W = 52;

/** Streamable HTTP against stdio (scripts/bench/http.ts): steady calls, session setup and close, probe's big listing, what was left. */
export function renderHttp(http: HttpBench): string {
  const { steady, setup, listing, leftovers } = http;
  let out = head('steady tools/call, 1 KiB sources (µs)', W, [['×SDK HTTP', 11], ['×SDK stdio', 11]]);
  for (const r of steady.perCallUs) out += row(r.name.padEnd(W), r.us, `${r.vsSdkHttp.toFixed(2).padStart(11)}${r.vsSdkStdio.toFixed(2).padStart(11)}`);
  out += `response line bytes (alpha, beta): ${steady.responseBytes.join(', ')}; ×SDK HTTP is against the SDK server answering JSON\n${ratioLines(steady.ratios)}`;
  out += head('session setup, spawned server (ms)', W, [['close ms', 10]]);
  for (const r of setup.spawned) out += row(`${r.name} open`.padEnd(W), r.open, f(r.close.median, 10));
  out += head('session setup, running server: initialize…DELETE (ms)', W, [['close ms', 10]]);
  for (const r of setup.session) out += row(`${r.name} open`.padEnd(W), r.open, f(r.close.median, 10));
  out += `  open median ratios:\n${ratioLines(setup.ratios)}`;
  out += head(`probe listing ${listing.tools} realistic tools, whole process (ms)`, W, [['probe KiB', 11]]);
  for (const r of listing.rows) out += row(r.name.padEnd(W), r.wallMs, String(r.probeKiB).padStart(11));
  out += `${ratioLines([{ name: 'HTTP / stdio (stdio includes spawning the server)', ratio: listing.httpOverStdio }])}`;
  out += `left behind: ${leftovers.portsStillOpen.length === 0 ? 'no port accepting' : `ports still accepting ${leftovers.portsStillOpen.join(', ')}`}; TCP sockets ${leftovers.socketsBefore} before, ${leftovers.socketsAfter} after; ${leftovers.tempEntries.length === 0 ? 'probe TMPDIR empty' : `in probe TMPDIR: ${leftovers.tempEntries.join(', ')}`}\n`;
  return out;
}
