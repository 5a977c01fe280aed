/**
 * Performance measurement (SPEC "Non-functional", issue 15): caplab against a
 * baseline written only with the official MCP SDK and against a raw pipe echo
 * floor, all in one run on one machine, reported as ratios. Measurement only —
 * no thresholds are asserted, and the exit code says only whether the run worked.
 *
 * Usage: bun scripts/bench.ts [--calls N] [--reps N] [--cold N] [--profile | --listing | --servers | --expectations | --http | --tool-search | --subagents | --tasks] [--json]
 *   --calls    timed tools/call round trips per target and payload size (default 500)
 *   --reps     timed repetitions of session setup and of the demo (default 5)
 *   --cold     interleaved pairs for the cold-start comparisons of dist/caplab (default 20)
 *   --profile  only the steady calls and the breakdown of one round trip (skips setup, demo, cold)
 *   --listing  only probe's listing of 10,000 minimal and 1,000 realistic tools
 *   --servers  only configured servers (--mcp-config, issue 22): 1, 8 and 32 started at once, steady
 *              calls, one listing 1,000 realistic tools bound (the default run has 1 and 8, and the calls);
 *              like the listing, min(--reps, 3) repetitions
 *   --expectations  only users' scenarios (issue 23): whole `run` and `verify` processes of the
 *              expectations example against an excerpt scenario on the same server, min(--reps, 3) pairs
 *   --http     only Streamable HTTP (issue 24) against stdio: steady calls (1 KiB sources) of caplab's
 *              strict client and host session over HTTP, the SDK's Streamable HTTP client and server, the
 *              same over stdio and raw pipe/HTTP floors; session setup and close (spawned servers, and
 *              initialize…DELETE on running ones, --reps repetitions); probe --url listing 1,000
 *              realistic tools against probe over stdio (min(--reps, 3) pairs); and what was left
 *              (ports, sockets, temp entries)
 *   --tool-search  only ToolSearch's engine (issue 25) over 50 fixed and 10,000 generated tools, per query,
 *              against a substring scan of the same names and descriptions (in-process, no servers)
 *   --subagents  only subagents (issue 27): in-process runs of happy against subagent-creates (the same
 *              reads and create inside a subagent), --reps interleaved pairs, each verified
 *   --tasks    only MCP task calls in runs (W10, issue 28): whole `run --mcp-config` processes over `caplab serve`
 *              calling read_source (plain) against count_words with delay_ms 0 (a task: its time is the 100 ms
 *              poll floor), each then `verify`, min(--reps, 3) interleaved pairs; the polls its call event records
 *   --json     print only the final JSON line
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { coldStart } from './bench/cold.ts';
import { probeListing } from './bench/probe-listing.ts';
import { profileRoundTrip } from './bench/profile.ts';
import { httpBench } from './bench/http.ts';
import { footer, render, renderHttp, renderListing, renderServers, type ServersBench } from './bench/report.ts';
import { bigListing } from './bench/servers-listing.ts';
import { startMany, steadyCalls } from './bench/servers.ts';
import { expectationsBench, renderExpectations } from './bench/expectations.ts';
import { renderToolSearch, toolSearchBench } from './bench/tool-search.ts';
import { renderSubagents, subagentsBench } from './bench/subagents.ts';
import { renderTasks, tasksBench } from './bench/tasks.ts';
import { measureSize, slope, type CallSettings } from './bench/sweep.ts';
import { binaryLaunch, caplabClient, openCaplab, openSdk, readSnapshot } from './bench/targets.ts';
import { childrenOf, nowUs, processesMatching, ratio, stats } from './bench/util.ts';

const options = { calls: { type: 'string' }, reps: { type: 'string' }, cold: { type: 'string' }, profile: { type: 'boolean' }, listing: { type: 'boolean' }, servers: { type: 'boolean' }, expectations: { type: 'boolean' }, http: { type: 'boolean' }, 'tool-search': { type: 'boolean' }, subagents: { type: 'boolean' }, tasks: { type: 'boolean' }, json: { type: 'boolean' } } as const;
const { values: flags } = parseArgs({ options });
const CALLS = Number(flags.calls ?? 500);
const REPS = Number(flags.reps ?? 5);
const COLD = Number(flags.cold ?? 20);
const modes = [flags.profile, flags.listing, flags.servers, flags.expectations, flags.http, flags['tool-search'], flags.subagents, flags.tasks].filter(Boolean).length;
if (!(Number.isInteger(CALLS) && CALLS >= 10 && Number.isInteger(REPS) && REPS >= 1 && Number.isInteger(COLD) && COLD >= 1 && modes <= 1)) {
  process.stderr.write('usage: bun scripts/bench.ts [--calls N≥10] [--reps N≥1] [--cold N≥1] [--profile | --listing | --servers | --expectations | --http | --tool-search | --subagents | --tasks] [--json]\n');
  process.exit(2);
}
const settings: CallSettings = { calls: CALLS, warmup: Math.min(100, Math.ceil(CALLS / 5)), rounds: 10 };
/** Source sizes of the steady-call sweep: 1 KiB is the acceptance point, 16 → 256 KiB gives the per-byte slope. */
const SIZES = [1024, 16 * 1024, 256 * 1024];

