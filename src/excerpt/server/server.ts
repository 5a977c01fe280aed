// Types only (erased at build): the answers are checked against the SDK's protocol shapes, at no load cost.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { exportContract, validateArguments } from '../../contract/index.ts';
import { serveTools, toolServerMethods, type Methods, type ServeStreams, type ToolServer } from '../../mcp/index.ts';
import { readSourceContract } from '../contracts.ts';
import { FIXTURE_SERVER_INFO } from '../fixture-info.ts';
import { readSourceResult } from '../read-result.ts';
import type { Snapshot } from '../snapshot.ts';
import { fixtureSnapshot } from '../sources.ts';

/** read_source as listed: schemas exported from the same valibot contract the host pins. */
function readSourceTool(): Tool {
  const exported = exportContract(readSourceContract);
  return {
    name: readSourceContract.name,
    description: readSourceContract.description,
    // The exports of object contracts; the server test checks both are `type: "object"` schemas.
    inputSchema: exported.inputSchema as Tool['inputSchema'],
    outputSchema: exported.resultSchema as NonNullable<Tool['outputSchema']>,
    annotations: {
      readOnlyHint: readSourceContract.readOnly,
      destructiveHint: readSourceContract.destructive,
      idempotentHint: readSourceContract.idempotent,
      openWorldHint: readSourceContract.openWorld,
    },
  };
}

/** Answers one read_source call: invalid arguments are a tool error, not a protocol error. */
function callReadSource(snapshot: Snapshot, args: unknown): CallToolResult {
  const input = validateArguments<{ source_id: string }>(readSourceContract.input, args ?? {});
  if (!input.ok) return { content: [{ type: 'text', text: `${input.class}/${input.kind}: ${input.message}` }], isError: true };
  const data = readSourceResult(snapshot, input.value.source_id);
  if (!data) return { content: [{ type: 'text', text: `unknown source ${input.value.source_id}` }], isError: true };
  // The text block carries the serialized structuredContent (the spec's SHOULD), for clients that ignore structured results.
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/** The excerpt task's fixture server: `read_source` over one startup snapshot. */
export function fixtureServer(snapshot: Snapshot): ToolServer {
  return { info: FIXTURE_SERVER_INFO, tools: [{ tool: readSourceTool(), call: (args) => callReadSource(snapshot, args) }] };
}

/** The fixture server's methods (MCP 2025-06-18, tools only); exported for the serve fuzzer. */
export function fixtureMethods(snapshot: Snapshot): Methods {
  return toolServerMethods(fixtureServer(snapshot));
}

export interface ServeIo extends ServeStreams {
  readonly snapshot?: Snapshot;
}

/**
 * `caplab serve`: runs the fixture MCP server on stdio until stdin ends
 * (see `serveTools`), over the embedded sources unless `io.snapshot` says otherwise.
 *
 * @returns The exit code: 0 after stdin EOF, 3 after a line over `LIMITS.mcpLineBytes`.
 * @example
 * const code = await serve();
 */
export async function serve(io: ServeIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return serveTools(io, fixtureServer(io.snapshot ?? fixtureSnapshot()));
}
