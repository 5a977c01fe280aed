import type { Implementation, ServerIdentity, ToolEntry } from '../binding/index.ts';
import type { FailureRecord, RelistRecord } from '../mcp/index.ts';
import { fail, ok, type Contract, type Outcome } from '../contract/index.ts';
import { toolNames, type ProtocolExchange, type RuntimeTool } from '../pipeline/index.ts';
import type { TaskRun } from './task.ts';

/** What the run reports about the server behind MCP tools, however it is reached. */
interface ServerReportBase {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly protocolVersion: string;
  readonly instanceId: string;
  readonly gaps: readonly string[];
}

/** A server started over stdio: its launch. */
export interface StdioServerReport extends ServerReportBase {
  readonly launch: readonly string[];
  readonly cwd: string;
  /** Names only: values never leave the launch. */
  readonly envNames: readonly string[];
}

/** A server reached over Streamable HTTP (record format 7): its URL and header names, and the session it issued by sha256 only. */
export interface HttpServerReport extends ServerReportBase {
  readonly url: string;
  /** Names only: header values are credentials, never recorded. */
  readonly headerNames: readonly string[];
  /** sha256 of the `Mcp-Session-Id` the server issued at initialize (its UTF-8 bytes); absent when it issued none. */
  readonly sessionSha256?: string;
}

/** What the run reports about the server behind MCP tools: over stdio or over HTTP (`'url' in report`). */
export type ServerReport = StdioServerReport | HttpServerReport;

// A failure and a re-list as records name them: the MCP client's own shapes, one definition.
export type { FailureRecord, RelistRecord };

/** One tool a configured server listed, as run_start records it: bound (its names and binding id) or left unbound (why). */
export type ListedToolRecord =
  | { readonly name: string; readonly status: 'bound'; readonly model_name: string; readonly binding_id: string }
  | { readonly name: string; readonly status: 'unbound'; readonly failure: FailureRecord };

/**
 * What `run_start.servers[]` records of one server a user configured
 * (`--mcp-config`), started or not: the key the host gives it (and the key
 * as the config spelled it, when the name rule mapped it), the identity it
 * started with, every tool it listed, and what the user was told.
 */
export interface ServerStart {
  readonly key: string;
  /** The entry's name in the config file, when it is not the key (mapped by the tool-name rule). */
  readonly config_key?: string;
  readonly status: 'started' | 'failed';
  /** The server as started (absent when it failed to start). */
  readonly identity?: ServerIdentity;
  /** Over HTTP (format 7): the sha256 of the session id it issued at initialize (`ConfiguredClient.sessionSha256`), never the id. */
  readonly session_sha256?: string;
  /** Why it did not start (status `failed`). */
  readonly failure?: FailureRecord;
  readonly tools: readonly ListedToolRecord[];
  readonly notices: readonly string[];
}

/** What `run_end.servers[]` records of one configured server after it closed. */
export interface ServerEnd {
  readonly key: string;
  /** How it closed (the transport's report); null when it never started. */
  readonly close: unknown;
  readonly list_changed: { readonly seen: number; readonly relists: readonly RelistRecord[] };
  /** The end of its stderr (`LIMITS.serverStderrBytes`), redacted. */
  readonly stderr: string;
}

/** An open set of tools for one run, and how to release them. */
export interface ToolSet {
  readonly transport: 'local' | 'mcp';
  readonly tools: readonly RuntimeTool[];
  readonly server?: ServerReport;
  /** The exchange behind an action, failed calls included (MCP tools); undefined for a local action. */
  readonly protocolOf?: (actionId: string) => ProtocolExchange | undefined;
  /**
   * The servers a user configured behind these tools: what run_start records
   * of each, and (read after `close`) what run_end records. A run whose
   * tools carry these names the ledger format that records them.
   */
  readonly servers?: { readonly start: readonly ServerStart[]; end(): readonly ServerEnd[] };
  /** Releases what the tools hold (the MCP child); reports what happened on close. */
  close(): Promise<unknown>;
}

/**
 * A tool a provider will open, known before it opens (nothing spawned): its
 * model-visible name and server, its contract and who implements it. Names are
 * checked for clashes, permission rules and hook matchers against these, and
 * method packages bind to their contracts.
 */
export interface OfferedTool {
  readonly binding: { readonly tool: string; readonly server?: { readonly key: string } };
  readonly contract: Contract;
  readonly implementation: Implementation;
}

/** Opens some of a run's tools: what it offers is known before, the tools themselves only once it opens (it may spawn a process). */
export interface ToolProvider {
  readonly offers: readonly OfferedTool[];
  /** The keys of the configured servers behind it, started or not: `mcp__<key>` rules may name them. */
  readonly servers?: readonly string[];
  open(run: TaskRun): Promise<Outcome<ToolSet>>;
}

/** A tool made in-process: its entry (contract and implementation) and how a run makes it. */
export interface LocalTool {
  readonly entry: ToolEntry;
  make(): RuntimeTool;
}

/** Tools made in-process, each when the provider opens. */
export function localProvider(tools: readonly LocalTool[]): ToolProvider {
  return {
    offers: tools.map(({ entry }) => ({ binding: { tool: entry.tool ?? entry.contract.name }, contract: entry.contract, implementation: entry.implementation })),
    open: async () => ok({ transport: 'local', tools: tools.map((tool) => tool.make()), close: async () => undefined }),
  };
}

/**
 * Refuses two tools that answer to one name (`invalid_arguments/duplicate_tool`):
 * a model-visible name, or an `mcp__<key>__<tool>` name hooks and rules
 * select by. Which of two same-named tools a call meant cannot be known, so
 * neither is kept.
 */
export function duplicateName(tools: readonly Pick<OfferedTool, 'binding' | 'contract'>[]): Outcome<void> {
  const owners = new Map<string, number>();
  for (const [index, tool] of tools.entries()) {
    for (const name of toolNames(tool)) {
      const other = owners.get(name);
      if (other !== undefined && other !== index) {
        return fail('invalid_arguments', 'duplicate_tool', `two tools of this run answer to ${JSON.stringify(name)} (${describe(tools[other]!)} and ${describe(tool)}); every name must select one tool`);
      }
      owners.set(name, index);
    }
  }
  return ok(undefined);
}

function describe(tool: Pick<OfferedTool, 'binding'>): string {
  return tool.binding.server ? `${tool.binding.tool} of server ${tool.binding.server.key}` : tool.binding.tool;
}

/** Freezes a tool table once per run, keyed by model-visible name; two tools under one name are refused (`duplicate_tool`). */
export function runtimeTable(tools: readonly RuntimeTool[]): Outcome<Readonly<Record<string, RuntimeTool>>> {
  const clash = duplicateName(tools);
  if (!clash.ok) return clash;
  return ok(Object.freeze(Object.fromEntries(tools.map((tool) => [tool.binding.tool, Object.freeze({ ...tool })]))));
}
