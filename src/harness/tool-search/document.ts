/**
 * What ToolSearch reads of one tool: its name, its description, and the
 * names and descriptions of the arguments its `input_schema` declares. The
 * tool comes from a request payload, so everything in it is data that may be
 * hostile: a field of the wrong type is skipped, never a throw, and the schema
 * is walked without recursion to `LIMITS.argumentsDepth` levels.
 */
import { LIMITS } from '../../contract/index.ts';
import { countNameTokens, countTokens, nameTokens } from './tokens.ts';

/** A tool as a request payload's `tools` entry shows it (the Messages API shape). */
export interface SearchableTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
}

/**
 * One tool as BM25 needs it: the tokens of its name (for `+word`), its
 * length in tokens, and how often each token the query ranks by occurs.
 */
export interface ToolDocument {
  readonly name: string;
  readonly nameTokens: readonly string[];
  readonly length: number;
  readonly counts: ReadonlyMap<string, number>;
}

type JsonObject = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A document being counted: tokens are counted as they are read, never gathered into one list. */
interface Tally {
  length: number;
  readonly counts: Map<string, number>;
  readonly wanted: readonly string[];
}

/**
 * Counts the argument names and descriptions of `schema`: each property of
 * `properties`, and of nested objects' `properties` and `items`, down to
 * `LIMITS.argumentsDepth` levels (an argument nested deeper could not be
 * called with). Anything that is not an object is skipped.
 */
function countSchema(schema: unknown, tally: Tally): void {
  const stack: { readonly node: unknown; readonly depth: number }[] = [{ node: schema, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    // A node at depth d declares arguments at level d + 1.
    if (!isObject(node) || depth >= LIMITS.argumentsDepth) continue;
    const properties = node['properties'];
    if (isObject(properties)) {
      // for…in, not Object.entries: no pair array per property (own keys only, should a caller pass a non-JSON object).
      for (const key in properties) {
        if (!Object.hasOwn(properties, key)) continue;
        const property = properties[key];
        tally.length += countNameTokens(key, tally.wanted, tally.counts);
        if (!isObject(property)) continue;
        const description = property['description'];
        if (typeof description === 'string') tally.length += countTokens(description, tally.wanted, tally.counts);
        stack.push({ node: property, depth: depth + 1 });
      }
    }
    const items = node['items'];
    if (isObject(items)) stack.push({ node: items, depth: depth + 1 });
  }
}

/** An entry's name, or undefined when the entry is not an object or its name not a string. */
export function entryName(tool: SearchableTool): string | undefined {
  const entry: unknown = tool;
  return isObject(entry) && typeof entry['name'] === 'string' ? entry['name'] : undefined;
}

/**
 * The document of one payload entry, counting the (distinct) tokens in `wanted`; undefined
 * when the entry is not an object or its name not a string (no reference
 * could name it, so it is not searched).
 */
export function toolDocument(tool: SearchableTool, wanted: readonly string[]): ToolDocument | undefined {
  const name = entryName(tool);
  if (name === undefined) return undefined;
  const entry = tool as unknown as JsonObject;
  const own = nameTokens(name);
  const tally: Tally = { length: own.length, counts: new Map(), wanted };
  for (const token of own) if (wanted.includes(token)) tally.counts.set(token, (tally.counts.get(token) ?? 0) + 1);
  const description = entry['description'];
  if (typeof description === 'string') tally.length += countTokens(description, wanted, tally.counts);
  countSchema(entry['input_schema'], tally);
  return { name, nameTokens: own, length: tally.length, counts: tally.counts };
}
