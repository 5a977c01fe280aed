/** caplab's version, printed by `--version` and recorded in every run. Keep in step with package.json (a test checks). */
export const CAPLAB_VERSION = '0.1.0';

/**
 * What a build embeds (scripts/build.ts, `bun build --define CAPLAB_BUILD=…`):
 * a JSON text, not a generated source file (which the manifest check would
 * refuse). Undefined when caplab runs from source.
 */
declare const CAPLAB_BUILD: string | undefined;

/** The build's facts, fixed at build time. */
export interface BuildStamp {
  /** `git rev-parse HEAD` of the tree built, or null without git. */
  readonly commit: string | null;
  /** Whether `git status --porcelain` listed anything then (null without git). */
  readonly dirty: boolean | null;
  /** The Bun target built for (`bun-linux-x64`, …). */
  readonly target: string;
  /** The `bun build` arguments, but the stamp and the output path (scripts/build.ts `buildFlags`). */
  readonly build: readonly string[];
}

/** `caplab --version --json`, keys in this order. */
export interface VersionInfo {
  readonly version: string;
  readonly commit: string | null;
  readonly dirty: boolean | null;
  /** The Bun running caplab (read at run time: the runtime embedded in a binary). */
  readonly bun: string;
  readonly target: string | null;
  readonly platform: string;
  readonly arch: string;
  /** The build's `bun build` arguments; null from source. */
  readonly build: readonly string[] | null;
}

/** The stamp a build embedded, or undefined from source. */
export function embeddedStamp(): BuildStamp | undefined {
  return typeof CAPLAB_BUILD === 'string' ? (JSON.parse(CAPLAB_BUILD) as BuildStamp) : undefined;
}

/** One line of a git command's stdout in `cwd`, or null when git is absent or fails (not a checkout). */
function git(args: readonly string[], cwd: string): string | null {
  try {
    const result = Bun.spawnSync(['git', ...args], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
    return result.exitCode === 0 ? result.stdout.toString().trim() : null;
  } catch {
    return null;
  }
}

/**
 * The version document. A build answers from its stamp and spawns nothing;
 * from source the commit and dirtiness come from git in the checkout this
 * file is in (two `git` runs, only when asked: plain `--version` never calls this).
 */
export function versionInfo(): VersionInfo {
  const stamp = embeddedStamp();
  const runtime = { bun: Bun.version, platform: process.platform, arch: process.arch };
  if (stamp !== undefined) return { version: CAPLAB_VERSION, commit: stamp.commit, dirty: stamp.dirty, bun: runtime.bun, target: stamp.target, platform: runtime.platform, arch: runtime.arch, build: stamp.build };
  const checkout = `${import.meta.dir}/..`;
  const commit = git(['rev-parse', 'HEAD'], checkout);
  const status = commit === null ? null : git(['status', '--porcelain'], checkout);
  return { version: CAPLAB_VERSION, commit, dirty: status === null ? null : status !== '', bun: runtime.bun, target: null, platform: runtime.platform, arch: runtime.arch, build: null };
}
