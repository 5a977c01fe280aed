/**
 * `caplab serve` with flags: `--http` and its options (plain `serve`, no
 * argument, is the stdio server and never loads this file). The token comes
 * only from the environment (`--token-env NAME`), so it is never on a
 * command line that `ps` shows.
 */
import { parseArgs } from 'node:util';
import { fail, ok, type Outcome } from '../contract/index.ts';
import type { HttpServeOptions } from '../mcp/index.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import { repeatedFlag } from './flags.ts';
import type { Io } from './io.ts';
import { serveHttpTask } from './tasks.ts';

const SERVE_OPTIONS = {
  http: { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'token-env': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'exit-on-stdin-eof': { type: 'boolean' },
} as const;

const badFlag = (message: string): Outcome<never> => fail('invalid_arguments', 'bad_flag', message);

/** Whether a value is an origin as `--allow-origin` takes it: `scheme://host[:port]`, nothing after it but an optional `/`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.origin !== 'null' && value.replace(/\/$/, '').toLowerCase() === url.origin.toLowerCase();
  } catch {
    return false;
  }
}

/** The port: decimal digits, 0 (the system picks) to 65535. */
function port(value: string | undefined): number | undefined {
  if (value === undefined) return 0;
  return /^\d{1,5}$/.test(value) && Number(value) <= 65_535 ? Number(value) : undefined;
}

/** Parses serve's flags (`--http` and its options) against the environment `--token-env` names. */
export function parseServeFlags(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Outcome<HttpServeOptions> {
  let values: { http?: boolean; host?: string; port?: string; 'token-env'?: string; 'allow-origin'?: string[]; 'exit-on-stdin-eof'?: boolean };
  try {
    const parsed = parseArgs({ args: [...args], options: SERVE_OPTIONS, strict: true, allowPositionals: true });
    if (parsed.positionals.length > 0) return badFlag(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
    values = parsed.values;
  } catch (error) {
    return badFlag((error as Error).message);
  }
  const repeated = repeatedFlag(args, SERVE_OPTIONS);
  if (repeated) return badFlag(repeated);
  if (!values.http) return badFlag(`${args[0]} needs --http (plain \`caplab serve\` takes no argument)`);
  const chosen = port(values.port);
  if (chosen === undefined) return badFlag(`--port takes a number from 0 (the system picks) to 65535, got ${JSON.stringify(values.port)}`);
  const host = values.host ?? '127.0.0.1';
  if (host === '') return badFlag('--host needs an address (default 127.0.0.1)');
  const badOrigin = (values['allow-origin'] ?? []).find((origin) => !isOrigin(origin));
  if (badOrigin !== undefined) return badFlag(`--allow-origin takes an origin (scheme://host[:port]), got ${JSON.stringify(badOrigin)}`);
  const tokenEnv = values['token-env'];
  const token = tokenEnv === undefined ? undefined : env[tokenEnv];
  if (tokenEnv !== undefined && (token === undefined || token === '')) return badFlag(`--token-env ${tokenEnv}: that variable is ${token === undefined ? 'not set' : 'empty'}`);
  return ok({ host, port: chosen, token, allowOrigins: values['allow-origin'] ?? [], exitOnStdinEof: values['exit-on-stdin-eof'] === true });
}

/**
 * `caplab serve --http`: the task's fixture server until SIGINT/SIGTERM
 * (main.ts turns them into `io.interrupt` for it: 130/143; a second one into
 * `io.forceStop`, which ends the stop's grace at once, same code) or, with
 * `--exit-on-stdin-eof`, stdin's end (0); 3 when it cannot listen.
 */
export async function serveHttpCommand(options: HttpServeOptions, io: Io): Promise<number> {
  const code = await serveHttpTask(options, {
    stdout: io.stdout,
    stderr: io.stderr,
    ...(options.exitOnStdinEof && io.streams ? { stdin: io.streams.stdin } : {}),
    ...(io.interrupt ? { stop: io.interrupt } : {}),
    ...(io.forceStop ? { force: io.forceStop } : {}),
  });
  // A stop by signal is that signal's code (the server said why on stderr already).
  return code === EXIT.ok && io.interrupt?.aborted ? exitCodeOf(interrupted(io.interrupt)) : code;
}
