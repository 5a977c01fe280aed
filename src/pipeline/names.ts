/**
 * The names a tool answers to. Hook matchers and permission rules both select
 * tools by these names, and the unknown-name check reads them too, so one
 * function decides for all three: a name added here is seen by every one.
 */

/** What naming needs of a tool: a runtime tool has it, so does a catalog entry written before any server starts. */
export interface Nameable {
  readonly binding: { readonly tool: string; readonly server?: { readonly name: string } };
  readonly contract: { readonly name: string };
}

/**
 * The model-visible name and, for an MCP tool, `mcp__<server>__<tool>`
 * (server from the binding's server identity, tool from the contract name).
 *
 * @example toolNames(mcpReadSource) // ['read_source', 'mcp__caplab-fixture__read_source']
 */
export function toolNames(tool: Nameable): readonly string[] {
  const names = [tool.binding.tool];
  const server = tool.binding.server?.name;
  if (server !== undefined) {
    const qualified = `mcp__${server}__${tool.contract.name}`;
    if (qualified !== tool.binding.tool) names.push(qualified);
  }
  return names;
}
