/**
 * Child environments, built from an allowlist and never inherited: `Bun.spawn`
 * passes all of `process.env` unless given `env`. One guard for every child
 * caplab starts (MCP servers and command hooks): a name that looks like a
 * credential or a loader hook is refused even when a list names it, so a
 * list's typo cannot leak a secret.
 */

export type EnvSource = Readonly<Record<string, string | undefined>>;

const FORBIDDEN_ENV = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(_|$)|^AWS_|^NODE_OPTIONS$|^LD_|^DYLD_|^BUN_OPTIONS$/i;

/** Whether a variable name may ever be passed to a child from an allowlist. */
export function envNameAllowed(name: string): boolean {
  return !FORBIDDEN_ENV.test(name);
}

/**
 * Builds a child environment from an allowlist.
 *
 * @param allow Variable names to copy from `source` when present.
 * @param source The environment to copy from (injectable; defaults to `process.env`).
 * @param fixed Variables the host sets itself.
 * @returns A fresh object holding only allowed names.
 * @throws When `allow` or `fixed` names a guarded variable (a programmer error).
 */
export function buildEnv(allow: readonly string[], source: EnvSource = process.env, fixed: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...allow, ...Object.keys(fixed)]) {
    if (!envNameAllowed(name)) throw new Error(`environment variable ${name} looks like a credential or loader hook`);
  }
  for (const name of allow) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return Object.assign(env, fixed);
}
