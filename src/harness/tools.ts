import type { Outcome } from '../contract/index.ts';
import type { ProtocolExchange, RuntimeTool } from '../pipeline/index.ts';
import type { Snapshot, Task } from './task.ts';

/** What the run reports about the server behind MCP tools. */
export interface ServerReport {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly protocolVersion: string;
  readonly launch: readonly string[];
  readonly cwd: string;
  /** Names only: values never leave the launch. */
  readonly envNames: readonly string[];
  readonly instanceId: string;
  readonly gaps: readonly string[];
}

/** An open set of tools for one run, and how to release them. */
export interface ToolSet {
  readonly transport: 'local' | 'mcp';
  readonly tools: readonly RuntimeTool[];
  readonly server?: ServerReport;
  /** The exchange behind an action, failed calls included (MCP tools); undefined for a local action. */
  readonly protocolOf?: (actionId: string) => ProtocolExchange | undefined;
  /** Releases what the tools hold (the MCP child); reports what happened on close. */
  close(): Promise<unknown>;
}

/** Opens the tools of a run. The MCP provider is injected by the CLI (it spawns a process). */
export type ToolProvider = (snapshot: Snapshot, runId: string) => Promise<Outcome<ToolSet>>;

/** The task's tools as local functions. */
export function localTools(task: Task): ToolProvider {
  return async (snapshot, runId) => ({
    ok: true,
    value: { transport: 'local', tools: task.tools.local.map((tool) => tool.make(snapshot, runId)), close: async () => undefined },
  });
}

/** Freezes a tool table once per run, keyed by model-visible name. */
export function runtimeTable(tools: readonly RuntimeTool[]): Readonly<Record<string, RuntimeTool>> {
  return Object.freeze(Object.fromEntries(tools.map((tool) => [tool.binding.tool, Object.freeze({ ...tool })])));
}
