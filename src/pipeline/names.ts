/**
 * The names a tool answers to. Hook matchers and permission rules both select
 * tools by these names, and the unknown-name check reads them too, so one
 * function decides for all three: a name added here is seen by every one.
 */

/**
 * What naming needs of a tool: a runtime tool has it, so does a catalog entry
 * written before any server starts. A server is named by its key, the name
 * the host gives it, never by the serverInfo.name it reports about itself.
 */
export interface Nameable {
  readonly binding: { readonly tool: string; readonly server?: { readonly key: string } };
  readonly contract: { readonly name: string };
}

/** Claude Code's name for a server's tool, as hooks and permission rules see it. */
function qualified(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/**
 * The model-visible name and, for an MCP tool, `mcp__<key>__<tool>` (the
 * server's key from the binding's server identity, tool from the contract name).
 *
 * @example toolNames(mcpReadSource) // ['read_source', 'mcp__caplab-fixture__read_source']
 */
export function toolNames(tool: Nameable): readonly string[] {
  const names = [tool.binding.tool];
  const server = tool.binding.server?.key;
  if (server !== undefined) {
    const full = qualified(server, tool.contract.name);
    if (full !== tool.binding.tool) names.push(full);
  }
  return names;
}

/**
 * The tool's name in a hook's input (`tool_name`): `mcp__<key>__<tool>`
 * for an MCP tool, as Claude Code gives it, so a hook script written for
 * Claude Code recognises the tool; the model-visible name otherwise.
 *
 * @example hookToolName(mcpReadSource) // 'mcp__caplab-fixture__read_source'
 */
export function hookToolName(tool: Nameable): string {
  const server = tool.binding.server?.key;
  return server === undefined ? tool.binding.tool : qualified(server, tool.contract.name);
}
