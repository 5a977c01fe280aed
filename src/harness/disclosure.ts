/** The host's built-in tool search: the one tool whose answers disclose deferred tools. */
export const TOOL_SEARCH = 'ToolSearch';

/** What one request payload shows of its tools, computed from its bytes alone. */
export interface ToolDisclosure {
  /** The payload's `tools` entries sent with `defer_loading: true`, in payload order. */
  readonly deferred: readonly string[];
  /** Those of them a ToolSearch answer in the same payload referenced, in payload order. */
  readonly disclosed: readonly string[];
  /** UTF-8 bytes of `JSON.stringify` of every entry not deferred or disclosed, summed: what a tool-search provider loads. */
  readonly visibleToolBytes: number;
}

type Json = Record<string, unknown>;
/** Whether a JSON value is an object (not an array, not null). */
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const utf8 = new TextEncoder();

/**
 * Which deferred tools a request payload disclosed to the model (SPEC
 * F-DISCOVERY, `disclosedSources`' rule for tools), from its bytes: a
 * deferred tool is disclosed only by a `tool_reference` naming it in a
 * non-error `tool_result` (its `is_error` absent or `false`) of a user
 * message, whose `tool_use_id` answers a `ToolSearch` tool_use in an
 * earlier assistant message of the same payload. A reference anywhere else
 * — another tool's result, an error result, text, a tool_use's input, a
 * result answering an id no earlier ToolSearch use has — counts for nothing.
 * The payload is decoded (fatal UTF-8) and parsed as JSON, so escaping
 * cannot hide or fake a reference; bytes that are no JSON object disclose
 * nothing and defer nothing.
 */
export function toolDisclosure(payload: Uint8Array): ToolDisclosure {
  const parsed = parsePayload(payload);
  const tools = Array.isArray(parsed?.['tools']) ? parsed['tools'].filter(isObject) : [];
  const deferred = unique(tools.filter((tool) => tool['defer_loading'] === true).map((tool) => tool['name']));
  const referenced = searchReferences(parsed?.['messages']);
  const disclosed = deferred.filter((name) => referenced.has(name));
  const visible = tools.filter((tool) => tool['defer_loading'] !== true || disclosed.includes(tool['name'] as string));
  const visibleToolBytes = visible.reduce((sum, tool) => sum + utf8.encode(JSON.stringify(tool)).byteLength, 0);
  return { deferred, disclosed, visibleToolBytes };
}

/** The deferred tools a payload disclosed (`toolDisclosure(payload).disclosed`). */
export function disclosedTools(payload: Uint8Array): readonly string[] {
  return toolDisclosure(payload).disclosed;
}

/** A payload's bytes as the JSON object they hold (fatal UTF-8); undefined when they hold none. */
export function parsePayload(payload: Uint8Array): Json | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function unique(names: readonly unknown[]): string[] {
  return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
}

/** Every tool name a ToolSearch answer of these messages referenced, by the rule above. */
function searchReferences(messages: unknown): Set<string> {
  const referenced = new Set<string>();
  if (!Array.isArray(messages)) return referenced;
  const searches = new Set<string>();
  for (const message of messages) {
    if (!isObject(message) || !Array.isArray(message['content'])) continue;
    const blocks = message['content'].filter(isObject);
    // Uses are collected after this message's results are read: a result answers only an earlier message's use.
    if (message['role'] === 'user') for (const name of answeredReferences(blocks, searches)) referenced.add(name);
    if (message['role'] === 'assistant') for (const id of searchUses(blocks)) searches.add(id);
  }
  return referenced;
}

function searchUses(blocks: readonly Json[]): string[] {
  return blocks.filter((b) => b['type'] === 'tool_use' && b['name'] === TOOL_SEARCH && typeof b['id'] === 'string').map((b) => b['id'] as string);
}

function answeredReferences(blocks: readonly Json[], searches: ReadonlySet<string>): string[] {
  const names: string[] = [];
  for (const block of blocks) {
    const answers = block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string' && searches.has(block['tool_use_id']);
    if (!answers || (block['is_error'] !== undefined && block['is_error'] !== false) || !Array.isArray(block['content'])) continue;
    for (const item of block['content']) {
      if (isObject(item) && item['type'] === 'tool_reference' && typeof item['tool_name'] === 'string') names.push(item['tool_name']);
    }
  }
  return names;
}
