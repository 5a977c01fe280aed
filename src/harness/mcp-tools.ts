import { clip } from '../base/index.ts';
import { LIMITS } from '../contract/index.ts';
import { MCP_GAPS, openToolSession, type Launch, type ToolSessionOptions } from '../mcp/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import type { Snapshot, Task } from './task.ts';
import type { ToolProvider } from './tools.ts';

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

/**
 * The tools the task's fixture MCP server serves (started by `launch`, which
 * the CLI hands over: this program's `serve` with a cleaned environment), the
 * rest local: the demo's default. A served
 * tool takes its local namesake's place, so the model sees the same order on
 * both transports. The instance id derives from the run id so that same-id
 * runs bind identically. With SOURCE_DATE_EPOCH set in `envSource` the run is
 * meant to be reproducible, so process ids are kept out of the close record
 * (the server's stderr, surviving members).
 */
export function mcpTools(
  task: Task,
  options: { readonly envSource: Readonly<Record<string, string | undefined>>; readonly launch: Launch } & Partial<Omit<ToolSessionOptions, 'tools' | 'adapt' | 'launch' | 'key'>>,
): ToolProvider {
  const { envSource, ...sessionOptions } = options;
  const reproducible = (envSource['SOURCE_DATE_EPOCH'] ?? '') !== '';
  return async (snapshot, runId) => {
    const session = await openToolSession({
      // The name the task gives its server: tools are mcp__<key>__<tool>, whatever serverInfo says.
      key: task.tools.mcp.server,
      instanceId: `${runId}/fixture-1`,
      ...sessionOptions,
      tools: task.tools.mcp.expected,
      adapt: (client) => task.tools.mcp.adapt(client, snapshot),
    });
    if (!session.ok) return session;
    const { identity } = session.value;
    let tools: RuntimeTool[];
    try {
      tools = servedInPlace(task, session.value.tools, snapshot, runId);
    } catch (error) {
      // A task's tool factory that throws is a bug; it must not leave the server running.
      await session.value.close();
      throw error;
    }
    return {
      ok: true,
      value: {
        transport: 'mcp',
        tools,
        protocolOf: session.value.protocolOf,
        server: {
          serverInfo: { name: identity.name, version: identity.version },
          protocolVersion: identity.protocolVersion,
          launch: identity.endpoint.argv,
          cwd: identity.endpoint.cwd,
          envNames: identity.endpoint.envNames,
          instanceId: identity.instanceId,
          gaps: MCP_GAPS,
        },
        // The server's stderr is diagnostics, never parsed; it is recorded with the close report.
        // Every tools/call exchange (failed ones too) keeps its three correlated ids in the record.
        close: async () => {
          const report = await session.value.close();
          const stderr = session.value.client.stderr();
          return {
            ...report,
            ...(reproducible ? { survivors: report.survivors.map(() => PID_PLACEHOLDER) } : {}),
            exchanges: session.value.exchanges(),
            server_stderr: recordedStderr(stderr, reproducible),
          };
        },
      },
    };
  };
}

/**
 * The task's tools with each served tool in its local namesake's place (by
 * contract name), served tools without one after them. A replaced local tool
 * is never made: binding it would cost the start-up for nothing.
 */
function servedInPlace(task: Task, served: readonly RuntimeTool[], snapshot: Snapshot, runId: string): RuntimeTool[] {
  const named = (name: string) => served.find((tool) => tool.contract.name === name);
  const local = task.tools.local.map((tool) => named(tool.entry.contract.name) ?? tool.make(snapshot, runId));
  return [...local, ...served.filter((tool) => !local.includes(tool))];
}
