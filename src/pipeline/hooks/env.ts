/**
 * The environment a command hook runs with. Built from an explicit
 * allowlist, never inherited: `Bun.spawn` passes all of `process.env` unless
 * given `env`, and a hook from a settings file must not see API keys or
 * tokens the host happens to hold.
 */
export const HOOK_ENV_ALLOWLIST: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'];

/** PATH when the source has none, so `sh`, `cat`, `sed` and `grep` resolve. */
export const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * Creates a hook environment.
 *
 * @param source Where allowlisted values come from (defaults to `process.env` at the call site).
 * @param projectDir Exported as `CLAUDE_PROJECT_DIR`, so Claude Code hook
 *   commands like `"$CLAUDE_PROJECT_DIR"/hooks/x.sh` work unchanged.
 * @param extra Further names to pass through (explicit, never a pattern).
 */
export function hookEnv(source: EnvSource, projectDir: string, extra: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...HOOK_ENV_ALLOWLIST, ...extra]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  env['PATH'] ??= FALLBACK_PATH;
  env['CLAUDE_PROJECT_DIR'] = projectDir;
  return env;
}
