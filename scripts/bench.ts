/**
 * Performance measurement (SPEC "Non-functional"): caplab against a baseline
 * written only with the official MCP SDK and against a raw pipe echo floor,
 * all in one run on one machine, reported as ratios. Measurement only — no
 * thresholds are asserted, and the exit code says only whether the run worked.
 *
 * Usage: bun scripts/bench.ts [--calls N] [--reps N] [--cold N] [--json]
 *   --calls  timed tools/call round trips per target (default 500)
 *   --reps   timed repetitions of session setup and of the demo (default 5)
 *   --cold   interleaved pairs for the cold-start comparisons of dist/caplab (default 20)
 *   --json   print only the final JSON line
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { binaryLaunch, caplabClient, caplabTool, openCaplab, openEcho, openSdk, type Target } from './bench/targets.ts';
import { coldStart } from './bench/cold.ts';
import { childrenOf, nowUs, processesMatching, ratio, stats, type Stats } from './bench/util.ts';

const { values: flags } = parseArgs({ options: { calls: { type: 'string' }, reps: { type: 'string' }, cold: { type: 'string' }, json: { type: 'boolean' } } });
const CALLS = Number(flags.calls ?? 500);
const REPS = Number(flags.reps ?? 5);
const COLD = Number(flags.cold ?? 20);
if (!(Number.isInteger(CALLS) && CALLS >= 10 && Number.isInteger(REPS) && REPS >= 1 && Number.isInteger(COLD) && COLD >= 1)) {
  process.stderr.write('usage: bun scripts/bench.ts [--calls N≥10] [--reps N≥1] [--cold N≥1] [--json]\n');
  process.exit(2);
}
const WARMUP = Math.min(100, Math.ceil(CALLS / 5));
// Calls are split into rounds and the target order rotates per round, so slow
// drift (thermal, other load) lands on every target alike.
const ROUNDS = 10;

const root = join(import.meta.dir, '..');
const binary = join(root, 'dist/caplab');
const hasBinary = existsSync(binary);
const log = (text: string) => void (flags.json || process.stderr.write(text));
// Command-line fragments of everything this bench starts, directly or not.
const MARKERS = ['scripts/bench/echo.ts', 'scripts/bench/sdk-server.ts', 'src/main.ts serve', 'src/main.ts demo', 'caplab serve', 'caplab demo'];
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

async function demoTimes() {
  const scratch = mkdtempSync(join(tmpdir(), 'caplab-bench-'));
  const kinds: Record<string, string[]> = { source: [process.execPath, join(root, 'src/main.ts')] };
  if (hasBinary) kinds['binary'] = [binary];
  const samples: Record<string, number[]> = {};
  let n = 0;
  try {
    for (let rep = -1; rep < REPS; rep++) {
      for (const [name, argv] of Object.entries(kinds)) {
        const ms = await demoOnce(argv, scratch, n++);
        if (rep >= 0) (samples[name] ??= []).push(ms);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
}

/** Per-call latency in µs: warm-up, then ROUNDS rounds with the target order rotated each round. */
async function callTimes(targets: readonly Target[]) {
  for (const target of targets) for (let i = 0; i < WARMUP; i++) await target.call(i);
  const samples = targets.map(() => [] as number[]);
  const perRound = Math.ceil(CALLS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < targets.length; k++) {
      const index = (k + round) % targets.length;
      const target = targets[index]!;
      for (let j = 0; j < perRound && samples[index]!.length < CALLS; j++) {
        const i = samples[index]!.length;
        const t0 = nowUs();
        await target.call(i);
        samples[index]!.push(nowUs() - t0);
      }
    }
  }
  return targets.map((t, i) => ({ name: t.name, us: stats(samples[i]!) }));
}

const wall0 = nowUs();
log(`caplab bench: ${CALLS} calls/target (+${WARMUP} warm-up, ${ROUNDS} rotated rounds), ${REPS} reps for setup and demo\n`);

// 1. Per-call latency: all four targets open at once, interleaved.
const toolSession = await openCaplab();
const clientSession = await openCaplab();
const tool = track(caplabTool(toolSession));
const client = track(caplabClient(clientSession));
// The echo payload matches what caplab's server actually sent for each source.
await client.call(0);
await client.call(1);
const payloadSizes = clientSession.exchanges().map((e) => e.responseBytes);
const targets: Target[] = [track(openEcho(payloadSizes)), track(await openSdk()), client, tool];
let calls: Awaited<ReturnType<typeof callTimes>>;
try {
  log('per-call latency …\n');
  calls = await callTimes(targets);
} finally {
  for (const target of targets) await target.close();
}

// 2. Session setup: spawn + handshake + tools/list, then close.
log('session setup …\n');
const setup = await setupTimes({
  sdk: openSdk,
  caplab: async () => caplabClient(await openCaplab()),
  ...(hasBinary ? { 'caplab (binary server)': async () => caplabClient(await openCaplab(binaryLaunch(binary))) } : {}),
});

