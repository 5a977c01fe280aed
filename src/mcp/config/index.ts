/**
 * Server configuration as Claude Code writes it: `loadMcpConfig` reads a
 * `.mcp.json` (every entry, in file order; only stdio ones are startable
 * today), with the project file's trust rule and `${VAR}` expansion. It
 * stands beside the client and the server, on the wire only.
 */
export { expandVars } from './expand-vars.ts';
export { loadMcpConfig, PROJECT_MCP_CONFIG } from './load-mcp-config.ts';
export type { McpConfig, McpConfigOptions } from './load-mcp-config.ts';
export { ENV_NAME, ENV_NAME_RULE } from './mcp-entry.ts';
export type { InvalidConfigEntry, McpConfigEntry, StdioConfigEntry, UnsupportedConfigEntry } from './mcp-entry.ts';
