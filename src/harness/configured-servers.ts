import { qualifiedName, TOOL_NAME_RULE, tryBind, type Binding, type ServerEndpoint, type ServerIdentity } from '../binding/index.ts';
import { clip } from '../base/index.ts';
import { fail, LIMITS, mcpCompletion, ok, type Failure, type Outcome, type SchemaValidator } from '../contract/index.ts';
import { HOST_ADAPTER_VERSION, protocolExchange, type Exchange, type VersionProfile } from '../mcp/index.ts';
import { attributesOf, type ProtocolExchange, type ResultBlock, type RuntimeTool } from '../pipeline/index.ts';
import { shownServer, shownTool, type ShownServer, type ShownTool } from './configured-display.ts';
import { configuredContract, failureRecord, readListedEntry, type CompileListed } from './configured-tool.ts';
import type { ListedToolRecord, OfferedTool, RelistRecord, ServerEnd, ServerStart, ToolProvider } from './tools.ts';

/** What the host cannot know about a server a user configured, stated in each of its bindings. */
export const CONFIGURED_GAPS: readonly string[] = [
  'remote build unknown: the server is identified only by serverInfo, launch command and tool schemas',
  'results unverified: a configured server\'s results are checked against its own schemas, never against host state',
  'annotations untrusted: readOnlyHint, idempotentHint and the like are kept as hints and change nothing',
  'processes that leave the server process group (setsid) are found and killed on close only on Linux, where caplab is a child subreaper; elsewhere they are not tracked',
];

/** What the host cannot know about a configured server it reaches over Streamable HTTP, stated in each of its bindings. */
export const CONFIGURED_HTTP_GAPS: readonly string[] = [
  'remote build unknown: the server is identified only by serverInfo, its URL and tool schemas',
  'results unverified: a configured server\'s results are checked against its own schemas, never against host state',
  'annotations untrusted: readOnlyHint, idempotentHint and the like are kept as hints and change nothing',
  'effects after a dropped connection unknown: a call whose connection or stream dropped may have run on the server; its outcome is unknown and it is never re-sent',
  'host name resolved at connect time: the URL names a host, not an address; which machine answered is not recorded',
];

/** The gaps of a configured server reached at `endpoint`: `CONFIGURED_GAPS` over stdio, `CONFIGURED_HTTP_GAPS` over HTTP. */
export function configuredGapsOf(endpoint: Pick<ServerEndpoint, 'kind'>): readonly string[] {
  return endpoint.kind === 'http' ? CONFIGURED_HTTP_GAPS : CONFIGURED_GAPS;
}

/** One tools/call as the host session logs it (its fields as the record summarises them). */
export type ConfiguredExchange = Pick<Exchange, 'method' | 'jsonrpcId' | 'actionId' | 'requestBytes' | 'responseBytes' | 'isError' | 'task'>;

