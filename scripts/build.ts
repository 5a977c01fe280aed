/**
 * Builds dist/caplab: one executable that embeds the fixtures, scenarios,
 * skill packages, the MCP server (the binary serves MCP itself with `serve`)
 * and probe's output-judging worker.
 *
 * `.env` and `bunfig.toml` autoload are turned off: a compiled binary would
 * otherwise read them from whatever directory it is started in. The build
 * is stamped (`--define`, src/version.ts): commit, dirtiness, target and its
 * flags, which `caplab --version --json` prints.
 *
 * Usage: bun scripts/build.ts [--outfile PATH]
 */
import { surfaceProblems } from './check-exports.ts';
import { renderManifest } from './embed.ts';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BuildStamp } from '../src/version.ts';

const root = join(import.meta.dir, '..');

/** Worker entries under src/, each embedded beside main.ts (`new Worker` loads them, nothing imports them). */
export const WORKER_ENTRIES: readonly string[] = ['mcp/probe/output-judge-worker.ts'];

/** The JIT tier-up scale the binary starts with (see `--compile-jit-policy`). */
export const JIT_POLICY = 16;

/** The six release targets, as `bun build --target=bun-<name>` names them (scripts/release.ts builds each). */
export const RELEASE_TARGETS = ['linux-x64', 'linux-x64-baseline', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'windows-x64'] as const;
export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

/** The Bun target of the running Bun (what a build without `--target` makes): `bun-linux-x64`, `bun-darwin-arm64`, … */
export function hostTarget(): string {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  return `bun-${os}-${process.arch}`;
}

/**
 * The `bun build` flags and entries of the binary: everything but the stamp
 * and the output path. Paths are relative to the repo root (the build runs
 * there), so the flags, which the binary embeds, do not depend on where the
 * checkout lives. `target` (a release) cross-builds with that target's
 * runtime, fetched from the npm registry; without it Bun builds for itself.
 */
export function buildFlags(target?: ReleaseTarget): string[] {
  return [
    'build',
    '--compile',
    ...(target === undefined ? [] : [`--target=bun-${target}`]),
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
    'src/main.ts',
    // A worker is an entry point of its own: Bun embeds it under its path from src/ (`./mcp/…`),
    // which is how src/mcp/probe/output-judge.ts names it in the binary.
    ...WORKER_ENTRIES.map((entry) => `src/${entry}`),
  ];
}

/** The tree's commit and whether it has changes (`git status --porcelain` lists anything); nulls without git. */
export function gitState(cwd: string = root): { commit: string | null; dirty: boolean | null } {
  const run = (args: string[]) => {
    try {
      const result = Bun.spawnSync(['git', ...args], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
      return result.exitCode === 0 ? result.stdout.toString().trim() : null;
    } catch {
      return null;
    }
  };
  const commit = run(['rev-parse', 'HEAD']);
  const status = commit === null ? null : run(['status', '--porcelain']);
  return { commit, dirty: status === null ? null : status !== '' };
}

/** The stamp a build embeds (src/version.ts reads it): commit, dirtiness, target and the flags of `buildFlags`. */
export function stampFor(state: { commit: string | null; dirty: boolean | null }, target?: ReleaseTarget): BuildStamp {
  return { commit: state.commit, dirty: state.dirty, target: target === undefined ? hostTarget() : `bun-${target}`, build: buildFlags(target) };
}

/**
 * The `bun build` argument list for the binary: the stamp's flags
 * (`buildFlags`), the stamp itself as `--define CAPLAB_BUILD=<its JSON text,
 * as a JSON string>`, the output path. `npm run build`, the release and the
 * reproducibility test all build with it, so what a binary says it was built
 * with is what it was built with.
 */
export function buildArgs(outfile: string, stamp: BuildStamp): string[] {
  return [...stamp.build, '--define', `CAPLAB_BUILD=${JSON.stringify(JSON.stringify(stamp))}`, '--outfile', outfile];
}

/** Why a build cannot start: the embedded manifest is stale or package.json's exports are wrong; undefined when it can. */
export async function buildProblem(): Promise<string | undefined> {
  if (readFileSync(join(root, 'src/assets/manifest.gen.ts'), 'utf8') !== renderManifest()) {
    return 'src/assets/manifest.gen.ts is stale: run `bun scripts/embed.ts` first';
  }
  const problems = await surfaceProblems(root);
  return problems.length > 0 ? problems.map((p) => `package.json exports: ${p}`).join('\n') : undefined;
}

/** Runs `bun build` with `args` in the repo root (the Bun running this script, PATH only); returns bun's exit code and output. */
export async function runBun(args: readonly string[]): Promise<{ code: number; output: string }> {
  const child = Bun.spawn([process.execPath, ...args], { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}` };
}

/** Builds the binary for this host with the Bun running this script, stamped with the tree's git state; returns bun's exit code. */
export async function build(outfile: string = join(root, 'dist/caplab'), stamp: BuildStamp = stampFor(gitState())): Promise<{ code: number; output: string }> {
  const problem = await buildProblem();
  if (problem !== undefined) return { code: 1, output: problem };
  return runBun(buildArgs(outfile, stamp));
}

if (import.meta.main) {
  const i = process.argv.indexOf('--outfile');
  const outfile = resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : join(root, 'dist/caplab'));
  const { code, output } = await build(outfile);
  process.stderr.write(output);
  if (code === 0) process.stderr.write(`built ${outfile}\n`);
  process.exitCode = code;
}
