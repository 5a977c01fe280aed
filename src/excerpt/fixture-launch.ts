import { buildEnv, isCompiled, type Launch } from '../mcp/index.ts';

/** The name the host gives the fixture server: its tools are `mcp__caplab-fixture__<tool>` (the server's own serverInfo.name is only recorded). */
export const FIXTURE_KEY = 'caplab-fixture';

/**
 * The fixture server's allowlist: empty. Its command is absolute, it reads no
 * files and needs no locale, so any variable would only be a way to leak.
 */
export const FIXTURE_ENV_ALLOW: readonly string[] = [];

export interface FixtureLaunchOptions {
  /**
   * The arguments after the Bun executable in development: the program's
   * `serve` entry (`src/main.ts serve`). The CLI knows where the program's
   * entry is (`DEV_SERVE_ENTRY`, src/cli/tasks.ts), the task does not.
   */
  readonly devEntry: readonly string[];
  readonly compiled?: boolean;
  readonly execPath?: string;
  readonly envSource?: Readonly<Record<string, string | undefined>>;
  /** Serve over Streamable HTTP (`serve --http …`, see `FIXTURE_HTTP_ARGS`) rather than stdio. */
  readonly http?: boolean;
}

/** The variable the HTTP fixture server takes its bearer token from; the client sets it to a fresh random token per run. */
export const FIXTURE_TOKEN_ENV = 'CAPLAB_SERVE_TOKEN';

/**
 * `serve`'s arguments for the HTTP fixture server: a port the system picks
 * (its `listening` line names it), an exit once the host ends its stdin (so
 * the host's group reaping is the backstop, not the way it stops), and a
 * token from the environment (never on the command line, which every local
 * user can read).
 */
export const FIXTURE_HTTP_ARGS: readonly string[] = ['--http', '--port', '0', '--exit-on-stdin-eof', '--token-env', FIXTURE_TOKEN_ENV];

/**
 * The fixed launch of the excerpt task's fixture server: this very executable
 * with `serve` when compiled, Bun with the development entry otherwise. cwd is
 * `/`: the server reads nothing from disk, and Bun loads `.env` and
 * `bunfig.toml` from the cwd — a project directory could inject variables the
 * allowlist removed. Over HTTP the environment is the same; the client adds
 * only the token (`FIXTURE_TOKEN_ENV`).
 *
 * @example
 * fixtureLaunch({ devEntry: ['/repo/src/main.ts', 'serve'], compiled: true, execPath: '/opt/caplab' }).command; // ['/opt/caplab', 'serve']
 */
export function fixtureLaunch(options: FixtureLaunchOptions): Launch {
  const execPath = options.execPath ?? process.execPath;
  const compiled = options.compiled ?? isCompiled();
  const http = options.http ? FIXTURE_HTTP_ARGS : [];
  const command = compiled ? [execPath, 'serve', ...http] : [execPath, ...options.devEntry, ...http];
  return { command, cwd: '/', env: buildEnv(FIXTURE_ENV_ALLOW, options.envSource ?? process.env) };
}
