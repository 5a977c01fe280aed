/**
 * Users' scenarios as smoke checks (issue 23): whole `caplab run` processes
 * against server-everything, the expectations task (4 calls, result data
 * kept, one check per expectation, Ajv for `output_valid`) against an
 * excerpt-task scenario calling the same server (3 calls, no checks of its
 * own), interleaved in one run; then `verify` of each record (an
 * expectations record loads Ajv, an excerpt one does not). Measurement only:
 * the only checks are each run's exit code and each verify's.
 */
import { join } from 'node:path';
import { nowUs, ratio, stats, type Stats } from './util.ts';

export interface ExpectationsBench {
  readonly reps: number;
  readonly runMs: { readonly expectations: Stats; readonly excerpt: Stats; readonly ratio: number };
  readonly verifyMs: { readonly expectations: Stats; readonly excerpt: Stats; readonly ratio: number };
}

type Track = <T extends { pid: number }>(t: T) => T;

/** One whole process: its wall time, and its exit code as expected. */
async function timed(argv: readonly string[], cwd: string, want: number, track: Track): Promise<number> {
  const t0 = nowUs();
  const proc = track(Bun.spawn([...argv], { cwd, stdout: 'pipe', stderr: 'pipe' }));
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  if (code !== want) throw new Error(`${argv.slice(1).join(' ')} exited ${code}, not ${want}: ${err.slice(-500)}`);
  return (nowUs() - t0) / 1000;
}

/** `reps` interleaved pairs (the first a warm-up) of each run and each verify. */
export async function expectationsBench(root: string, entry: readonly string[], scratch: string, reps: number, track: Track, log: (text: string) => void): Promise<ExpectationsBench> {
  const examples = join(root, 'fixtures/examples');
  const config = ['--mcp-config', join(examples, 'everything.mcp.json')];
  const kinds = {
    expectations: { args: ['--scenario', join(examples, 'everything.scenario.json'), ...config], exit: 0 },
    // The excerpt task makes no card here, so the run is not accepted: exit 1.
    excerpt: { args: ['--scenario', join(examples, 'everything-calls.json'), ...config, '--allow-tool=mcp__everything'], exit: 1 },
  } as const;
  const run: Record<string, number[]> = { expectations: [], excerpt: [] };
  const verify: Record<string, number[]> = { expectations: [], excerpt: [] };
  log(`expectations: ${reps} interleaved runs and verifies …\n`);
  for (let n = 0; n <= reps; n++) {
    for (const [name, kind] of Object.entries(kinds)) {
      const out = join(scratch, `expect-${name}-${n}`);
      const ms = await timed([...entry, 'run', ...kind.args, '--out', out], root, kind.exit, track);
      const vms = await timed([...entry, 'verify', out], root, 0, track);
      if (n > 0) run[name]!.push(ms), verify[name]!.push(vms);
    }
  }
  const side = (samples: Record<string, number[]>) => {
    const [e, x] = [stats(samples['expectations']!), stats(samples['excerpt']!)];
    return { expectations: e, excerpt: x, ratio: ratio(e.median, x.median) };
  };
  return { reps, runMs: side(run), verifyMs: side(verify) };
}

/** The bench's table for it. */
export function renderExpectations(bench: ExpectationsBench): string {
  const line = (name: string, s: Stats) => `${name.padEnd(48)}${String(s.n).padStart(4)}${s.median.toFixed(1).padStart(9)}${s.p10.toFixed(1).padStart(9)}${s.p90.toFixed(1).padStart(9)}\n`;
  let out = `\nusers' scenarios, whole processes (ms)              n   median      p10      p90\n`;
  out += line('run: expectations scenario (4 calls, checks)', bench.runMs.expectations) + line('run: excerpt scenario, same server (3 calls)', bench.runMs.excerpt);
  out += `  expectations/excerpt run median ratio: ${bench.runMs.ratio}\n`;
  out += line('verify: expectations record (loads Ajv)', bench.verifyMs.expectations) + line('verify: excerpt record', bench.verifyMs.excerpt);
  out += `  expectations/excerpt verify median ratio: ${bench.verifyMs.ratio}\n`;
  return out;
}
