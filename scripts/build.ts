/**
 * Builds dist/caplab: one executable that embeds the fixtures, scenarios,
 * skill packages, the MCP server (the binary serves MCP itself with `serve`)
 * and probe's output-judging worker.
 *
 * `.env` and `bunfig.toml` autoload are turned off: a compiled binary would
 * otherwise read them from whatever directory it is started in.
 *
 * Usage: bun scripts/build.ts [--outfile PATH]
 */
import { exportsProblems } from './check-exports.ts';
import { renderManifest } from './embed.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = join(import.meta.dir, '..');

/** Worker entries under src/, each embedded beside main.ts (`new Worker` loads them, nothing imports them). */
export const WORKER_ENTRIES: readonly string[] = ['mcp/probe/output-judge-worker.ts'];

/** The JIT tier-up scale the binary starts with (see `--compile-jit-policy`). */
export const JIT_POLICY = 16;

/** The `bun build` argument list for the binary. */
export function buildArgs(outfile: string): string[] {
  return [
    'build',
    '--compile',
    '--minify',
    // Bytecode saves parsing at every start; splitting puts each lazily imported command in its own
    // chunk (still inside the one file), so a command parses only what it loads.
    '--bytecode',
    '--format=esm',
    '--splitting',
    // Run-once start-up code rarely pays back the JIT's compile time: tier-up thresholds ×16 cut a
    // cold demo's cpu by about a tenth (issue 15); `serve` restores the normal policy once it has run
    // a while (src/main.ts), so a long session is compiled as usual.
    `--compile-jit-policy=${JIT_POLICY}`,
    '--sourcemap',
    '--no-compile-autoload-dotenv',
    '--no-compile-autoload-bunfig',
    join(root, 'src/main.ts'),
    // A worker is an entry point of its own: Bun embeds it under its path from src/ (`./mcp/…`),
    // which is how src/mcp/probe/output-judge.ts names it in the binary.
    ...WORKER_ENTRIES.map((entry) => join(root, 'src', entry)),
    '--outfile',
    outfile,
  ];
}

/** Builds the binary with the Bun running this script; returns bun's exit code. */
export async function build(outfile: string = join(root, 'dist/caplab')): Promise<{ code: number; output: string }> {
  if (readFileSync(join(root, 'src/assets/manifest.gen.ts'), 'utf8') !== renderManifest()) {
    return { code: 1, output: 'src/assets/manifest.gen.ts is stale: run `bun scripts/embed.ts` first' };
  }
  const problems = exportsProblems(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), (rel) => existsSync(join(root, rel)));
  if (problems.length > 0) return { code: 1, output: problems.map((p) => `package.json exports: ${p}`).join('\n') };
  const child = Bun.spawn([process.execPath, ...buildArgs(outfile)], { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}` };
}

if (import.meta.main) {
  const i = process.argv.indexOf('--outfile');
  const outfile = resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : join(root, 'dist/caplab'));
  const { code, output } = await build(outfile);
  process.stderr.write(output);
  if (code === 0) process.stderr.write(`built ${outfile}\n`);
  process.exitCode = code;
}
