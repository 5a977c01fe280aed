import { fail, ok, type Outcome } from '../../contract/index.ts';

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code does in a
 * `.mcp.json`; a variable that is unset (or empty) and has no default is an
 * error: the entry cannot be started as written. Each value read from
 * `source` is added to `used`, so the caller can redact it.
 *
 * @example
 * expandVars('--token=${TOKEN}', { TOKEN: 't0k' }, used); // ok('--token=t0k'), used.TOKEN === 't0k'
 */
export function expandVars(text: string, source: Readonly<Record<string, string | undefined>>, used: Record<string, string>): Outcome<string> {
  let missing: string | undefined;
  const out = text.replace(VAR, (_match, name: string, fallback: string | undefined) => {
    const value = source[name];
    if (value !== undefined && value !== '') {
      used[name] = value;
      return value;
    }
    if (fallback !== undefined) return fallback;
    missing ??= name;
    return '';
  });
  return missing === undefined ? ok(out) : fail('invalid_arguments', 'unset_variable', `\${${missing}} is not set and has no default`);
}
