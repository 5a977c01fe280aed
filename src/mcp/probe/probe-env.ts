import { buildEnv } from '../../base/index.ts';

/**
 * The probe allowlist: what a typical third-party server needs to find its
 * interpreter and a temp dir. Credentials are never on it.
 */
export const PROBE_ENV_ALLOW: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR'];

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
