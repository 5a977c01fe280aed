/**
 * Development entry for the fixture server: `bun src/mcp/serve-main.ts`.
 * Stands in for `caplab serve` (src/main.ts) so the MCP folder can be run and
 * tested on its own; both call the same `serve()`.
 */
import { serve } from './server.ts';

process.exitCode = await serve();
