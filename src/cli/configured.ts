import { fail, ok, redactorFor, type Failure, type Outcome } from '../contract/index.ts';
import { listedCompiler, startConfiguredServers, type ConfiguredClient, type ConfiguredServers, type ServerSpec } from '../harness/index.ts';
import { entryArgv, loadMcpConfig, openHostClient, openHttpHostClient, probeEnv, serverKeys, type HostClient, type HttpConfigEntry, type HttpHostClient, type StdioConfigEntry } from '../mcp/index.ts';
import { freshDir } from '../platform/index.ts';
import type { Io } from './io.ts';
import type { ServerFlags } from './server-flags.ts';

/** What a launch records as the server's cwd: a fresh empty folder each run, so that same-id runs bind alike. */
export const FRESH_CWD = '(fresh)';

/**
 * One entry of the config, keyed, ready to start, by how it is reached
 * (`connect`): a stdio entry is spawned; an HTTP entry is connected to (`openEntry`).
 */
type EntrySpec = ServerSpec & ({ readonly connect: 'spawn'; readonly entry: StdioConfigEntry } | { readonly connect: 'http'; readonly entry: HttpConfigEntry });

/** The configured servers of a command, started, and what the user is told about them. */
export interface StartedConfig {
  readonly servers: ConfiguredServers;
  readonly notices: readonly string[];
}

/** `--mcp-config` and its companions, and the servers a scenario names (`only`: just these start, each required). */
export type ConfigFlags = ServerFlags & { readonly mcpConfig: string; readonly only?: { readonly keys: readonly string[]; readonly by: string } };

/** Why the configured servers stop the command: a usage error (exit 2) or a required server that did not start (exit 3). */
export type ConfigRefusal = { readonly usage: Failure } | { readonly required: Failure };

/**
 * Reads `--mcp-config`, maps its keys, and starts every stdio and HTTP entry at once
 * under the host session profile, each in a fresh empty cwd (removed at
 * close) with probe's environment plus the entry's own. Nothing of a run
 * exists yet. With `only` (a scenario's `servers`) just those entries
 * start, and each is required. A bad file, a key clash, or a
 * `--require-server` or `only` key naming no entry is a usage refusal; a
 * required server that does not start is a `required` refusal, every server closed first.
 */
export async function startConfigured(flags: ConfigFlags, trust: boolean, io: Io, runId: string): Promise<{ readonly ok: true; readonly value: StartedConfig } | { readonly ok: false; readonly refusal: ConfigRefusal }> {
  const planned = planEntries(flags, trust, io);
  if (!planned.ok) return { ok: false, refusal: { usage: planned } };
  const { specs, notices } = planned.value;
  const redactor = redactorFor(Object.assign({}, ...specs.map(placedSecrets(io))));
  const servers = await startConfiguredServers(specs, {
    open: (spec) => openEntry(spec, flags, io, runId),
    compiler: listedCompiler,
    requestMs: flags.timeoutMs,
    redact: redactor.redact,
  });
  const required = [...new Set([...flags.requireServers, ...(flags.only?.keys ?? [])])].flatMap((key) => {
    const failure = servers.failureOf(key);
    return failure ? [`${key}: ${failure.class}/${failure.kind}: ${failure.message}`] : [];
  });
  if (required.length > 0) {
    await servers.close();
    return { ok: false, refusal: { required: fail('spawn', 'required_server', `a required server did not start: ${required.join('; ')}`, required) } };
  }
  // An interrupted start is the interruption's to report, once, not each server's.
  const failed = servers.starts.filter((start) => start.status === 'failed' && start.failure!.kind !== 'run_interrupted').map((start) => `server ${start.key} did not start (${start.failure!.class}/${start.failure!.kind}): ${start.failure!.message}; the run goes on without it`);
  return { ok: true, value: { servers, notices: [...notices, ...failed, ...servers.starts.flatMap((start) => start.notices.map((notice) => `server ${start.key}: ${notice}`))] } };
}

/**
 * What caplab places with one entry and redacts wherever it writes, by the
 * name a redaction shows: the variables expansion read, and a stdio
 * server's environment or an HTTP server's header values (by header name).
 */
