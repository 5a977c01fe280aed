/**
 * The SDK baseline for the cold demo: a whole job written only with @modelcontextprotocol/sdk, the
 * way a user would (Client + StdioClientTransport): spawn the server, initialize, list tools, three
 * read_source calls, close. Compiled by bench.ts next to the compiled sdk-server.ts, then timed as
 * a whole process against `dist/caplab demo`. Imports nothing from caplab.
 *
 * Usage: sdk-client SERVER [SERVER_ARGS...]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error('usage: sdk-client SERVER [SERVER_ARGS...]');
const client = new Client({ name: 'bench-sdk-client', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
await client.listTools();
for (const source_id of ['alpha', 'beta', 'alpha']) {
  const result = await client.callTool({ name: 'read_source', arguments: { source_id } });
  if (result.isError || result.structuredContent === undefined) throw new Error(`read_source ${source_id} failed`);
}
await client.close();
process.stdout.write('ok\n');
