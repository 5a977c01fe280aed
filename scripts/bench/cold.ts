/**
 * Cold start, whole processes (issue 15): `dist/caplab --version` against a compiled hello-world,
 * and `dist/caplab demo` against the SDK-only client + server (sdk-client.ts, sdk-server.ts), all
 * compiled with the same start-up flags as caplab's binary, into a temp dir that is removed after.
 * Pairs are interleaved (the order flips every pair) so load on the shared machine lands on both.
 * cpu is user+system of the process and the children it waited for (the server). Peak RSS of the
 * host (client) and of its server, each on its own, comes from separate runs polled through /proc
 * (rss.ts), so the polling does not disturb the timed pairs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GUARD_ARG } from '../../src/platform/guard-protocol.ts';
import { peakRss, type PeakRss } from './rss.ts';
import { ratio, stats, type Stats } from './util.ts';

export interface ColdSide {
  readonly wallMs: Stats;
  readonly cpuMs: Stats;
}
export interface ColdPair {
  readonly caplab: ColdSide;
  readonly baseline: ColdSide;
  readonly ratio: { readonly wall: number; readonly cpu: number };
}

/** The flags that shape start-up, shared with scripts/build.ts's binary (not splitting: one entry). */
const START_FLAGS = ['--compile', '--minify', '--bytecode', '--format=esm', '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig'];

