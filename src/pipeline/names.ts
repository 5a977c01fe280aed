/**
 * The names a tool answers to. Hook matchers and permission rules both select
 * tools by these names, and the unknown-name check reads them too, so one
 * function decides for all three: a name added here is seen by every one.
 */
import { qualifiedName } from '../binding/index.ts';

/**
 * What naming needs of a tool: a runtime tool has it, so does a catalog entry
 * written before any server starts. A server is named by its key, the name
 * the host gives it, never by the serverInfo.name it reports about itself.
 * A configured server's tool carries its `naming` (its full name; the
 * model-visible `tool` derived from it by the tool-name rule).
 */
export interface Nameable {
  readonly binding: { readonly tool: string; readonly server?: { readonly key: string }; readonly naming?: { readonly full: string }; readonly implementation?: { readonly kind: string } };
  readonly contract: { readonly name: string };
  /** An offer's implementation (a runtime tool's is its binding's). */
  readonly implementation?: { readonly kind: string };
}

/** Claude Code's name for the tool (`mcp__<key>__<tool>`), as hooks and permission rules see it; undefined for a tool of no server. */
function fullName(tool: Nameable): string | undefined {
  if (tool.binding.naming !== undefined) return tool.binding.naming.full;
  const server = tool.binding.server?.key;
  return server === undefined ? undefined : qualifiedName(server, tool.contract.name);
}

/**
 * The model-visible name and, for an MCP tool, its full name: a configured
 * server's tool's `naming.full`, else `mcp__<key>__<tool>` (the server's key
 * from the binding's server identity, tool from the contract name). A name is
 * listed once.
 *
 * @example toolNames(mcpReadSource) // ['read_source', 'mcp__caplab-fixture__read_source']
 * @example toolNames(dotted) // ['mcp__notes__read_file_1a2b3c4d', 'mcp__notes__read.file']
 */
export function toolNames(tool: Nameable): readonly string[] {
  const names = [tool.binding.tool];
  const full = fullName(tool);
  if (full !== undefined && full !== tool.binding.tool) names.push(full);
  // The host's Agent answers to Claude Code's older name too, in rules and matchers alike.
  if (tool.binding.tool === 'Agent' && (tool.binding.implementation ?? tool.implementation)?.kind === 'host') names.push('Task');
  return names;
}

/**
 * The tool's name in a hook's input (`tool_name`): its full name
 * (`mcp__<key>__<tool>`, never the rewritten model name) for an MCP tool, as
 * Claude Code gives it, so a hook script written for Claude Code recognises
 * the tool; the model-visible name otherwise.
 *
 * @example hookToolName(mcpReadSource) // 'mcp__caplab-fixture__read_source'
 */
export function hookToolName(tool: Nameable): string {
  return fullName(tool) ?? tool.binding.tool;
}
