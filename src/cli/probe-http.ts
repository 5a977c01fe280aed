/**
 * What `caplab probe` connects to over HTTP, checked before anything
 * connects: `--url URL` with its `--header-env NAME=VAR` headers (each
 * value read from the caller's environment, as is), or an http entry of a
 * `.mcp.json` (checked when the file was read). Each comes with the
 * redactor of its header values and the variables they were read from.
 */
import { fail, ok, redactorFor, type Outcome, type Redactor } from '../contract/index.ts';
import { httpTarget, type HttpConfigEntry, type HttpTarget } from '../mcp/index.ts';
import type { ProbeFlags } from './probe-command.ts';

/** An HTTP target ready to probe, and what redacts its secrets. */
export interface PreparedHttp {
  readonly target: HttpTarget;
  readonly redactor: Redactor;
}

/**
 * The headers `--header-env` names, each with its variable's value from
 * `source` (unset or empty: a usage failure naming it), and the values by
 * variable for redaction; `httpTarget`'s checks are the caller's.
 */
export function headersFromEnv(headerEnv: ProbeFlags['headerEnv'], source: Readonly<Record<string, string | undefined>>): Outcome<{ readonly headers: Readonly<Record<string, string>>; readonly read: Readonly<Record<string, string>> }> {
  const headers: Record<string, string> = {};
  const read: Record<string, string> = {};
  for (const { name, variable } of headerEnv) {
    const value = source[variable];
    if (value === undefined || value === '') return fail('invalid_arguments', 'unset_variable', `--header-env ${name}=${variable}: ${variable} is not set`);
    headers[name] = value;
    read[variable] = value;
  }
  return ok({ headers, read });
}

/** `--url URL [--header-env NAME=VAR]…`: the headers from `source`, the target checked by `httpTarget`; its redactor holds each value by header name and by variable. */
export function urlTarget(url: string, headerEnv: ProbeFlags['headerEnv'], source: Readonly<Record<string, string | undefined>>): Outcome<PreparedHttp> {
  const headers = headersFromEnv(headerEnv, source);
  if (!headers.ok) return headers;
  const target = httpTarget(url, headers.value.headers);
  if (!target.ok) return { ...target, message: `--url: ${target.message}` };
  return ok({ target: target.value, redactor: redactorFor({ ...headers.value.read, ...target.value.headers }) });
}

/** `--server NAME` naming an http entry: flags that shape a spawned server are a usage error; its redactor holds what the entry expanded and its header values. */
export function entryTarget(entry: HttpConfigEntry, flags: Pick<ProbeFlags, 'cwd' | 'env' | 'envAllow'>): Outcome<PreparedHttp> {
  const spawnOnly = [...(flags.cwd !== undefined ? ['--cwd'] : []), ...(Object.keys(flags.env).length > 0 ? ['--env'] : []), ...(flags.envAllow.length > 0 ? ['--env-allow'] : [])];
  if (spawnOnly.length > 0) return fail('invalid_arguments', 'bad_flag', `${spawnOnly.join(', ')} shape a spawned server; server "${entry.name}" is an http entry (no environment or cwd of probe's)`);
  return ok({ target: entry, redactor: redactorFor({ ...entry.expanded, ...entry.headers }) });
}
