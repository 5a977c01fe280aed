/**
 * What ToolSearch reads of one tool: its name, its description, and the
 * names and descriptions of the arguments its `input_schema` declares. The
 * tool comes from a request payload, so everything in it is data that may be
 * hostile: a field of the wrong type is skipped, never a throw, and the schema
 * is walked without recursion to `LIMITS.argumentsDepth` levels.
 */
import { LIMITS } from '../../contract/index.ts';
import { nameTokens, textTokens } from './tokens.ts';

/** A tool as a request payload's `tools` entry shows it (the Messages API shape). */
export interface SearchableTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Readonly<Record<string, unknown>>;
}

/** One tool's document: the tokens of its name (for `+word`) and every token BM25 counts. */
export interface ToolDocument {
  readonly name: string;
  readonly nameTokens: readonly string[];
  readonly tokens: readonly string[];
}

type JsonObject = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Appends one by one: spreading a long description's tokens into `push` would overflow the call stack. */
function append(out: string[], tokens: readonly string[]): void {
  for (const token of tokens) out.push(token);
}

/**
 * Adds the argument names and descriptions of `schema` to `out`: each
 * property of `properties`, and of nested objects' `properties` and `items`,
 * down to `LIMITS.argumentsDepth` levels (an argument nested deeper could not
 * be called with). Anything that is not an object is skipped.
 */
function addSchemaTokens(schema: unknown, out: string[]): void {
  const stack: { readonly node: unknown; readonly depth: number }[] = [{ node: schema, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    // A node at depth d declares arguments at level d + 1.
    if (!isObject(node) || depth >= LIMITS.argumentsDepth) continue;
    const properties = node['properties'];
    if (isObject(properties)) {
      for (const [key, property] of Object.entries(properties)) {
        append(out, nameTokens(key));
        if (!isObject(property)) continue;
        const description = property['description'];
        if (typeof description === 'string') append(out, textTokens(description));
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
 * The document of one payload entry, or undefined when it is not an object
 * or its name is not a string (such an entry cannot be named by a reference, so it is not searched).
 */
export function toolDocument(tool: SearchableTool): ToolDocument | undefined {
  const name = entryName(tool);
  if (name === undefined) return undefined;
  const entry = tool as unknown as JsonObject;
  const own = nameTokens(name);
  const tokens = [...own];
  const description = entry['description'];
  if (typeof description === 'string') append(tokens, textTokens(description));
  addSchemaTokens(entry['input_schema'], tokens);
  return { name, nameTokens: own, tokens };
}
