import { fail, schemaHash, type Failure } from '../contract/index.ts';
import { spawnChild, type CloseReport, type SpawnFn } from './child.ts';
import { DEFAULT_TIMEOUTS, type Timeouts } from './client.ts';
import { Connection, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection.ts';
import { CLIENT_INFO, expectResult } from './handshake.ts';
import { buildEnv, PROBE_ENV_ALLOW, type Launch } from './launch.ts';
import { InitializeResult, ListToolsResult, PROTOCOL_VERSION, type Implementation } from './results.ts';

/**
 * Versions whose tools/list and tools/call shapes this client can read.
 * 2025-03-26 lacks outputSchema/structuredContent; the report says so.
 */
export const PROBE_VERSIONS: readonly string[] = [PROTOCOL_VERSION, '2025-03-26'];

export interface ProbeOptions {
  readonly cwd?: string;
  readonly envSource?: Readonly<Record<string, string | undefined>>;
  readonly maxPages?: number;
  readonly timeouts?: Partial<Timeouts>;
  readonly limits?: Partial<ConnectionLimits>;
  readonly spawn?: SpawnFn;
  /** Aborted on SIGINT/SIGTERM: the server is closed at once (its group and escaped processes killed). */
  readonly signal?: AbortSignal;
}

/** One listed tool, summarised: hashes, not whole schemas. */
export interface ProbedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchemaHash: string;
  readonly outputSchemaHash?: string;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** What the general profile found. `findings` hold everything a strict client would refuse. */
export interface ProbeReport {
  readonly launch: Launch;
  readonly serverInfo?: Implementation;
  readonly protocolVersion?: string;
  readonly tools: readonly ProbedTool[];
  readonly pages: number;
  /** Complete only if the last page had no nextCursor. */
  readonly complete: boolean;
  readonly findings: readonly Failure[];
  readonly stderr: string;
  readonly close?: CloseReport;
}

/** Resolves argv[0] through the allowlisted PATH, so the recorded launch is absolute. */
function resolveCommand(command: readonly string[], env: Readonly<Record<string, string>>, cwd: string): string[] {
  const [program, ...args] = command;
  if (!program) throw new Error('probe: empty command');
  const resolved = program.includes('/') ? Bun.which(program, { cwd }) : Bun.which(program, { PATH: env['PATH'] ?? '', cwd });
  return [resolved ?? program, ...args];
}

/**
 * `caplab probe -- CMD ARGS…`: the general profile. Follows tools/list
 * pagination within bounds (page limit, repeated cursor), accepts any
 * version in PROBE_VERSIONS, never calls a tool, and reports instead of
 * refusing. Framing violations still end the session: such output cannot be read.
 */
export async function probe(command: readonly string[], options: ProbeOptions = {}): Promise<ProbeReport> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const cwd = options.cwd ?? process.cwd();
  const env = buildEnv(PROBE_ENV_ALLOW, options.envSource ?? process.env);
  const launch: Launch = { command: resolveCommand(command, env, cwd), cwd, env };
  const findings: Failure[] = [];
  const tools: ProbedTool[] = [];
  const child = (options.spawn ?? spawnChild)(launch);
  if (!child.ok) return { launch, tools, pages: 0, complete: false, findings: [child], stderr: '' };
  const connection = new Connection(child.value, { ...DEFAULT_CONNECTION_LIMITS, ...options.limits }, timeouts);
  // Closing settles the pending request as closed, so the probe ends at its next step with what it has.
  const stop = () => void connection.close();
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });
  const finish = async (extra: Partial<ProbeReport> & { pages: number; complete: boolean }, finding?: Failure): Promise<ProbeReport> => {
    if (finding) findings.push(finding);
    const close = await connection.close();
    return { launch, tools, findings, stderr: connection.stderr(), close, ...extra };
  };

  const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
  const initialize = await expectResult(connection, 'initialize', params, InitializeResult, timeouts.handshakeMs);
  if (!initialize.ok) return finish({ pages: 0, complete: false }, initialize);
  const { serverInfo, protocolVersion, capabilities } = initialize.value;
  const known = { serverInfo, protocolVersion };
  if (!PROBE_VERSIONS.includes(protocolVersion)) {
    const refused = fail('protocol', 'version_mismatch', `server answered ${protocolVersion}; readable: ${PROBE_VERSIONS.join(', ')}`);
    return finish({ ...known, pages: 0, complete: false }, refused);
  }
  if (protocolVersion !== PROTOCOL_VERSION) {
    findings.push(fail('protocol', 'version_mismatch', `server speaks ${protocolVersion}: no outputSchema/structuredContent checks`));
  }
  connection.notify('notifications/initialized', {});
  if (!capabilities.tools) findings.push(fail('protocol', 'unexpected_tools', 'server does not declare the tools capability'));

  const maxPages = options.maxPages ?? 20;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const listed = await expectResult(connection, 'tools/list', cursor === undefined ? {} : { cursor }, ListToolsResult, timeouts.handshakeMs);
    if (!listed.ok) return finish({ ...known, pages: page - 1, complete: false }, listed);
    for (const tool of listed.value.tools) {
      tools.push({
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        inputSchemaHash: schemaHash(tool.inputSchema),
        ...(tool.outputSchema ? { outputSchemaHash: schemaHash(tool.outputSchema) } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      });
    }
    cursor = listed.value.nextCursor;
    if (cursor === undefined) break;
    if (seen.has(cursor)) {
      const repeated = fail('protocol', 'pagination_unsupported', `tools/list repeated cursor ${JSON.stringify(cursor)} on page ${page}`);
      return finish({ ...known, pages: page, complete: false }, repeated);
    }
    seen.add(cursor);
    if (page >= maxPages) {
      const endless = fail('protocol', 'pagination_unsupported', `tools/list still paginating after ${maxPages} pages`);
      return finish({ ...known, pages: page, complete: false }, endless);
    }
  }
  const names = tools.map((tool) => tool.name);
  const duplicates = names.filter((name, index) => names.indexOf(name) !== index);
  if (duplicates.length > 0) findings.push(fail('protocol', 'unexpected_tools', `duplicate tool names: ${duplicates.join(', ')}`));
  return finish({ ...known, pages: seen.size + 1, complete: true });
}