/** A server started under the host session profile, as the host uses it (`openHostClient` gives one). */
export interface ConfiguredClient {
  readonly identity: ServerIdentity;
  /**
   * Over HTTP, the sha256 (lowercase hex, of its UTF-8 bytes) of the
   * `Mcp-Session-Id` the server issued at initialize: what run_start records
   * of the session (format 7), never the id itself. Absent over stdio and
   * when the server issued none. Kept out of `identity`, so a binding's id
   * does not change with a random session id.
   */
  readonly sessionSha256?: string;
  /** The profile of the revision it answered: how a schema without `$schema` is read. */
  readonly profile: VersionProfile;
  /** The capabilities its initialize declared: whether its tools may be called as tasks (`tasks.requests.tools.call`). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Its initialize's serverInfo as sent (read for people only: `shownServer`). */
  readonly serverInfo?: Readonly<Record<string, unknown>>;
  /** The tools/list entries as listed (every page), and what listing them told the user. */
  readonly listing: { readonly tools: readonly unknown[]; readonly notices: readonly string[] };
  callTool(
    tool: { readonly name: string; readonly output?: Pick<SchemaValidator, 'validate'>; readonly task?: boolean },
    args: unknown,
    options: { readonly toolCallId: string; readonly actionId: string; readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<Outcome<{ readonly data: unknown; readonly content: readonly ResultBlock[] }>>;
  listChanged(): { readonly seen: number; readonly relists: readonly RelistRecord[] };
  /** The failure that ended the session (the server died, its stdout broke), if it ended. */
  ended(): Failure | undefined;
  exchanges(): readonly ConfiguredExchange[];
  stderr(): string;
  close(): Promise<unknown>;
}

/** One server of a configuration, ready to start: the key the host gives it and how it is launched. */
export interface ServerSpec {
  readonly key: string;
  /** The entry's name in the config file, when the name rule mapped it to another key. */
  readonly configKey?: string;
}

/** How the host starts and reads configured servers (the CLI gives the real ones; a test gives its own). */
export interface StartDeps<S extends ServerSpec> {
  /** Starts one server and runs the handshake and listing, within the startup timeout. */
  open(spec: S): Promise<Outcome<ConfiguredClient>>;
  /** The listed-schema compiler for a revision's profile (Ajv, loaded on first use). */
  compiler(profile: ConfiguredClient['profile']): Promise<CompileListed>;
  /** Each call's deadline (`--timeout-ms`). */
  readonly requestMs: number;
  /** Redacts the server's environment values from what is recorded of its stderr. */
  redact(text: string): string;
}

/** One configured server after its start: what run_start says of it, and its tools. */
interface Started {
  readonly record: ServerStart;
  readonly client?: ConfiguredClient;
  readonly tools: readonly RuntimeTool[];
  readonly failure?: Failure;
}

/** The configured servers of one run, started before its record opens. */
export interface ConfiguredServers {
  /** What run_start records of each server. */
  readonly starts: readonly ServerStart[];
  /** Why a server did not start, by key. */
  failureOf(key: string): Failure | undefined;
  /** What a started server says for people (2025-11-25): its description, website and icons, and each listed tool's title and icons by name. */
  shownOf(key: string): { readonly server: ShownServer; readonly tools: ReadonlyMap<string, ShownTool> } | undefined;
  /** The provider a host adds to the run: it hands over the servers already open. */
  readonly provider: ToolProvider;
  /** Closes every started server (idempotent); what run_end records of each. */
  close(): Promise<readonly ServerEnd[]>;
}

/**
 * Starts every configured server at once and binds what each lists. A
 * server that does not start is recorded as `failed` (its class and kind)
 * and the others go on; a listed tool that cannot be bound is recorded as
 * unbound with why. Nothing here opens the run's record: the caller decides
 * from the result whether the run goes on (`--require-server`).
 */
export async function startConfiguredServers<S extends ServerSpec>(specs: readonly S[], deps: StartDeps<S>): Promise<ConfiguredServers> {
  const started = await Promise.all(specs.map((spec) => startOne(spec, deps)));
  let closing: Promise<readonly ServerEnd[]> | undefined;
  // What run_end records, read once the run's tools closed.
  let ended: readonly ServerEnd[] = [];
  const close = (): Promise<readonly ServerEnd[]> => (closing ??= Promise.all(started.map((server) => endOf(server, deps))));
  const tools = started.flatMap((server) => server.tools);
  return {
    starts: started.map((server) => server.record),
    failureOf: (key) => started.find((server) => server.record.key === key)?.failure,
    shownOf: (key) => {
      const client = started.find((server) => server.record.key === key)?.client;
      if (!client) return undefined;
      const tools = new Map(client.listing.tools.flatMap((entry) => (typeof (entry as { name?: unknown } | null)?.name === 'string' ? [[(entry as { name: string }).name, shownTool(entry)] as const] : [])));
      return { server: shownServer(client.serverInfo), tools };
    },
    provider: {
      offers: tools.map(offerOf),
      servers: specs.map((spec) => spec.key),
      open: async () =>
        ok({
          transport: 'mcp',
          tools,
          protocolOf: (actionId) => protocolOf(started, actionId),
          servers: { start: started.map((server) => server.record), end: () => ended },
          close: async () => {
            ended = await close();
            return undefined;
          },
        }),
    },
    close,
  };
}

/** A bound tool as the host checks names against it before the run. */
function offerOf(tool: RuntimeTool): OfferedTool {
  const { binding } = tool;
  return { binding: { tool: binding.tool, server: { key: binding.server!.key }, ...(binding.naming ? { naming: binding.naming } : {}) }, contract: tool.contract, implementation: binding.implementation };
}

async function startOne<S extends ServerSpec>(spec: S, deps: StartDeps<S>): Promise<Started> {
  const base = { key: spec.key, ...(spec.configKey !== undefined ? { config_key: spec.configKey } : {}) };
  const opened = await deps.open(spec);
  if (!opened.ok) {
    return { record: { ...base, status: 'failed', failure: failureRecord(opened), tools: [], notices: [] }, tools: [], failure: opened };
  }
  const client = opened.value;
  const compile = await deps.compiler(client.profile);
  const listed: ListedToolRecord[] = [];
  const tools: RuntimeTool[] = [];
  for (const entry of client.listing.tools) {
    const bound = bindListed(spec.key, entry, client, compile, deps.requestMs);
    if (bound.ok) {
      tools.push(bound.value);
      listed.push({ name: bound.value.contract.name, status: 'bound', model_name: bound.value.binding.tool, binding_id: bound.value.binding.id });
    } else {
      listed.push({ name: nameOf(entry), status: 'unbound', failure: failureRecord(bound) });
    }
  }
  const session = client.sessionSha256 !== undefined ? { session_sha256: client.sessionSha256 } : {};
  return { record: { ...base, status: 'started', identity: client.identity, ...session, tools: listed, notices: [...client.listing.notices] }, client, tools };
}

/** A listed entry's name as the record shows it (one that has none is named by its place). */
function nameOf(entry: unknown): string {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '(unnamed)';
}

/** One listed tool bound as a runtime tool of the run, or why it stays unbound. */
function bindListed(key: string, entry: unknown, client: ConfiguredClient, compile: CompileListed, timeoutMs: number): Outcome<RuntimeTool> {
  const read = readListedEntry(entry);
  if (!read.ok) return read;
  // A revision without structured results has no outputSchema: one listed anyway is an extra field, read as nothing.
  const { outputSchema, ...plain } = read.value;
  const listed = client.profile.structured || outputSchema === undefined ? read.value : plain;
  const completion = mcpCompletion(read.value.taskSupport, client.capabilities, client.profile.version);
  const made = configuredContract(key, listed, compile, timeoutMs, completion);
  if (!made.ok) return made;
  const { contract, output } = made.value;
  const full = qualifiedName(key, contract.name);
  const binding = tryBind(contract, {
    implementation: { kind: 'mcp', version: HOST_ADAPTER_VERSION },
    server: client.identity,
    naming: { full, rule: TOOL_NAME_RULE },
    gaps: configuredGapsOf(client.identity.endpoint),
  });
  if (!binding.ok) return binding;
  const unsupported = taskUnsupported(contract.name, read.value.taskSupport, client, completion);
  return ok(runtimeTool(client, contract, binding.value, output, unsupported));
}

/**
 * A tool that needs task augmentation (`taskSupport: "required"`) on a
 * 2025-11-25 server that declares no `tasks.requests.tools.call`: it cannot
 * be called as the revision allows, so each call is refused unsent.
 */
function taskUnsupported(name: string, taskSupport: unknown, client: ConfiguredClient, completion: unknown): Failure | undefined {
  if (taskSupport !== 'required' || completion !== undefined || client.profile.version !== '2025-11-25') return undefined;
  return fail('precondition', 'task_unsupported', `${name}: not sent; it lists execution.taskSupport "required", but its server declares no tasks.requests.tools.call, so it cannot be called as a task`);
}

function runtimeTool(client: ConfiguredClient, contract: RuntimeTool['contract'], binding: Binding, output: SchemaValidator | undefined, unsupported: Failure | undefined): RuntimeTool {
  const tool = { name: contract.name, ...(output ? { output } : {}), ...(contract.completion ? { task: true } : {}) };
  return {
    contract,
    binding,
    attributes: attributesOf(contract, { fromMcp: true }),
    // A tool that cannot be called as its revision allows, or a server whose session already ended, gets nothing: refused before its handler.
    check: () => unsupported ?? serverClosed(contract.name, client.ended()),
    async handler(input, context) {
      const called = await client.callTool(tool, input, { toolCallId: context.toolCallId, actionId: context.actionId, signal: context.signal });
      if (!called.ok) return called;
      const exchange = client.exchanges().find((e) => e.actionId === context.actionId);
      return ok({
        data: called.value.data,
        content: called.value.content,
        evidence: 'the server\'s tools/call result as received (untrusted: checked against its own schemas only)',
        ...(exchange ? { protocol: protocolExchange(client, exchange) } : {}),
      });
    },
  };
}

/** A call to a server whose session ended: `precondition/server_closed`, naming what ended it; nothing when the session is live. */
function serverClosed(name: string, ended: Failure | undefined): Failure | undefined {
  return ended && fail('precondition', 'server_closed', `${name}: not sent; the server's session ended (${ended.class}/${ended.kind}: ${ended.message})`);
}

function protocolOf(started: readonly Started[], actionId: string): ProtocolExchange | undefined {
  for (const { client } of started) {
    const exchange = client?.exchanges().find((e) => e.actionId === actionId);
    if (client && exchange) return protocolExchange(client, exchange);
  }
  return undefined;
}

/** What run_end records of one server: its close report, the list_changed it saw and its stderr tail, redacted. */
async function endOf<S extends ServerSpec>(server: Started, deps: StartDeps<S>): Promise<ServerEnd> {
  const { client } = server;
  if (!client) return { key: server.record.key, close: null, list_changed: { seen: 0, relists: [] }, stderr: '' };
  const report = await client.close();
  return { key: server.record.key, close: report ?? null, list_changed: client.listChanged(), stderr: clip(deps.redact(client.stderr()), LIMITS.serverStderrBytes, 'tail') };
}