const root = join(import.meta.dir, '..');
const binary = join(root, 'dist/caplab');
const hasBinary = existsSync(binary);
const fixtures = join(root, 'fixtures/sources');
const log = (text: string) => void (flags.json || process.stderr.write(text));
// Command-line fragments of everything this bench starts, directly or not.
const MARKERS = ['src/main.ts run', 'src/main.ts verify', 'server-everything/dist/index.js', 'src/mcp/probe/testing/hostile.ts', 'scripts/bench/echo.ts', 'scripts/bench/sdk-server.ts', 'scripts/bench/caplab-server.ts', 'src/main.ts serve', 'src/main.ts demo', 'caplab serve', 'caplab demo', 'src/main.ts probe', 'scripts/bench/sdk-http-server.ts', 'scripts/bench/hostile-http.ts', 'scripts/bench/echo-http.ts'];
const before = processesMatching(MARKERS);
const started: number[] = [];
const track = <T extends { pid: number }>(t: T): T => (started.push(t.pid), t);

/** Times `open` then `close`, alternating the kinds per repetition; first round is warm-up. */
async function setupTimes(kinds: Record<string, () => Promise<{ pid: number; close(): Promise<void> }>>) {
  const open: Record<string, number[]> = {};
  const close: Record<string, number[]> = {};
  for (let rep = -1; rep < REPS; rep++) {
    const names = Object.keys(kinds);
    for (const name of rep % 2 === 0 ? names : names.reverse()) {
      const t0 = nowUs();
      const session = track(await kinds[name]!());
      const t1 = nowUs();
      await session.close();
      const t2 = nowUs();
      if (rep < 0) continue;
      (open[name] ??= []).push((t1 - t0) / 1000);
      (close[name] ??= []).push((t2 - t1) / 1000);
    }
  }
  return Object.fromEntries(Object.keys(kinds).map((k) => [k, { open: stats(open[k]!), close: stats(close[k]!) }]));
}

/** Wall time of one demo run (spawn to exit), in ms; the run dir goes to a fresh temp dir. */
async function demoOnce(argv: string[], scratch: string, n: number): Promise<number> {
  const t0 = nowUs();
  const proc = track(Bun.spawn([...argv, 'demo', '--json', '--out', join(scratch, `run-${n}`)], { cwd: root, stdout: 'pipe', stderr: 'pipe' }));
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = (nowUs() - t0) / 1000;
  if (code !== 0 || !out.includes('"accepted"')) throw new Error(`demo ${argv.join(' ')} exited ${code}: ${err.slice(-500)}`);
  return ms;
}

