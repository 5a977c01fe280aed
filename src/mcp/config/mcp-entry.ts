import { dirname } from 'node:path';
import * as v from 'valibot';
import { fail, type Failure } from '../../contract/index.ts';
import { expandVars } from './expand-vars.ts';
import { checkCredentialReference, httpTarget, type HttpTarget } from './http-target.ts';

/** An environment variable name a server can be given (`--env`, an entry's `env`): a POSIX shell name, so `A=B` or `` is refused. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_NAME_RULE = '[A-Za-z_][A-Za-z0-9_]*';

/** A stdio server of a `.mcp.json`: raw (`${VAR}` unexpanded, for display) and expanded (to start). */
export interface StdioConfigEntry {
  readonly kind: 'stdio';
  /** The entry's name in `mcpServers`: the key the host gives the server. */
  readonly name: string;
  /** `command` and `args` as written, `${VAR}` unexpanded. */
  readonly raw: readonly string[];
  /** `command` and `args` expanded; relative paths still relative (see `entryArgv`). */
  readonly command: readonly string[];
  /** The config file's folder: what the entry's relative paths resolve against (`entryArgv`), never the caller's cwd. */
  readonly folder: string;
  /** The entry's `env`, expanded: names the user chose, passed as given. */
  readonly env: Readonly<Record<string, string>>;
  /** The variables expansion read from the caller's environment, for redaction. */
  readonly expanded: Readonly<Record<string, string>>;
}

/**
 * A Streamable HTTP server of a `.mcp.json` (`{ "type": "http", "url",
 * "headers" }`), checked by `httpTarget`'s rules: its URL as written (for
 * display) and as connected to, its headers expanded — secrets: a caller
 * redacts them (`headers`' values and `expanded`) and records only `headerNames`.
 */
export interface HttpConfigEntry extends HttpTarget {
  readonly kind: 'http';
  readonly name: string;
  /** `url` as written, `${VAR}` unexpanded. */
  readonly rawUrl: string;
  /** The variables expansion read from the caller's environment (URL and headers), for redaction. */
  readonly expanded: Readonly<Record<string, string>>;
}

/** An entry of another transport (`sse`, `ws`, …): kept, with its type, for a caller to name; not parsed further. */
export interface UnsupportedConfigEntry {
  readonly kind: 'unsupported';
  readonly name: string;
  readonly type: string;
}

/** An entry that cannot be started as written: why, as the failure a caller choosing it returns. */
export interface InvalidConfigEntry {
  readonly kind: 'invalid';
  readonly name: string;
  readonly failure: Failure;
}

export type McpConfigEntry = StdioConfigEntry | HttpConfigEntry | UnsupportedConfigEntry | InvalidConfigEntry;

/** The stdio entry's fields as Claude Code writes them; each message names what is wrong as `caplab probe` prints it. */
function stdioSchema(name: string) {
  const noCommand = `server "${name}" has no "command" string`;
  const badArgs = '"args" must be an array of strings';
  const badEnv = '"env" must map names to strings';
  const badName = (env: Readonly<Record<string, string>>): string | undefined => Object.keys(env).find((key) => !ENV_NAME.test(key));
  return v.object(
    {
      type: v.optional(v.literal('stdio')),
      command: v.pipe(v.string(noCommand), v.nonEmpty(noCommand)),
      args: v.optional(v.array(v.string(badArgs), badArgs), []),
      env: v.optional(
        v.pipe(
          // valibot's record takes an array as an object keyed "0", "1", …
          v.custom<unknown>((input) => !Array.isArray(input), badEnv),
          v.record(v.string(), v.string(badEnv), badEnv),
          v.check((env) => badName(env) === undefined, (issue) => `server "${name}": env name ${JSON.stringify(badName(issue.input))} is not ${ENV_NAME_RULE}`),
        ),
        {},
      ),
    },
    // valibot reports a missing key with the object's message: the missing `command` gets its own.
    (issue) => (issue.expected === '"command"' ? noCommand : `server "${name}" is not an object`),
  );
}

