import { clip } from '../base/index.ts';
import { LIMITS } from '../contract/index.ts';
import { MCP_ADAPTER_VERSION, mcpGapsOf, openToolSession, type ExpectedTool, type Launch, type StrictClient, type ToolSessionOptions } from '../mcp/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import type { TaskRun } from './task.ts';
import type { ServerReport, ToolProvider } from './tools.ts';
import type { ServerIdentity } from '../binding/index.ts';

/** Stands in for a process id in records that must not depend on which process ran. */
export const PID_PLACEHOLDER = '<pid>';

/**
 * Replaces the number in every `pid N` / `pid=N` / `pid: N` of a log text
 * with the placeholder, whatever its value. Matching the label rather than
 * the server's own pid keeps short pids from rewriting unrelated numbers
 * (a pid of 18 inside "2025-06-18") differently from run to run.
 */
export function withoutPids(text: string): string {
  return text.replace(/\b(pid)(\s*[=:]?\s*)\d+\b/gi, `$1$2${PID_PLACEHOLDER}`);
}

/** The server's stderr as the close report records it: its last `LIMITS.serverStderrBytes`, pids replaced when `reproducible`. */
export function recordedStderr(stderr: string, reproducible: boolean): string {
  return clip(reproducible ? withoutPids(stderr) : stderr, LIMITS.serverStderrBytes, 'tail');
}

/** One MCP server as a run's tool provider. */
export interface McpProviderOptions extends Partial<Omit<ToolSessionOptions, 'key' | 'launch' | 'tools' | 'adapt' | 'instanceId'>> {
  readonly launch: Launch;
  /**
   * The name the host gives the server: its tools are `mcp__<key>__<tool>` in
   * hooks and permission rules, whatever `serverInfo.name` the server reports.
   */
  readonly key: string;
  /** The tools the server must list, each pinned to the contract the host validates with. */
  readonly expected: readonly ExpectedTool[];
  /** Wraps the open client's tools for the pipeline (checking results against what the host knows). */
  adapt(client: StrictClient, run: TaskRun): readonly RuntimeTool[];
  /** The instance id after the run id (`<runId>/<instance>`), so that same-id runs bind identically. */
  readonly instance: string;
  /** Keeps process ids out of the close record (the server's stderr, surviving members), for a reproducible run. */
  readonly reproducible: boolean;
}

/**
 * The tools one MCP server serves, spawned when the provider opens. The
 * close report keeps every tools/call exchange (failed ones too) with its
 * correlated ids, and the server's stderr (diagnostics, never parsed).
 */
export function mcpProvider(options: McpProviderOptions): ToolProvider {
  const { key, launch, expected, adapt, instance, reproducible, ...sessionOptions } = options;
  return {
    offers: expected.map(({ contract }) => ({ binding: { tool: contract.name, server: { key } }, contract, implementation: { kind: 'mcp', version: MCP_ADAPTER_VERSION } })),
    open: async (run) => {
      const session = await openToolSession({ ...sessionOptions, key, launch, instanceId: `${run.runId}/${instance}`, tools: expected, adapt: (client) => adapt(client, run) });
      if (!session.ok) return session;
      const { identity, client } = session.value;
      return {
        ok: true,
        value: {
          transport: 'mcp',
          tools: session.value.tools,
          protocolOf: session.value.protocolOf,
          server: serverReportOf(identity),
          close: async () => {
            const report = await session.value.close();
            return {
              ...report,
              ...(reproducible ? { survivors: report.survivors.map(() => PID_PLACEHOLDER) } : {}),
              exchanges: session.value.exchanges(),
              server_stderr: recordedStderr(client.stderr(), reproducible),
            };
          },
        },
      };
    },
  };
}

/** What run_start records of the server: over stdio its launch, over HTTP its URL and header names; the gaps of its transport. */
export function serverReportOf(identity: ServerIdentity): ServerReport {
  const base = { serverInfo: { name: identity.name, version: identity.version }, protocolVersion: identity.protocolVersion };
  const { endpoint } = identity;
  const gaps = mcpGapsOf(endpoint);
  if (endpoint.kind === 'http') return { ...base, url: endpoint.url, headerNames: endpoint.headerNames, instanceId: identity.instanceId, gaps };
  return { ...base, launch: endpoint.argv, cwd: endpoint.cwd, envNames: endpoint.envNames, instanceId: identity.instanceId, gaps };
}