function compile(entry: string, outfile: string, cwd: string): void {
  const built = Bun.spawnSync([process.execPath, 'build', ...START_FLAGS, entry, '--outfile', outfile], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (built.exitCode !== 0) throw new Error(`compiling ${entry}: ${built.stderr.toString().slice(-500)}`);
}

interface Sample {
  wall: number[];
  cpu: number[];
}

function once(argv: readonly string[], cwd: string, into: Sample | undefined, expect: string): void {
  const t0 = Bun.nanoseconds();
  // stdin /dev/null: the guard alone (`caplab __guard`) reads EOF at once and exits.
  const run = Bun.spawnSync([...argv], { cwd, env: { PATH: '/usr/bin:/bin' }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const wall = (Bun.nanoseconds() - t0) / 1e6;
  if (run.exitCode !== 0 || !run.stdout.toString().includes(expect)) throw new Error(`${argv.join(' ')} exited ${run.exitCode}: ${run.stderr.toString().slice(-500)}`);
  if (!into) return;
  const usage = run.resourceUsage!;
  into.wall.push(wall);
  into.cpu.push(Number(usage.cpuTime.user + usage.cpuTime.system) / 1000);
}

const side = (s: Sample): ColdSide => ({ wallMs: stats(s.wall), cpuMs: stats(s.cpu) });

/** One warm-up pair, then `pairs` interleaved pairs. `a` is caplab's command, `b` the baseline's. */
function pairUp(pairs: number, cwd: string, a: (n: number) => string[], b: (n: number) => string[], expectA: string, expectB: string): ColdPair {
  const sa: Sample = { wall: [], cpu: [] };
  const sb: Sample = { wall: [], cpu: [] };
  for (let n = -1; n < pairs; n++) {
    const runs = [() => once(a(n), cwd, n >= 0 ? sa : undefined, expectA), () => once(b(n), cwd, n >= 0 ? sb : undefined, expectB)];
    for (const run of n % 2 === 0 ? runs : runs.reverse()) run();
  }
  const [ca, cb] = [side(sa), side(sb)];
  return { caplab: ca, baseline: cb, ratio: { wall: ratio(ca.wallMs.median, cb.wallMs.median), cpu: ratio(ca.cpuMs.median, cb.cpuMs.median) } };
}

/** Median peak RSS (KiB) of the host process and of its server (and caplab's guard) over `runs` runs of each side, alternating. */
export interface RssPair {
  readonly runs: number;
  readonly caplab: { readonly hostKiB: number; readonly serverKiB: number; readonly guardKiB: number };
  readonly baseline: { readonly hostKiB: number; readonly serverKiB: number };
  readonly ratio: { readonly host: number; readonly server: number };
}

const isGuard = (child: PeakRss['children'][number]) => child.argv.includes(GUARD_ARG);

async function rssPair(runs: number, cwd: string, a: (n: number) => string[], b: () => string[], expectA: string, expectB: string): Promise<RssPair> {
  const seen = { a: { host: [] as number[], server: [] as number[], guard: [] as number[] }, b: { host: [] as number[], server: [] as number[], guard: [] as number[] } };
  for (let n = 0; n < runs; n++) {
    for (const [side, argv, expect] of [['a', a(n), expectA], ['b', b(), expectB]] as const) {
      const peak = await peakRss(argv, cwd, expect);
      seen[side].host.push(peak.self);
      // caplab's children are its server and its guard: told apart by the guard's argument.
      seen[side].server.push(peak.children.find((c) => !isGuard(c))?.kib ?? 0);
      seen[side].guard.push(peak.children.find(isGuard)?.kib ?? 0);
    }
  }
  const median = (xs: number[]) => stats(xs).median;
  const caplab = { hostKiB: median(seen.a.host), serverKiB: median(seen.a.server), guardKiB: median(seen.a.guard) };
  const baseline = { hostKiB: median(seen.b.host), serverKiB: median(seen.b.server) };
  return { runs, caplab, baseline, ratio: { host: ratio(caplab.hostKiB, baseline.hostKiB), server: ratio(caplab.serverKiB, baseline.serverKiB) } };
}

export interface ColdStart {
  readonly version: ColdPair;
  /** Over MCP: starts the server and, before it, the guard. */
  readonly demo: ColdPair;
  /** `demo --transport local` (no child, so no guard) against the same with one hook `true` (starts sh and the guard). */
  readonly guardedRun: ColdPair;
  /** The guard alone (`caplab __guard` with stdin at EOF: start, nothing registered, exit) against hello-world. */
  readonly guard: ColdPair;
  readonly rss: RssPair;
}

export async function coldStart(root: string, binary: string, pairs: number, log: (text: string) => void): Promise<ColdStart> {
  const scratch = mkdtempSync(join(tmpdir(), 'caplab-bench-cold-'));
  try {
    log('compiling hello-world and the SDK baseline …\n');
    writeFileSync(join(scratch, 'hello.ts'), `console.log('hello');\n`);
    compile(join(scratch, 'hello.ts'), join(scratch, 'hello'), scratch);
    compile(join(root, 'scripts/bench/sdk-server.ts'), join(scratch, 'sdk-server'), root);
    compile(join(root, 'scripts/bench/sdk-client.ts'), join(scratch, 'sdk-client'), root);
    log(`--version vs hello-world, ${pairs} pairs …\n`);
    const version = pairUp(pairs, scratch, () => [binary, '--version'], () => [join(scratch, 'hello')], 'caplab ', 'hello');
    log(`cold demo vs SDK client+server, ${pairs} pairs …\n`);
    const sources = join(root, 'fixtures/sources');
    const caplabDemo = (n: number) => [binary, 'demo', '--json', '--out', join(scratch, `run-${n}`)];
    const sdkDemo = () => [join(scratch, 'sdk-client'), join(scratch, 'sdk-server'), sources];
    const demo = pairUp(pairs, scratch, caplabDemo, sdkDemo, '"accepted": true', 'ok');
    log(`cold local demo without and with a hook (no guard, guard), ${pairs} pairs …\n`);
    writeFileSync(join(scratch, 'hook.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'create_card', hooks: [{ type: 'command', command: 'true' }] }] } }));
    const localDemo = (n: number) => [binary, 'demo', '--transport', 'local', '--json', '--out', join(scratch, `local-${n}`)];
    const hookedDemo = (n: number) => [binary, 'demo', '--transport', 'local', '--json', '--settings', join(scratch, 'hook.json'), '--out', join(scratch, `hooked-${n}`)];
    const guardedRun = pairUp(pairs, scratch, hookedDemo, localDemo, '"accepted": true', '"accepted": true');
    log(`the guard alone vs hello-world, ${pairs} pairs …\n`);
    const guard = pairUp(pairs, scratch, () => [binary, GUARD_ARG], () => [join(scratch, 'hello')], '', 'hello');
    const rssRuns = Math.min(pairs, 7);
    log(`peak RSS of host and server, ${rssRuns} runs each …\n`);
    const rss = await rssPair(rssRuns, scratch, (n) => caplabDemo(pairs + n), sdkDemo, '"accepted": true', 'ok');
    return { version, demo, guardedRun, guard, rss };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