// 3. The demo end to end, source entry and compiled binary alternating.
log('demo wall time …\n');
const demo = await demoTimes();

// 4. Cold start of the compiled binary, whole processes, against compiled baselines.
const cold = hasBinary ? coldStart(root, binary, COLD, log) : null;

// 5. Nothing this bench started may outlive it. Every process it starts is its
// direct child while alive (setsid keeps the parent), so a living child is a
// leak and ours to stop; a finished pid may be reused, so it is never signalled.
const stillAlive = childrenOf(process.pid);
for (const pid of stillAlive) process.kill(pid, 'SIGKILL');
const leftover = [...processesMatching(MARKERS)].filter(([pid]) => !before.has(pid) && !stillAlive.includes(pid));

const [echo, sdk] = [calls[0]!.us, calls[1]!.us];
const median = (s: Stats) => s.median;
const result = {
  bench: 'caplab',
  when: new Date().toISOString(),
  machine: { bun: Bun.version, platform: process.platform, arch: process.arch, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length },
  calls: CALLS,
  warmup: WARMUP,
  rounds: ROUNDS,
  reps: REPS,
  payloadBytes: payloadSizes,
  perCallUs: calls.map(({ name, us }) => ({ name, ...us, vsSdk: ratio(median(us), median(sdk)), vsEcho: ratio(median(us), median(echo)) })),
  setupMs: setup,
  setupRatioCaplabVsSdk: ratio(setup['caplab']!.open.median, setup['sdk']!.open.median),
  demoMs: demo,
  cold: cold ? { pairs: COLD, ...cold } : 'dist/caplab not built (npm run build)',
  binary: hasBinary ? { path: 'dist/caplab', bytes: statSync(binary).size, mib: Math.round((statSync(binary).size / 2 ** 20) * 10) / 10 } : null,
  cleanup: { processesStarted: started.length, childrenStillAlive: stillAlive, newLookalikes: leftover.map(([pid, argv]) => ({ pid, argv })) },
  wallSeconds: Math.round((nowUs() - wall0) / 1e5) / 10,
};

if (!flags.json) {
  const f = (x: number) => x.toFixed(1).padStart(9);
  const row = (name: string, s: Stats, extra = '') => `${name.padEnd(32)}${String(s.n).padStart(5)}${f(s.median)}${f(s.p10)}${f(s.p90)}${f(s.min)}${f(s.max)}${extra}\n`;
  let out = `\nper call (µs)                       n   median      p10      p90      min      max   ×SDK  ×echo\n`;
  for (const c of result.perCallUs) out += row(c.name, c, `${c.vsSdk.toFixed(2).padStart(7)}${c.vsEcho.toFixed(2).padStart(7)}`);
  out += `\nsession setup (ms)                  n   median      p10      p90      min      max\n`;
  for (const [name, s] of Object.entries(setup)) out += row(`${name} open`, s.open) + row(`${name} close`, s.close);
  out += `caplab/SDK open median ratio: ${result.setupRatioCaplabVsSdk}\n`;
  out += `\ndemo wall time (ms)                 n   median      p10      p90      min      max\n`;
  for (const [name, s] of Object.entries(demo)) out += row(`demo (${name})`, s);
  if (cold) {
    out += `\ncold start, compiled, ${COLD} interleaved pairs (median)   wall ms   cpu ms\n`;
    const side = (name: string, s: { wallMs: Stats; cpuMs: Stats }) => `${name.padEnd(48)}${f(s.wallMs.median)}${f(s.cpuMs.median)}\n`;
    const ratios = (r: { wall: number; cpu: number }) => `${'  ratio caplab / baseline'.padEnd(48)}${r.wall.toFixed(2).padStart(9)}${r.cpu.toFixed(2).padStart(9)}\n`;
    out += side('dist/caplab --version', cold.version.caplab) + side('hello-world', cold.version.baseline) + ratios(cold.version.ratio);
    out += side('dist/caplab demo', cold.demo.caplab) + side('SDK client + server (spawn, init, list, 3 calls)', cold.demo.baseline) + ratios(cold.demo.ratio);
  }
  out += `\nbinary: ${result.binary ? `${result.binary.path} ${result.binary.bytes} bytes (${result.binary.mib} MiB)` : 'dist/caplab not built'}\n`;
  out += `payload bytes (alpha, beta): ${payloadSizes.join(', ')}; machine: ${result.machine.cpu} ×${result.machine.cpus}, bun ${Bun.version}\n`;
  out += `cleanup: ${stillAlive.length === 0 ? 'no child process left' : `killed leftover children ${stillAlive.join(', ')}`}`;
  out += `${leftover.length === 0 ? '' : `; new look-alike processes (maybe another run): ${leftover.map(([pid]) => pid).join(', ')}`}; wall ${result.wallSeconds} s\n\n`;
  process.stdout.write(out);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exitCode = stillAlive.length === 0 ? 0 : 1;
