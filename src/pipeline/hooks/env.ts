import { buildEnv, type EnvSource } from '../../base/index.ts';

export type { EnvSource };

/**
 * The environment a command hook runs with. Built from an explicit allowlist
 * by `buildEnv`, the one builder every child of caplab gets its environment
 * from, never inherited: a hook from a settings file must not see API keys or
 * tokens the host happens to hold, and a credential-looking name on a list is
 * refused, as it is for MCP servers.
 */
export const HOOK_ENV_ALLOWLIST: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'];

/** PATH when the source has none, so `sh`, `cat`, `sed` and `grep` resolve. */
export const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Creates a hook environment.
 *
 * @param source Where allowlisted values come from (defaults to `process.env` at the call site).
 * @param projectDir Exported as `CLAUDE_PROJECT_DIR`, so Claude Code hook
 *   commands like `"$CLAUDE_PROJECT_DIR"/hooks/x.sh` work unchanged.
 * @param extra Further names to pass through (explicit, never a pattern; guarded like the list).
 * @throws When `extra` names a credential-looking variable (a programmer error).
 */
export function hookEnv(source: EnvSource, projectDir: string, extra: readonly string[] = []): Record<string, string> {
  const env = buildEnv([...HOOK_ENV_ALLOWLIST, ...extra], source);
  env['PATH'] ??= FALLBACK_PATH;
  env['CLAUDE_PROJECT_DIR'] = projectDir;
  return env;
}
