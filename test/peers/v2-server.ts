/**
 * A small MCP server on the SDK v2 (2.4.0, a test-only devDependency): one
 * tool, `greet {name}`, served on stdio by `serveStdio` — dual-era by
 * default, or modern only with `--legacy reject` (a 2025-era opening is
 * answered -32022 naming 2026-07-28). Probe's 2026-07-28 tests run it; no
 * command reaches it.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const legacy = process.argv.includes('--legacy') ? (process.argv[process.argv.indexOf('--legacy') + 1] as 'serve' | 'reject') : 'serve';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'caplab-v2-peer', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool(
    'greet',
    { description: 'Greets by name', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  return server;
}

void serveStdio(buildServer, { legacy });
