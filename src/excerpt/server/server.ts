// Types only (erased at build): the answers are checked against the SDK's protocol shapes, at no load cost.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { exportContract, validateArguments } from '../../contract/index.ts';
import { serializeResult, serveTools, serveToolsHttp, toolServerMethods, type HttpServeIo, type HttpServeOptions, type Methods, type SerializedResult, type ServeStreams, type ServedTool, type ToolServer } from '../../mcp/index.ts';
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

const toolError = (text: string) => ({ result: { content: [{ type: 'text' as const, text }], isError: true } });

/**
 * Answers read_source calls: the arguments are validated on every call
 * (invalid arguments are a tool error, not a protocol error); the success
 * result of each source is built and serialized on its first call and reused,
 * since the snapshot does not change while the server runs.
 */
function readSourceCall(snapshot: Snapshot): ServedTool['call'] {
  const answers = new Map<string, SerializedResult<CallToolResult>>();
  return function callReadSource(args) {
    const input = validateArguments<{ source_id: string }>(readSourceContract.input, args ?? {});
    if (!input.ok) return toolError(`${input.class}/${input.kind}: ${input.message}`);
    const id = input.value.source_id;
    const known = answers.get(id);
    if (known) return { serialized: known };
    const data = readSourceResult(snapshot, id);
    if (!data) return toolError(`unknown source ${id}`);
    // The text block carries the serialized structuredContent (the spec's SHOULD), for clients that ignore structured results.
    const result: CallToolResult = { content: [Object.freeze({ type: 'text', text: JSON.stringify(data) })], structuredContent: Object.freeze(data) };
    Object.freeze(result.content);
    const serialized = serializeResult(Object.freeze(result));
    answers.set(id, serialized);
    return { serialized };
  };
}

/** The longest `count_words` may take as a task (its `delay_ms`). */
export const COUNT_WORDS_MAX_DELAY_MS = 5_000;

/**
 * count_words as listed: a 2025-11-25 fixture (a session below it never sees
 * it), whose `delay_ms` is how long it stays `working` as a task. Its input
 * schema is written here, not a host contract: no caplab run pins it.
 */
const COUNT_WORDS_TOOL: Tool = {
  name: 'count_words',
  title: 'Count words',
  description: 'Counts the whitespace-separated words of one snapshot source. As a task (MCP 2025-11-25) it stays working for delay_ms first.',
  inputSchema: {
    type: 'object',
    properties: {
      source_id: { type: 'string', description: 'The source to count' },
      delay_ms: { type: 'integer', minimum: 0, maximum: COUNT_WORDS_MAX_DELAY_MS, description: 'How long the task works before it completes (ms)' },
    },
    required: ['source_id'],
    additionalProperties: false,
  },
  outputSchema: { type: 'object', properties: { source_id: { type: 'string' }, words: { type: 'integer' } }, required: ['source_id', 'words'], additionalProperties: false },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** count_words' arguments, checked by hand against its schema: the reason why not, or the values. */
function countWordsArgs(args: Readonly<Record<string, unknown>> | undefined): { source_id: string; delay_ms: number } | string {
  const given = args ?? {};
  const extra = Object.keys(given).find((key) => key !== 'source_id' && key !== 'delay_ms');
  if (extra !== undefined) return `invalid_arguments/extra_field: ${JSON.stringify(extra)} is not an argument of count_words`;
  if (typeof given['source_id'] !== 'string') return 'invalid_arguments/missing_field: source_id (a string) is required';
  const delay = given['delay_ms'] ?? 0;
  if (!Number.isSafeInteger(delay) || (delay as number) < 0 || (delay as number) > COUNT_WORDS_MAX_DELAY_MS) {
    return `invalid_arguments/invalid_value: delay_ms must be a whole number from 0 to ${COUNT_WORDS_MAX_DELAY_MS}`;
  }
  return { source_id: given['source_id'], delay_ms: delay as number };
}

/** The fixture's task tool: the word count of one source, at once or (as a task) after `delay_ms`. */
function countWords(snapshot: Snapshot): ServedTool {
  return {
    tool: COUNT_WORDS_TOOL,
    since: '2025-11-25',
    task: { support: 'optional', workMs: (args) => {
      const read = countWordsArgs(args);
      return typeof read === 'string' ? 0 : read.delay_ms;
    } },
    call(args) {
      const read = countWordsArgs(args);
      if (typeof read === 'string') return toolError(read);
      const source = readSourceResult(snapshot, read.source_id);
      if (!source) return toolError(`unknown source ${read.source_id}`);
      const data = { source_id: read.source_id, words: source.text.split(/\s+/).filter((word) => word !== '').length };
      return { result: { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data } };
    },
  };
}

/**
 * The excerpt task's fixture server: `read_source` over one startup snapshot,
 * and in a 2025-11-25 session (or the 2026-07-28 era) `count_words` too.
 */
export function fixtureServer(snapshot: Snapshot): ToolServer {
  return { info: FIXTURE_SERVER_INFO, tools: [{ tool: readSourceTool(), call: readSourceCall(snapshot) }, countWords(snapshot)] };
}

/** The fixture server's stdio methods (MCP 2025-06-18 and 2026-07-28, tools only); exported for the serve fuzzer. */
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

/**
 * `caplab serve --http`: the same fixture server over Streamable HTTP (see
 * `serveToolsHttp`), over the embedded sources, until a signal or stdin's end.
 *
 * @returns 0 after a stop, 3 when it could not listen.
 */
export async function serveHttp(options: HttpServeOptions, io: HttpServeIo): Promise<number> {
  return serveToolsHttp(fixtureServer(fixtureSnapshot()), options, io);
}
