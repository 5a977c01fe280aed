import { parseArgs } from 'node:util';
import { inert } from '../base/index.ts';
import { CONTENT_RESULT, type ShownIcon, type ShownServer, type ShownTool } from '../harness/index.ts';
import type { RuntimeTool } from '../pipeline/index.ts';
import { NO_RULES, permissionPolicy } from '../pipeline/index.ts';
import { startConfigured } from './configured.ts';
import { EXIT, exitCodeOf, interrupted } from './exit.ts';
import { isDeferred, toolsDefer } from './defer-flag.ts';
import { repeatedFlag } from './flags.ts';
import type { Io } from './io.ts';
import { SERVER_OPTIONS, serverFlags } from './server-flags.ts';

/** One tool of a configured server as `tools --mcp-config` lists it: as a run binds it, or why it stays unbound. */
export interface ListedServerTool {
  readonly name: string;
  readonly status: 'bound' | 'unbound';
  readonly model_name?: string;
  readonly full_name?: string;
  readonly binding_id?: string;
  readonly schema_hash?: string;
  readonly model_schema_hash?: string;
  /** The outputSchema's hash; null when the tool lists none (its result is the content blocks). */
  readonly result_schema_hash?: string | null;
  readonly hints?: Readonly<Record<string, unknown>>;
  /** What the host decides with no rule and no flag: `ask` (denied without `--yes`) for every configured tool. */
  readonly default_permission?: 'allow' | 'ask' | 'deny';
  /** `--defer-tool` names it: a run sends it with defer_loading, callable once ToolSearch discloses it. */
  readonly deferred?: true;
  /** Its contract completes in the background (2025-11-25 `taskSupport` on a server declaring tasks): a run calls it as an MCP task. */
  readonly task?: 'required' | 'optional';
  readonly failure?: { readonly class: string; readonly kind: string; readonly message: string };
  /** Its `title` and `icons` (2025-11-25), as listed for people: never fetched, never sent to the model, never recorded. */
  readonly title?: string;
  readonly icons?: ShownTool['icons'];
}

/** One configured server as listed: started (its identity) or failed (why), and its tools. */
export interface ListedServer {
  readonly key: string;
  readonly config_key?: string;
  readonly status: 'started' | 'failed';
  readonly server?: { readonly name: string; readonly version: string; readonly protocolVersion: string } & ShownServer;
  readonly failure?: { readonly class: string; readonly kind: string; readonly message: string };
  readonly tools: readonly ListedServerTool[];
}

const OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, 'defer-tool': { type: 'string', multiple: true }, ...SERVER_OPTIONS } as const;
const DEFAULT_POLICY = permissionPolicy({ rules: NO_RULES, allowFlags: [], denyFlags: [], interactive: false, yes: false });

function describeTool(tool: RuntimeTool, listedOutput: boolean): ListedServerTool {
  const { binding } = tool;
  const decided = DEFAULT_POLICY(tool);
  return {
    name: binding.contract.name,
    status: 'bound',
    model_name: binding.tool,
    full_name: binding.naming?.full ?? binding.tool,
    binding_id: binding.id,
    schema_hash: binding.contract.schemaHash,
    model_schema_hash: binding.model.schemaHash,
    result_schema_hash: listedOutput ? binding.contract.resultSchemaHash : null,
    hints: binding.contract.hints ?? {},
    default_permission: decided.asked ? 'ask' : decided.decision,
    ...(binding.contract.completion ? { task: binding.contract.completion.support } : {}),
  };
}

/**
 * `caplab tools --mcp-config FILE [--json]`: starts every configured server
 * as a run would (in parallel, fresh cwd, probe's environment), lists each
 * tool as a run binds it, closes them, and says which servers failed and why.
 */
