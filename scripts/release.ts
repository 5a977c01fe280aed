/**
 * `npm run release`: dist/release/caplab-<os>-<arch>[.exe] for the six
 * targets (scripts/build.ts `RELEASE_TARGETS`), each built with
 * `--target=bun-<target>` (the pinned Bun's runtime for it, fetched from the
 * npm registry) on `buildArgs`, straight to its final name (the name is part
 * of the bytes), then `SHA256SUMS` and `release.json` (scripts/release/manifest.ts).
 *
 * It refuses a tree with changes (a release is of a commit), writes no
 * `.map` file, and when a target cannot be built (its runtime cannot be
 * fetched) it fails naming that target and writes no `SHA256SUMS`. Each file's
 * header is checked against its target; the files this machine can run are
 * run (test/binary.test.ts with `CAPLAB_BIN`; linux-arm64's demo under
 * qemu-aarch64-static when it is installed), and `ran_here` says what ran.
 *
 * Usage: bun scripts/release.ts [--target NAME]
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildArgs, buildFlags, buildProblem, gitState, RELEASE_TARGETS, runBun, stampFor, type ReleaseTarget } from './build.ts';
import { headerProblem } from './release/headers.ts';
import { allPassed, manifestOf, sumsText, type BuiltFile, type CheckRun } from './release/manifest.ts';
import { hostChecks } from './release/checks.ts';
import { CAPLAB_VERSION } from '../src/version.ts';

const root = join(import.meta.dir, '..');

/** The file name of a target's binary. */
export function fileName(target: ReleaseTarget): string {
  return `caplab-${target}${target.startsWith('windows-') ? '.exe' : ''}`;
}

/** The targets a command line asks for: all six, or the one `--target NAME` names. */
export function parseReleaseArgs(argv: readonly string[]): { ok: true; targets: readonly ReleaseTarget[] } | { ok: false; message: string } {
  if (argv.length === 0) return { ok: true, targets: RELEASE_TARGETS };
  const [flag, name, ...rest] = argv;
  const named = RELEASE_TARGETS.find((t) => t === name);
  if (flag !== '--target' || rest.length > 0) return { ok: false, message: `usage: bun scripts/release.ts [--target NAME], got ${JSON.stringify(argv.join(' '))}` };
  if (named === undefined) return { ok: false, message: `--target takes one of ${RELEASE_TARGETS.join(', ')}; got ${JSON.stringify(name ?? '')}` };
  return { ok: true, targets: [named] };
}

/** What a release needs from the world: git, a build, the checks (the tests give their own). */
export interface ReleaseDeps {
  readonly outDir: string;
  gitState(): { commit: string | null; dirty: boolean | null };
  /** Builds `target` to `outfile` (its folder exists); bun's exit code and output. */
  build(target: ReleaseTarget, outfile: string, state: { commit: string; dirty: boolean }): Promise<{ code: number; output: string }>;
  /** The checks this machine runs on a built file, beyond its header. */
  checks(target: ReleaseTarget, file: string): Promise<readonly CheckRun[]>;
  readonly bun: string;
  readonly lockfileSha256: string;
  log(line: string): void;
}

export type ReleaseResult = { ok: true; files: readonly BuiltFile[]; passed: boolean } | { ok: false; message: string };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function headOf(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(4096);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Builds one target in a folder of its own (the .map files stay there), moves the binary out and removes the folder. */
async function buildOne(target: ReleaseTarget, deps: ReleaseDeps, state: { commit: string; dirty: boolean }): Promise<BuiltFile | string> {
  const name = fileName(target);
  const stage = join(deps.outDir, `.stage-${target}`);
  mkdirSync(stage);
  try {
    const built = await deps.build(target, join(stage, name), state);
    if (built.code !== 0) {
      const tail = built.output.trim().split('\n').slice(-3).join(' | ');
      return `${target}: bun build --target=bun-${target} failed (exit ${built.code}; its runtime is fetched from the npm registry, which must be reachable): ${tail}`;
    }
    renameSync(join(stage, name), join(deps.outDir, name));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  const path = join(deps.outDir, name);
  const problem = headerProblem(headOf(path), target);
  if (problem !== undefined) return `${name}: header check failed: ${problem}`;
  const bytes = readFileSync(path);
  return { name, target, bytes: statSync(path).size, sha256: sha256(bytes), build: buildFlags(target) };
}

/** The release: refuses a changed tree, builds every target (stopping at the first that fails), runs the checks, writes the sums and the manifest. */
export async function release(targets: readonly ReleaseTarget[], deps: ReleaseDeps): Promise<ReleaseResult> {
  const state = deps.gitState();
  if (state.commit === null || state.dirty === null) return { ok: false, message: 'not a git checkout (git rev-parse HEAD failed): a release is built from a commit' };
  if (state.dirty) return { ok: false, message: 'the tree has changes (git status --porcelain lists some): commit or stash them; a release is built from a commit' };
  const clean = { commit: state.commit, dirty: false };
  rmSync(deps.outDir, { recursive: true, force: true });
  mkdirSync(deps.outDir, { recursive: true });
  const files: BuiltFile[] = [];
  for (const target of targets) {
    deps.log(`building ${fileName(target)}`);
    const built = await buildOne(target, deps, clean);
    if (typeof built === 'string') return { ok: false, message: built };
    files.push(built);
  }
  const checks = new Map<string, readonly CheckRun[]>();
  for (const file of files) {
    deps.log(`checking ${file.name}`);
    const header: CheckRun = { check: 'header', outcome: 'passed', detail: `${file.target} header (format and machine) read from the file` };
    checks.set(file.name, [header, ...(await deps.checks(file.target, join(deps.outDir, file.name)))]);
  }
  writeFileSync(join(deps.outDir, 'SHA256SUMS'), sumsText(files));
  const manifest = manifestOf({ version: CAPLAB_VERSION, commit: clean.commit, bun: deps.bun, lockfileSha256: deps.lockfileSha256 }, files, checks);
  writeFileSync(join(deps.outDir, 'release.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { ok: true, files, passed: allPassed(checks) };
}

/** The real world: git in the repo root, `bun build` with `buildArgs`, this machine's checks. */
export function realDeps(): ReleaseDeps {
  return {
    outDir: join(root, 'dist/release'),
    gitState: () => gitState(root),
    build: (target, outfile, state) => runBun(buildArgs(outfile, stampFor(state, target))),
    checks: (target, file) => hostChecks(target, file, root),
    bun: Bun.version,
    lockfileSha256: sha256(readFileSync(join(root, 'package-lock.json'))),
    log: (line) => void process.stderr.write(`release: ${line}\n`),
  };
}

if (import.meta.main) {
  const parsed = parseReleaseArgs(process.argv.slice(2));
  const problem = parsed.ok ? await buildProblem() : parsed.message;
  if (!parsed.ok || problem !== undefined) {
    process.stderr.write(`release: ${parsed.ok ? problem : parsed.message}\n`);
    process.exit(parsed.ok ? 1 : 2);
  }
  const result = await release(parsed.targets, realDeps());
  if (!result.ok) {
    process.stderr.write(`release: ${result.message}\n`);
    process.exit(1);
  }
  process.stdout.write(readFileSync(join(root, 'dist/release/SHA256SUMS'), 'utf8'));
  if (!result.passed) process.stderr.write('release: a check failed on this machine (see release.json ran_here)\n');
  process.exitCode = result.passed ? 0 : 1;
}