async function demoTimes(scratch: string) {
  const kinds: Record<string, string[]> = { source: [process.execPath, join(root, 'src/main.ts')] };
  if (hasBinary) kinds['binary'] = [binary];
  const samples: Record<string, number[]> = {};
  let n = 0;
  for (let rep = -1; rep < REPS; rep++) {
    for (const [name, argv] of Object.entries(kinds)) {
      const ms = await demoOnce(argv, scratch, n++);
      if (rep >= 0) (samples[name] ??= []).push(ms);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
}

/** The machine this ran on. */
const machine = () => ({ bun: Bun.version, platform: process.platform, arch: process.arch, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length });

/**
 * Nothing this bench started may outlive it. Every process it starts is its
 * direct child while alive (setsid keeps the parent), so a living child is a
 * leak and ours to stop; a finished pid may be reused, so it is never signalled.
 */
function cleanup() {
  const stillAlive = childrenOf(process.pid);
  for (const pid of stillAlive) process.kill(pid, 'SIGKILL');
  const leftover = [...processesMatching(MARKERS)].filter(([pid]) => !before.has(pid) && !stillAlive.includes(pid));
  return { processesStarted: started.length, childrenStillAlive: stillAlive, newLookalikes: leftover.map(([pid, argv]) => ({ pid, argv })) };
}

const wall0 = nowUs();
const wallSeconds = () => Math.round((nowUs() - wall0) / 1e5) / 10;
const scratch = mkdtempSync(join(tmpdir(), 'caplab-bench-'));
/** caplab as a user starts it: from source, and the compiled binary when built. */
const caplabEntries: Record<string, string[]> = { source: [process.execPath, join(root, 'src/main.ts')], ...(hasBinary ? { binary: [binary] } : {}) };
const LISTING_REPS = Math.min(REPS, 3);

/** Configured servers: `counts` started at once, steady calls, and with `big` one server listing 1,000 realistic tools. */
async function servers(counts: readonly number[], big: boolean): Promise<ServersBench> {
  const start = await startMany(scratch, counts, LISTING_REPS, track, log);
  log('steady calls to a configured server …\n');
  const steady = await steadyCalls(scratch, settings, track);
  return { start, steady, ...(big ? { listing: await bigListing(scratch, caplabEntries['source']!, LISTING_REPS, track, log) } : {}) };
}

try {
  if (flags.listing) {
    // Probe's listing alone (issue 20).
    log(`caplab bench: probe listing, ${LISTING_REPS} reps\n`);
    const listing = await probeListing(root, caplabEntries, LISTING_REPS, log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), reps: LISTING_REPS, listing, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(renderListing(listing));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = result.cleanup.childrenStillAlive.length === 0 ? 0 : 1;
  } else if (flags.subagents) {
    const subagents = await subagentsBench(scratch, REPS, log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), subagents, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(renderSubagents(subagents));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (flags.tasks) {
    log(`caplab bench: task calls in runs, ${LISTING_REPS} reps\n`);
    const tasks = await tasksBench(root, caplabEntries['source']!, scratch, LISTING_REPS, track, log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), reps: LISTING_REPS, tasks, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(renderTasks(tasks));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    const clean = result.cleanup.childrenStillAlive.length === 0 && tasks.leftovers.servers.length === 0 && tasks.leftovers.tempEntries.length === 0;
    process.exitCode = clean ? 0 : 1;
  } else if (flags['tool-search']) {
    const toolSearch = toolSearchBench(log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), toolSearch, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(renderToolSearch(toolSearch));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (flags.expectations) {
    log(`caplab bench: users' scenarios, ${LISTING_REPS} reps\n`);
    const expectations = await expectationsBench(root, caplabEntries['source']!, scratch, LISTING_REPS, track, log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), reps: LISTING_REPS, expectations, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(renderExpectations(expectations));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = result.cleanup.childrenStillAlive.length === 0 ? 0 : 1;
  } else if (flags.http) {
    log(`caplab bench: Streamable HTTP against stdio, ${CALLS} calls (+${settings.warmup} warm-up, ${settings.rounds} rotated rounds), ${REPS} reps\n`);
    const http = await httpBench(caplabEntries['source']!, scratch, settings, REPS, track, log);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), calls: CALLS, reps: REPS, http, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(`${renderHttp(http)}\n${footer(result)}`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    const { leftovers } = http;
    const clean = result.cleanup.childrenStillAlive.length === 0 && leftovers.portsStillOpen.length === 0 && leftovers.socketsAfter <= leftovers.socketsBefore && leftovers.tempEntries.length === 0;
    process.exitCode = clean ? 0 : 1;
  } else if (flags.servers) {
    log(`caplab bench: configured servers, ${LISTING_REPS} reps, ${CALLS} calls\n`);
    const measured = await servers([1, 8, 32], true);
    const result = { bench: 'caplab', when: new Date().toISOString(), machine: machine(), reps: LISTING_REPS, calls: CALLS, servers: measured, cleanup: cleanup(), wallSeconds: wallSeconds() };
    if (!flags.json) process.stdout.write(`${renderServers(measured)}\n${footer(result)}`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = result.cleanup.childrenStillAlive.length === 0 ? 0 : 1;
  } else {
    log(`caplab bench: ${CALLS} calls/target/size (+${settings.warmup} warm-up, ${settings.rounds} rotated rounds), ${REPS} reps for setup and demo\n`);
    // 1. Steady calls across payload sizes, all four targets open at once per size, interleaved.
    const sweep = [];
    for (const bytes of SIZES) {
      log(`per-call latency, ${bytes / 1024} KiB sources …\n`);
      sweep.push(await measureSize(scratch, bytes, settings, track));
    }
    // 2. Where one round trip goes, per size, against the caplab tool's measured median.
    log('round-trip profile …\n');
    const profile = [];
    for (const point of sweep) {
      const tool = point.perCallUs.find((c) => c.name.startsWith('caplab tool'))!;
      profile.push({ sourceBytes: point.sourceBytes, rows: await profileRoundTrip(readSnapshot(join(scratch, `sources-${point.sourceBytes}`)), Math.min(CALLS, 300), tool.us.median) });
    }
    let setup, demo, cold, listing, configured, expectations;
    if (!flags.profile) {
      // 3. Session setup: spawn + handshake + tools/list, then close (fixture sources).
      log('session setup …\n');
      const snapshot = readSnapshot(fixtures);
      setup = await setupTimes({
        sdk: () => openSdk(fixtures),
        caplab: async () => caplabClient(await openCaplab(snapshot)),
        ...(hasBinary ? { 'caplab (binary server)': async () => caplabClient(await openCaplab(snapshot, binaryLaunch(binary))) } : {}),
      });
      // 4. The demo end to end, source entry and compiled binary alternating.
      log('demo wall time …\n');
      demo = await demoTimes(scratch);
      // 5. Cold start of the compiled binary, whole processes, against compiled baselines; peak RSS.
      cold = hasBinary ? await coldStart(root, binary, COLD, log) : undefined;
      // 6. Probe over a long tool list, whole processes.
      listing = await probeListing(root, caplabEntries, LISTING_REPS, log);
      // 7. Configured servers, the small part (--servers has 32 at once and a big listing).
      configured = await servers([1, 8], false);
      // 8. Users' scenarios: the expectations example against an excerpt scenario on the same server.
      expectations = await expectationsBench(root, caplabEntries['source']!, scratch, LISTING_REPS, track, log);
    }

    const left = cleanup();
    const at1k = sweep[0]!.perCallUs;
    const [echo, sdk] = [at1k[0]!.us.median, at1k[1]!.us.median];
    const result = {
      bench: 'caplab',
      when: new Date().toISOString(),
      machine: machine(),
      calls: CALLS,
      warmup: settings.warmup,
      rounds: settings.rounds,
      reps: REPS,
      perCallUs: at1k.map(({ name, us }) => ({ name, ...us, vsSdk: ratio(us.median, sdk), vsEcho: ratio(us.median, echo) })),
      sweep,
      slope16to256: slope(sweep, 16 * 1024, 256 * 1024),
      profile,
      ...(setup ? { setupMs: setup, setupRatioCaplabVsSdk: ratio(setup['caplab']!.open.median, setup['sdk']!.open.median) } : {}),
      ...(demo ? { demoMs: demo } : {}),
      ...(flags.profile ? {} : { cold: cold ? { pairs: COLD, ...cold } : 'dist/caplab not built (npm run build)' }),
      ...(listing ? { listing } : {}),
      ...(configured ? { servers: configured } : {}),
      ...(expectations ? { expectations } : {}),
      binary: hasBinary ? { path: 'dist/caplab', bytes: statSync(binary).size, mib: Math.round((statSync(binary).size / 2 ** 20) * 10) / 10 } : null,
      cleanup: left,
      wallSeconds: wallSeconds(),
    };
    if (!flags.json) process.stdout.write(`${render(result)}${expectations ? renderExpectations(expectations) : ''}`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exitCode = left.childrenStillAlive.length === 0 ? 0 : 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