function placedSecrets(io: Io): (spec: EntrySpec) => Readonly<Record<string, string>> {
  return (spec) => ({ ...spec.entry.expanded, ...(spec.connect === 'http' ? spec.entry.headers : probeEnv(io.env, [], spec.entry.env)) });
}

/** The config's stdio and HTTP entries, keyed, and notices for the others; or why the config cannot be used. */
function planEntries(flags: ConfigFlags, trust: boolean, io: Io): Outcome<{ specs: EntrySpec[]; notices: string[] }> {
  const config = loadMcpConfig({ file: flags.mcpConfig, trust, cwd: io.cwd, source: io.env });
  if (!config.ok) return config;
  const { path, entries } = config.value;
  const keys = serverKeys(entries.map((entry) => entry.name));
  if (!keys.ok) return keys;
  const keyOf = new Map(keys.value.map((k) => [k.name, k]));
  // Each notice is about one server: a scenario that chooses its servers hears only about those.
  const notices: { readonly key: string; readonly text: string }[] = [];
  const specs: EntrySpec[] = [];
  for (const entry of entries) {
    const { key, mapped } = keyOf.get(entry.name)!;
    if (mapped) notices.push({ key, text: `server "${entry.name}" is named ${key}: its tools are mcp__${key}__<tool> (caplab.tool-name/1)` });
    if (entry.kind === 'invalid') return { ...entry.failure, message: `${path}: ${entry.failure.message}` };
    if (entry.kind === 'unsupported') notices.push({ key, text: `server "${entry.name}" has type ${JSON.stringify(entry.type)}; only stdio and http entries are read, it is left out` });
    else specs.push({ key, ...(mapped ? { configKey: entry.name } : {}), ...(entry.kind === 'http' ? { connect: 'http', entry } : { connect: 'spawn', entry }) });
  }
  const known = new Set(specs.map((spec) => spec.key));
  const unknown = flags.requireServers.filter((key) => !known.has(key));
  if (unknown.length > 0) {
    return fail('invalid_arguments', 'unknown_server', `--require-server ${unknown.join(', ')}: ${path} has no stdio or http server by that key (has: ${[...known].join(', ') || 'none'})`);
  }
  const only = flags.only;
  if (!only) return ok({ specs, notices: notices.map((notice) => notice.text) });
  const missing = only.keys.filter((key) => !known.has(key));
  if (missing.length > 0) {
    return fail('invalid_arguments', 'unknown_server', `${only.by} names ${missing.join(', ')}: ${path} has no stdio or http server by that key (has: ${[...known].join(', ') || 'none'})`);
  }
  // The others are not started: the scenario chose its servers. A --require-server of another would be met by a server never started.
  const chosen = new Set(only.keys);
  const unchosen = flags.requireServers.filter((key) => !chosen.has(key));
  if (unchosen.length > 0) {
    return fail('invalid_arguments', 'bad_flag', `--require-server ${unchosen.join(', ')}: ${only.by} does not name it; only those servers start, each required`);
  }
  return ok({ specs: specs.filter((spec) => chosen.has(spec.key)), notices: notices.filter((notice) => chosen.has(notice.key)).map((notice) => notice.text) });
}

/**
 * Why the config cannot start a command's servers as `startConfigured`
 * would (the file, a key, an `only` key it lacks), or undefined; nothing is
 * started. `check --scenarios` asks it of every scenario before its first case.
 */
export function configRefusal(flags: ConfigFlags, io: Io): Failure | undefined {
  const planned = planEntries(flags, false, io);
  return planned.ok ? undefined : planned;
}

/**
 * Starts one entry: a stdio one as probe launches a server (allowlisted env
 * plus the entry's, a fresh cwd, its own process group); an HTTP one is
 * connected to (`openHttpHostClient`: its url and expanded headers) under
 * the same timeouts and interruption.
 */
async function openEntry(spec: EntrySpec, flags: ServerFlags, io: Io, runId: string): Promise<Outcome<ConfiguredClient>> {
  if (spec.connect === 'http') return connectEntry(spec, flags, io, runId);
  return spawnEntry(spec, flags, io, runId);
}