/** The HTTP entry's fields as Claude Code writes them; any other key is left alone, as in a stdio entry. */
function httpSchema(name: string) {
  const noUrl = `server "${name}" has no "url" string`;
  const badHeaders = '"headers" must map names to strings';
  return v.object(
    {
      type: v.literal('http'),
      url: v.pipe(v.string(noUrl), v.nonEmpty(noUrl)),
      headers: v.optional(v.pipe(v.custom<unknown>((input) => !Array.isArray(input), badHeaders), v.record(v.string(), v.string(badHeaders), badHeaders)), {}),
    },
    (issue) => (issue.expected === '"url"' ? noUrl : `server "${name}" is not an object`),
  );
}

/**
 * Reads an HTTP entry: `${VAR}` expanded in its URL and header values (an
 * unset one is `unset_variable`), `Authorization` only as a reference to the
 * environment, then `httpTarget`'s checks; each failure names `path` and the entry.
 */
function readHttpEntry(path: string, name: string, entry: unknown, source: Readonly<Record<string, string | undefined>>): HttpConfigEntry | InvalidConfigEntry {
  const invalid = (failure: Failure): InvalidConfigEntry => ({ kind: 'invalid', name, failure: { ...failure, message: `${path}: server "${name}": ${failure.message}` } });
  const parsed = v.safeParse(httpSchema(name), entry, { abortEarly: true });
  if (!parsed.success) return { kind: 'invalid', name, failure: fail('invalid_arguments', 'malformed_config', `${path}: ${parsed.issues[0].message}`) };
  const used: Record<string, string> = {};
  const url = expandVars(parsed.output.url, source, used);
  if (!url.ok) return invalid({ ...url, message: `url: ${url.message}` });
  const headers: Record<string, string> = {};
  for (const [header, raw] of Object.entries(parsed.output.headers)) {
    const literal = checkCredentialReference(header, raw);
    if (literal) return invalid(literal);
    const value = expandVars(raw, source, used);
    if (!value.ok) return invalid({ ...value, message: `header ${header}: ${value.message}` });
    headers[header] = value.value;
  }
  const target = httpTarget(url.value, headers);
  if (!target.ok) return invalid(target);
  return { kind: 'http', name, rawUrl: parsed.output.url, ...target.value, expanded: used };
}

/**
 * Reads one `mcpServers` entry: a stdio server (no `type`, or `"stdio"`)
 * or an HTTP one (`"http"`) fully, `${VAR}` and `${VAR:-default}` expanded
 * from `source`; another type kept as unsupported; anything else invalid,
 * its failure naming `path` and the entry.
 */
export function readEntry(path: string, name: string, entry: unknown, source: Readonly<Record<string, string | undefined>>): McpConfigEntry {
  const invalid = (failure: Failure): InvalidConfigEntry => ({ kind: 'invalid', name, failure });
  const malformed = (message: string): InvalidConfigEntry => invalid(fail('invalid_arguments', 'malformed_config', `${path}: ${message}`));
  const type = entry !== null && typeof entry === 'object' ? (entry as { type?: unknown }).type : undefined;
  if (type === 'http') return readHttpEntry(path, name, entry, source);
  if (type !== undefined && type !== 'stdio') {
    return typeof type === 'string' ? { kind: 'unsupported', name, type } : malformed(`server "${name}": "type" must be a string`);
  }
  const parsed = v.safeParse(stdioSchema(name), entry, { abortEarly: true });
  if (!parsed.success) return malformed(parsed.issues[0].message);
  const { command, args, env } = parsed.output;
  const used: Record<string, string> = {};
  const raw = [command, ...args];
  const expanded: string[] = [];
  for (const part of raw) {
    const value = expandVars(part, source, used);
    // An expansion's own failure (unset_variable), its message naming the file and the entry.
    if (!value.ok) return invalid({ ...value, message: `${path}: server "${name}": ${value.message}` });
    expanded.push(value.value);
  }
  // `${BIN:-}` can expand to nothing: there is no program to start.
  if (expanded[0] === '') return malformed(`server "${name}": "command" expands to an empty string`);
  const serverEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const expandedValue = expandVars(value, source, used);
    if (!expandedValue.ok) return invalid({ ...expandedValue, message: `${path}: server "${name}": env ${key}: ${expandedValue.message}` });
    serverEnv[key] = expandedValue.value;
  }
  return { kind: 'stdio', name, raw, command: expanded, folder: dirname(path), env: serverEnv, expanded: used };
}