export async function toolsServersCommand(args: readonly string[], io: Io): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return io.stderr(`caplab tools: ${(error as Error).message}\n`), EXIT.usage;
  }
  const repeated = repeatedFlag(args, OPTIONS);
  const flags = serverFlags(values);
  if (repeated || !flags.ok) return io.stderr(`caplab tools: ${repeated ?? (flags.ok ? '' : flags.message)}\n`), EXIT.usage;
  const started = await startConfigured({ ...flags.value, mcpConfig: flags.value.mcpConfig! }, false, io, 'tools');
  if (!started.ok) {
    const failure = 'usage' in started.refusal ? started.refusal.usage : started.refusal.required;
    io.stderr(`caplab tools: ${failure.class}/${failure.kind}: ${failure.message}\n`);
    return 'usage' in started.refusal ? EXIT.usage : EXIT.protocol;
  }
  const { servers, notices } = started.value;
  const opened = await servers.provider.open({ runId: 'tools' });
  const tools = opened.ok ? opened.value.tools : [];
  await servers.close();
  const defer = toolsDefer(values['defer-tool'] ?? [], tools, servers.starts.map((start) => start.key));
  if (!defer.ok) return io.stderr(`caplab tools: ${defer.class}/${defer.kind}: ${defer.message}\n`), EXIT.usage;
  const listed = servers.starts.map((start): ListedServer => {
    const shown = servers.shownOf(start.key);
    return {
      key: start.key,
      ...(start.config_key !== undefined ? { config_key: start.config_key } : {}),
      status: start.status,
      ...(start.identity ? { server: { name: start.identity.name, version: start.identity.version, protocolVersion: start.identity.protocolVersion, ...shown?.server } } : {}),
      ...(start.failure ? { failure: start.failure } : {}),
      tools: start.tools.map((record) => {
        const display = shown?.tools.get(record.name) ?? {};
        if (record.status === 'unbound') return { name: record.name, status: 'unbound', failure: record.failure, ...display };
        const tool = tools.find((t) => t.binding.id === record.binding_id)!;
        const listed = { ...describeTool(tool, tool.contract.result !== CONTENT_RESULT), ...display };
        return isDeferred(defer.value.rules, tool) ? { ...listed, deferred: true as const } : listed;
      }),
    };
  });
  if (io.interrupt?.aborted) {
    // Nothing is listed: the servers were stopped part way.
    io.stderr(`caplab: interrupted by ${String(io.interrupt.reason)}\n`);
    return exitCodeOf(interrupted(io.interrupt));
  }
  for (const notice of notices) io.stderr(`caplab: ${inert(notice)}\n`);
  io.stdout(values.json ? `${JSON.stringify({ servers: listed }, null, 2)}\n` : renderServers(listed));
  return EXIT.ok;
}

/** The listing as text: one block per server, one line per tool. */
function renderServers(servers: readonly ListedServer[]): string {
  const lines: string[] = [];
  for (const server of servers) {
    const head = server.status === 'started' ? `${inert(server.server!.name)} ${inert(server.server!.version)}, protocol ${inert(server.server!.protocolVersion)}` : `did not start: ${server.failure!.class}/${server.failure!.kind}: ${inert(server.failure!.message)}`;
    lines.push(`server ${server.key}${server.config_key !== undefined ? ` (config "${inert(server.config_key)}")` : ''} — ${head}`);
    const about = [server.server?.description !== undefined ? `description "${inert(server.server.description)}"` : '', server.server?.websiteUrl !== undefined ? `website ${inert(server.server.websiteUrl)}` : '', iconsLine(server.server?.icons)].filter((part) => part !== '');
    if (about.length > 0) lines.push(`  (${about.join('  ')}; shown, never fetched)`);
    for (const tool of server.tools) {
      if (tool.status === 'unbound') lines.push(`  ${inert(tool.name)}  unbound: ${tool.failure!.class}/${tool.failure!.kind}: ${inert(tool.failure!.message)}`);
      else lines.push(`  ${tool.model_name}  ${tool.default_permission}  binding ${tool.binding_id!.slice(0, 12)}  schema ${tool.schema_hash!.slice(0, 12)}  result ${tool.result_schema_hash ? tool.result_schema_hash.slice(0, 12) : '(content, no outputSchema)'}${tool.full_name !== tool.model_name ? `  (full name ${inert(tool.full_name!)})` : ''}${tool.deferred ? '  deferred' : ''}${tool.task ? `  task (${tool.task})` : ''}`);
      const shown = [tool.title !== undefined ? `title "${inert(tool.title)}"` : '', iconsLine(tool.icons)].filter((part) => part !== '');
      if (shown.length > 0) lines.push(`    ${shown.join('  ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Icons as one text part: how many, and each src (never fetched). */
function iconsLine(icons: readonly ShownIcon[] | undefined): string {
  return icons ? `icons ${icons.length}: ${icons.map((icon) => inert(icon.src)).join(', ')}` : '';
}
