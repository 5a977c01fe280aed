import { fail, ok, type Failure, type Outcome } from '../contract/index.ts';

/** The flags `run`, `check` and `tools` take for users' MCP servers, as parseArgs options. */
export const SERVER_OPTIONS = {
  'mcp-config': { type: 'string' },
  'require-server': { type: 'string', multiple: true },
  'startup-timeout-ms': { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

/** How long a configured server may take to start and list its tools, as probe allows (`--startup-timeout-ms`). */
export const DEFAULT_STARTUP_MS = 120_000;
/** How long one request to a configured server may take (`--timeout-ms`). */
export const DEFAULT_REQUEST_MS = 10_000;

/** Users' servers for a command: the config file, the keys that must start, and the waits. */
export interface ServerFlags {
  /** `--mcp-config FILE` as given (relative to the caller's cwd); absent: no configured servers. */
  readonly mcpConfig?: string;
  /** `--require-server KEY`, repeatable: a key that does not start stops the command (exit 3). */
  readonly requireServers: readonly string[];
  readonly startupTimeoutMs: number;
  readonly timeoutMs: number;
}

type Values = { readonly [K in keyof typeof SERVER_OPTIONS]?: (typeof SERVER_OPTIONS)[K] extends { multiple: true } ? string[] : string };

const bad = (message: string): Failure => fail('invalid_arguments', 'bad_flag', message);

function millis(name: string, value: string | undefined, fallback: number): Outcome<number> {
  if (value === undefined) return ok(fallback);
  const ms = /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(ms) && ms >= 1 ? ok(ms) : bad(`--${name} needs a positive whole number of milliseconds (got ${JSON.stringify(value)})`);
}

/** Reads the server flags from parsed values; each names what it needs (`--require-server` needs `--mcp-config`). */
export function serverFlags(values: Values): Outcome<ServerFlags> {
  if (values['mcp-config'] === '') return bad('--mcp-config needs a file');
  const require = values['require-server'] ?? [];
  if (require.length > 0 && values['mcp-config'] === undefined) return bad('--require-server names a server of --mcp-config; give the file');
  if (require.includes('')) return bad('--require-server needs a server key');
  const startup = millis('startup-timeout-ms', values['startup-timeout-ms'], DEFAULT_STARTUP_MS);
  if (!startup.ok) return startup;
  const request = millis('timeout-ms', values['timeout-ms'], DEFAULT_REQUEST_MS);
  if (!request.ok) return request;
  return ok({
    ...(values['mcp-config'] !== undefined ? { mcpConfig: values['mcp-config'] } : {}),
    requireServers: [...new Set(require)],
    startupTimeoutMs: startup.value,
    timeoutMs: request.value,
  });
}