/** Connects one HTTP entry (see `openEntry`); interrupted while it starts, the session is closed once it has answered or failed. */
async function connectEntry(spec: Extract<EntrySpec, { connect: 'http' }>, flags: ServerFlags, io: Io, runId: string): Promise<Outcome<ConfiguredClient>> {
  const opening = openHttpHostClient({
    key: spec.key,
    url: spec.entry.url,
    headers: spec.entry.headers,
    instanceId: `${runId}/${spec.key}`,
    timeouts: { handshakeMs: flags.startupTimeoutMs, callMs: flags.timeoutMs },
    ...(io.interrupt ? { signal: io.interrupt } : {}),
  });
  const opened = await untilInterrupted(opening, io.interrupt);
  if (!opened.ok) {
    if (opened.kind === 'run_interrupted') void opening.then(async (late) => (late.ok ? late.value.close() : undefined));
    return opened;
  }
  return ok(httpConfigured(opened.value));
}

/** Starts one stdio entry (see `openEntry`). */
async function spawnEntry(spec: Extract<EntrySpec, { connect: 'spawn' }>, flags: ServerFlags, io: Io, runId: string): Promise<Outcome<ConfiguredClient>> {
  const env = probeEnv(io.env, [], spec.entry.env);
  const cwd = freshDir('caplab-server-');
  const opening = openHostClient({
    key: spec.key,
    launch: { command: entryArgv(spec.entry, env), cwd: cwd.path, env },
    instanceId: `${runId}/${spec.key}`,
    timeouts: { handshakeMs: flags.startupTimeoutMs, callMs: flags.timeoutMs },
    ...(io.interrupt ? { signal: io.interrupt } : {}),
  });
  const opened = await untilInterrupted(opening, io.interrupt).catch((error: unknown) => {
    cwd.remove();
    throw error;
  });
  if (!opened.ok) {
    // Interrupted while it started: it is closed (and its cwd removed) once it has answered or failed.
    if (opened.kind === 'run_interrupted') void opening.then(async (late) => (late.ok ? late.value.close() : undefined)).finally(() => cwd.remove());
    else cwd.remove();
    return opened;
  }
  return ok(asConfigured(opened.value, () => cwd.remove()));
}

/** A start, or the interruption that came first (SIGINT/SIGTERM while a server starts: up to --startup-timeout-ms). */
function untilInterrupted<T>(start: Promise<Outcome<T>>, signal: AbortSignal | undefined): Promise<Outcome<T>> {
  if (!signal) return start;
  const stopped = fail('precondition', 'run_interrupted', `interrupted while the server started`);
  if (signal.aborted) return Promise.resolve(stopped);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(stopped);
    signal.addEventListener('abort', onAbort, { once: true });
    start.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What the harness uses of a host session, stdio or HTTP alike: its profile, first listing, calls and what it saw. */
function sessionPart(client: HostClient | HttpHostClient): Pick<ConfiguredClient, 'profile' | 'capabilities' | 'serverInfo' | 'listing' | 'callTool' | 'listChanged' | 'ended' | 'exchanges'> {
  return {
    profile: client.profile,
    capabilities: client.capabilities,
    serverInfo: client.serverInfo,
    listing: { tools: client.listing.entries, notices: client.notices() },
    callTool: async (tool, args, options) => client.callTool(tool, args, options),
    listChanged: () => client.listChanged(),
    ended: () => client.failure(),
    exchanges: () => client.exchanges(),
  };
}

/** An HTTP host client as the harness uses it: its identity as connected (no cwd: no process of caplab's), the issued session by sha256, no stderr. */
function httpConfigured(client: HttpHostClient): ConfiguredClient {
  return {
    identity: client.identity,
    ...(client.sessionSha256 !== undefined ? { sessionSha256: client.sessionSha256 } : {}),
    ...sessionPart(client),
    stderr: () => '',
    close: () => client.close(),
  };
}

/** A host client as the harness uses it: the cwd recorded as fresh, the folder removed once it closed. */
function asConfigured(client: HostClient, removeCwd: () => void): ConfiguredClient {
  const endpoint = { ...client.identity.endpoint, cwd: FRESH_CWD };
  return {
    identity: { ...client.identity, endpoint },
    ...sessionPart(client),
    stderr: () => client.stderr(),
    close: async () => {
      try {
        return await client.close();
      } finally {
        removeCwd();
      }
    },
  };
}
