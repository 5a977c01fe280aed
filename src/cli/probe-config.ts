import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fail, LIMITS, ok, readBoundedText, type Outcome } from '../contract/index.ts';

/** The project file probe reads only with --trust (like ./.caplab/settings.json for run). */
export const PROJECT_MCP_CONFIG = '.mcp.json';

/** One stdio server from a Claude Code `.mcp.json`: raw (`${VAR}` unexpanded, for display) and expanded (to start). */
export interface ConfigServer {
  readonly path: string;
  readonly raw: readonly string[];
  readonly command: readonly string[];
  /** The entry's `env`, expanded: names the user chose, passed as given. */
  readonly env: Readonly<Record<string, string>>;
  /** The variables expansion read from the caller's environment, for redaction. */
  readonly expanded: Readonly<Record<string, string>>;
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** An environment variable name a server can be given (`--env`, an entry's `env`): a POSIX shell name, so `A=B` or `` is refused. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_NAME_RULE = '[A-Za-z_][A-Za-z0-9_]*';

/**
 * Expands `${VAR}` and `${VAR:-default}` as Claude Code does; a variable that
 * is unset and has no default is an error (the entry cannot be started as written).
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

/**
 * Whether two paths name one file: the same device and inode, so a symlink or
 * a hard link to the project file is the project file. A path that cannot be
 * read is compared as a path.
 */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return resolve(a) === resolve(b);
  }
}

/**
 * Loads one server entry. `file` undefined means the project file in `cwd`.
 * The project file — found, or named and resolving to it — is used only
 * with `trust`; any other named file is used as named.
 */
export function loadConfigServer(
  file: string | undefined,
  server: string,
  trust: boolean,
  cwd: string,
  source: Readonly<Record<string, string | undefined>>,
): Outcome<ConfigServer> {
  const project = resolve(cwd, PROJECT_MCP_CONFIG);
  const path = file === undefined ? project : resolve(cwd, file);
  if (!trust && sameFile(path, project)) {
    return fail('permission_denied', 'untrusted_project', `${path} is the project's own .mcp.json; it can start any program, so it is used only with --trust (caplab host rule)`);
  }
  const text = readBoundedText(path, LIMITS.settingsBytes);
  if (!text.ok) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.value);
  } catch (error) {
    return fail('invalid_arguments', 'malformed_config', `${path}: not JSON (${(error as Error).message})`);
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return fail('invalid_arguments', 'malformed_config', `${path}: no "mcpServers" object`);
  const entry = (servers as Record<string, unknown>)[server];
  if (entry === undefined) return fail('invalid_arguments', 'unknown_server', `${path}: no server "${server}" (has: ${Object.keys(servers).join(', ') || 'none'})`);
  if (entry === null || typeof entry !== 'object') return fail('invalid_arguments', 'malformed_config', `${path}: server "${server}" is not an object`);
  const { type, command, args = [], env = {} } = entry as { type?: unknown; command?: unknown; args?: unknown; env?: unknown };
  if (type !== undefined && type !== 'stdio') return fail('invalid_arguments', 'unsupported_transport', `${path}: server "${server}" has type ${JSON.stringify(type)}; probe speaks stdio only`);
  if (typeof command !== 'string' || command === '') return fail('invalid_arguments', 'malformed_config', `${path}: server "${server}" has no "command" string`);
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return fail('invalid_arguments', 'malformed_config', `${path}: "args" must be an array of strings`);
  if (env === null || typeof env !== 'object' || Array.isArray(env) || !Object.values(env).every((v) => typeof v === 'string')) {
    return fail('invalid_arguments', 'malformed_config', `${path}: "env" must map names to strings`);
  }
  const badName = Object.keys(env).find((name) => !ENV_NAME.test(name));
  if (badName !== undefined) return fail('invalid_arguments', 'malformed_config', `${path}: server "${server}": env name ${JSON.stringify(badName)} is not ${ENV_NAME_RULE}`);
  const used: Record<string, string> = {};
  const raw = [command, ...(args as string[])];
  const expanded: string[] = [];
  for (const part of raw) {
    const value = expandVars(part, source, used);
    if (!value.ok) return { ...value, message: `${path}: server "${server}": ${value.message}` };
    expanded.push(value.value);
  }
  const serverEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env as Record<string, string>)) {
    const expandedValue = expandVars(value, source, used);
    if (!expandedValue.ok) return { ...expandedValue, message: `${path}: server "${server}": env ${name}: ${expandedValue.message}` };
    serverEnv[name] = expandedValue.value;
  }
  return ok({ path, raw, command: expanded, env: serverEnv, expanded: used });
}
