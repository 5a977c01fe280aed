import * as v from 'valibot';
import { exportContract, ok, schemaHash, type Contract, type Outcome } from '../../contract/index.ts';
import { type Correlator, describeIssues, InitializeResult, type ListedTool, ListToolsResult, PROTOCOL_VERSION, refuse } from '../wire/index.ts';
import { nameList } from './name-list.ts';

/** The client's own name and version, sent as clientInfo and bound as the adapter version. */
export const CLIENT_INFO = { name: 'caplab-strict-client', version: '1.0.0' } as const;

/** What the handshake established. */
export interface Handshake {
  readonly initialize: InitializeResult;
  readonly tools: readonly ListedTool[];
}

/**
 * Reads one reply as an MCP result of the given shape. A JSON-RPC error and a
 * result of the wrong shape are both protocol failures here: the handshake
 * has no business outcome.
 */
export async function expectResult<T>(
  correlator: Correlator<unknown>,
  method: string,
  params: Record<string, unknown>,
  schema: v.GenericSchema<unknown, T>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Outcome<T>> {
  const reply = await correlator.request(method, params, { timeoutMs, ...(signal ? { signal } : {}) }).reply;
  if (!reply.ok) return reply;
  if ('error' in reply.value.answer) {
    const { code, message } = reply.value.answer.error;
    return refuse('protocol', 'jsonrpc_error', `${method} refused with JSON-RPC error ${code}: ${message}`);
  }
  const parsed = v.safeParse(schema, reply.value.answer.result);
  if (!parsed.success) return refuse('protocol', 'malformed_result', `${method} result is not MCP ${PROTOCOL_VERSION}`, describeIssues(parsed.issues));
  return ok(parsed.output);
}

/** Checks one listed tool against its pinned contract: name, input and output schema hashes. */
function checkPinned(listed: ListedTool, contract: Contract): string | undefined {
  const pinned = exportContract(contract);
  const inputHash = schemaHash(listed.inputSchema);
  if (inputHash !== pinned.inputSchemaHash) {
    return `${listed.name}: inputSchema hash ${inputHash} ≠ pinned ${pinned.inputSchemaHash}`;
  }
  if (!listed.outputSchema) return `${listed.name}: no outputSchema; pinned ${pinned.resultSchemaHash}`;
  const outputHash = schemaHash(listed.outputSchema);
  if (outputHash !== pinned.resultSchemaHash) {
    return `${listed.name}: outputSchema hash ${outputHash} ≠ pinned ${pinned.resultSchemaHash}`;
  }
  return undefined;
}

/**
 * The fixed profile's handshake: `initialize` at 2025-06-18 (any other
 * answered version is refused), the version handed to `negotiated` (the
 * transport's `setProtocolVersion`: HTTP sends it on every later message),
 * `notifications/initialized`, then one `tools/list` page that must hold
 * exactly the pinned tools.
 */
export async function handshake(
  correlator: Correlator<unknown>,
  contracts: readonly Contract[],
  timeoutMs: number,
  negotiated: (version: string) => void = () => {},
): Promise<Outcome<Handshake>> {
  const initialize = await expectResult(
    correlator,
    'initialize',
    { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
    InitializeResult,
    timeoutMs,
  );
  if (!initialize.ok) return initialize;
  const answered = initialize.value.protocolVersion;
  if (answered !== PROTOCOL_VERSION) {
    return refuse('protocol', 'version_mismatch', `server answered protocol ${JSON.stringify(answered)}; this client speaks only ${PROTOCOL_VERSION}`);
  }
  if (!initialize.value.capabilities.tools) return refuse('protocol', 'unexpected_tools', 'server does not declare the tools capability');
  negotiated(answered);
  const initialized = correlator.notify('notifications/initialized', {});
  if (!initialized.ok) return initialized;

  const listed = await expectResult(correlator, 'tools/list', {}, ListToolsResult, timeoutMs);
  if (!listed.ok) return listed;
  if (listed.value.nextCursor !== undefined) {
    return refuse('protocol', 'pagination_unsupported', 'tools/list returned nextCursor; the fixed profile accepts one complete page only');
  }
  const names = listed.value.tools.map((tool) => tool.name);
  const expected = contracts.map((contract) => contract.name);
  const extra = names.filter((name) => !expected.includes(name));
  const missing = expected.filter((name) => !names.includes(name));
  if (extra.length > 0 || missing.length > 0 || new Set(names).size !== names.length) {
    return refuse('protocol', 'unexpected_tools', `tools/list gave ${names.length} [${nameList(names)}]; expected exactly [${nameList(expected)}]`);
  }
  const drift = contracts.flatMap((contract) => {
    const tool = listed.value.tools.find((candidate) => candidate.name === contract.name)!;
    const problem = checkPinned(tool, contract);
    return problem ? [problem] : [];
  });
  if (drift.length > 0) return refuse('protocol', 'tool_drift', drift.join('; '), drift);
  return ok({ initialize: initialize.value, tools: listed.value.tools });
}
