/**
 * Server configuration as Claude Code writes it: `loadMcpConfig` reads a
 * `.mcp.json` (every entry, in file order: stdio and Streamable HTTP
 * ones read, any other type kept as unsupported), with the project file's trust rule and `${VAR}` expansion;
 * `entryArgv` gives an entry's absolute launch argv by the one relative-path
 * rule (the config file's folder), `serverKeys` the key each entry's tools
 * are named by (the tool-name rule's mapping, for names outside it). It
 * stands beside the client and the server, on the wire and the naming rule only.
 */
export { entryArgv, resolveCommand, resolvePaths } from './entry-launch.ts';
export { expandVars } from './expand-vars.ts';
export { loadMcpConfig, PROJECT_MCP_CONFIG } from './load-mcp-config.ts';
export type { McpConfig, McpConfigOptions } from './load-mcp-config.ts';
export { ENV_NAME, ENV_NAME_RULE } from './mcp-entry.ts';
export type { HttpConfigEntry, InvalidConfigEntry, McpConfigEntry, StdioConfigEntry, UnsupportedConfigEntry } from './mcp-entry.ts';
export { checkCredentialReference, checkHttpUrl, httpTarget, isLoopbackHost, RESERVED_HEADERS } from './http-target.ts';
export type { HttpTarget } from './http-target.ts';
export { serverKey, serverKeys } from './server-keys.ts';
export type { ServerKey } from './server-keys.ts';
