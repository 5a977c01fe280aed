/** The host session's name and version, sent as clientInfo to servers users configure. */
export const HOST_CLIENT_INFO = { name: 'caplab-host-client', version: '1.0.0' } as const;

/** The host session's version as a binding names the MCP implementation of a configured server's tool. */
export const HOST_ADAPTER_VERSION = `${HOST_CLIENT_INFO.name}/${HOST_CLIENT_INFO.version}`;
