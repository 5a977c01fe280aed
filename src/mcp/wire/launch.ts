import { buildEnv } from '../../base/index.ts';

/**
 * The launch object: everything that decides what process the host starts.
 * Fixed data, recorded in the binding; never chosen by the model.
 */
export interface Launch {
  /** argv; `command[0]` is an absolute path, so PATH is never consulted. */
  readonly command: readonly string[];
  readonly cwd: string;
  /** The complete child environment. Nothing else is inherited; every value is redacted from the server's stderr as caplab records or prints it. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * What a binding records of a launch: argv, cwd and the environment's
 * variable names (sorted). Values stay out: they may be secrets, and a
 * record is shared.
 */
export function launchIdentity(launch: Launch): { readonly launch: readonly string[]; readonly cwd: string; readonly envNames: readonly string[] } {
  return { launch: [...launch.command], cwd: launch.cwd, envNames: Object.keys(launch.env).sort() };
}

// Env building and its credential-name guard have one home, shared with command hooks.
export { buildEnv, envNameAllowed } from '../../base/index.ts';

/**
 * The fixture server's allowlist: empty. Its command is absolute, it reads no
 * files and needs no locale, so any variable would only be a way to leak.
 */
export const FIXTURE_ENV_ALLOW: readonly string[] = [];

/**
 * The probe allowlist: what a typical third-party server needs to find its
 * interpreter and a temp dir. Credentials are never on it.
 */
export const PROBE_ENV_ALLOW: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR'];

/**
 * Whether this process is a `bun build --compile` executable: its main module
 * lives in Bun's embedded filesystem (`/$bunfs/…`, `B:\~BUN\…` on Windows).
 */
export function isCompiled(main: string = Bun.main): boolean {
  return main.startsWith('/$bunfs/') || main.includes('~BUN');
}

/**
 * The development entry that serves the fixture: `src/main.ts serve`, the
 * same entry and the same `serve()` the compiled binary runs with `serve`.
 */
export const DEV_SERVE_ENTRY: readonly string[] = [new URL('../../main.ts', import.meta.url).pathname, 'serve'];

export interface DefaultLaunchOptions {
  /** Arguments after the Bun executable in development (default `DEV_SERVE_ENTRY`). */
  readonly devEntry?: readonly string[];
  readonly compiled?: boolean;
  readonly execPath?: string;
  readonly envSource?: Readonly<Record<string, string | undefined>>;
}

/**
 * The fixed launch of the fixture server: this very executable with `serve`
 * when compiled, Bun with the source entry in development. cwd is `/`: the
 * server reads nothing from disk, and Bun loads `.env` and `bunfig.toml` from
 * the cwd — a project directory could inject variables the allowlist removed.
 */
export function fixtureLaunch(options: DefaultLaunchOptions = {}): Launch {
  const execPath = options.execPath ?? process.execPath;
  const compiled = options.compiled ?? isCompiled();
  const command = compiled ? [execPath, 'serve'] : [execPath, ...(options.devEntry ?? DEV_SERVE_ENTRY)];
  return { command, cwd: '/', env: buildEnv(FIXTURE_ENV_ALLOW, options.envSource ?? process.env) };
}

/**
 * The probe's server environment: the probe allowlist (guarded like every
 * allowlist), then what the user named — `--env-allow NAME` copied from
 * `source`, `--env K=V` and a config entry's `env` set as given. A name the
 * user wrote passes even when it looks like a credential: the guard is
 * there to catch a list's mistake, not to overrule a person's choice.
 */
export function probeEnv(
  source: Readonly<Record<string, string | undefined>>,
  userAllow: readonly string[] = [],
  userSet: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env = buildEnv(PROBE_ENV_ALLOW, source);
  for (const name of userAllow) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return Object.assign(env, userSet);
}
