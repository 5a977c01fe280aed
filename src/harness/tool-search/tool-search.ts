import * as v from 'valibot';
import { codePoints, LIMITS, ok, type Contract, type Outcome } from '../../contract/index.ts';
import { textBlock, toolReference, type CallContext, type ResultBlock, type ToolOutput } from '../../pipeline/index.ts';
import { isObject, parsePayload, TOOL_SEARCH } from '../disclosure.ts';
import type { Builtin, HostServices } from '../host-tools.ts';
import { searchTools, type SearchableTool } from './search.ts';

/** Claude Code's ToolSearch input: both fields required, no default (a silent default is refused by binding). */
const ToolSearchInput = v.strictObject({
  query: v.pipe(v.string(), codePoints(1, LIMITS.toolSearchQueryChars)),
  max_results: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LIMITS.toolSearchResults)),
});
type ToolSearchInput = v.InferOutput<typeof ToolSearchInput>;

/** What one search answered, as data: the references in rank order, `select:` names no deferred tool has, and the referenced tools a call would be denied. */
export const ToolSearchResult = v.strictObject({
  references: v.array(v.string()),
  unknown: v.array(v.string()),
  denied: v.array(v.strictObject({ tool: v.string(), reason: v.string() })),
});
export type ToolSearchResult = v.InferOutput<typeof ToolSearchResult>;

/** `ToolSearch`: the host's search over the deferred tools of the request that called it. */
export const toolSearchContract = {
  name: TOOL_SEARCH,
  version: '1.0.0',
  discovery: 'Search the deferred tools of this request and reference the best matches (read-only).',
  description:
    'Searches the tools this request lists with defer_loading (their definitions are not loaded yet) and returns a ' +
    'tool_reference to each match, best first: from the next request on, a referenced tool is shown in full and may be ' +
    'called; a deferred tool not referenced yet cannot be called. Query forms: "select:A,B" names tools exactly; ' +
    '"+word" requires word in the tool name; other words rank tools by relevance (BM25 over names, descriptions and ' +
    `argument names and descriptions). max_results: how many to return (1–${LIMITS.toolSearchResults}; 5 is a good start). ` +
    'Finding a tool grants nothing: a tool the permission rules deny is still referenced, with a note that a call will be refused.',
  input: ToolSearchInput,
  result: ToolSearchResult,
  effect: 'read',
  readOnly: true,
  destructive: false,
  idempotent: true,
  concurrencySafe: true,
  openWorld: false,
  identity: 'the host; no credential',
  preconditions: [],
  limits: { timeoutMs: 10_000, maxResultBytes: 64 * 1024 },
  completionEvidence: 'bytes observed now: the producing request payload’s deferred tools, searched (verify searches them again)',
  errorClasses: ['invalid_arguments', 'permission_denied', 'business', 'precondition', 'timeout'],
} as const satisfies Contract;


/**
 * The tools a request payload sent deferred (`defer_loading: true`), as the
 * search reads them: only these bytes, so the answer is a function of the
 * payload (verify repeats it). An entry without a string name and
 * description and an object schema is not searchable.
 */
export function deferredEntries(payload: Uint8Array): SearchableTool[] {
  const parsed = parsePayload(payload);
  const tools = Array.isArray(parsed?.['tools']) ? parsed['tools'] : [];
  return tools.filter(
    (tool): tool is SearchableTool =>
      isObject(tool) && tool['defer_loading'] === true && typeof tool['name'] === 'string' && typeof tool['description'] === 'string' && isObject(tool['input_schema']),
  );
}

/** The references one search of a payload gives (what verify compares with the next payload's tool_result). */
export function searchPayload(payload: Uint8Array, input: { readonly query: string; readonly max_results: number }): { readonly references: readonly string[]; readonly unknown: readonly string[] } {
  const answer = searchTools(deferredEntries(payload), input.query, input.max_results);
  return { references: answer.names, unknown: answer.unknown };
}

/** The answer as the model sees it: one tool_reference per match, then one text block for what it cannot reference. */
export function searchContent(result: ToolSearchResult, query: string): readonly ResultBlock[] {
  const notes = [
    ...result.denied.map(({ tool, reason }) => `${tool}: denied by ${reason}; a call will be refused`),
    ...result.unknown.map((name) => `${name}: no deferred tool of this request has this name`),
    ...(result.references.length === 0 ? [`No deferred tool matches ${JSON.stringify(query)}.`] : []),
  ];
  return [...result.references.map(toolReference), ...(notes.length > 0 ? [textBlock(notes.join('\n'))] : [])];
}

async function search(input: unknown, context: CallContext, services: HostServices): Promise<Outcome<ToolOutput>> {
  const { query, max_results } = input as ToolSearchInput;
  const found = searchPayload(context.request.payload, { query, max_results });
  const table = services.tools();
  const denied = found.references.flatMap((name) => {
    const tool = table[name];
    const decision = tool ? services.permission(tool) : undefined;
    return decision?.decision === 'deny' ? [{ tool: name, reason: decision.reason }] : [];
  });
  const data: ToolSearchResult = { references: [...found.references], unknown: [...found.unknown], denied };
  return ok({ data, content: searchContent(data, query), evidence: `searched ${deferredEntries(context.request.payload).length} deferred tools of request ${context.request.id}` });
}

/**
 * The host's ToolSearch (Claude Code's, over the Messages API's client-side
 * tool search shape): read-only, concurrency-safe, and able to return
 * tool_reference blocks (`references`), the only tool that may. Added by the
 * host to a run that defers tools; never deferred itself.
 */
export function toolSearch(): Builtin {
  return { contract: toolSearchContract, version: '1.0.0', attributes: { references: true }, handler: search };
}
