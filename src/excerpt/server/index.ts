/**
 * The excerpt task's fixture MCP server (`caplab serve`): read_source over the
 * embedded sources. A separate entry from `excerpt/index.ts`, so a host path
 * never loads serving code and `caplab serve` loads nothing of the host.
 */
export { fixtureMethods, fixtureServer, serve, serveHttp } from './server.ts';
export type { ServeIo } from './server.ts';
