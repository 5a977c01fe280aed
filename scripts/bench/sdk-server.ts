/**
 * The SDK baseline server on stdio: read_source (sdk-read-source.ts) written
 * only with @modelcontextprotocol/sdk, the way a user would (low-level Server +
 * StdioServerTransport). Imports nothing from caplab.
 */
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readSourceServer } from './sdk-read-source.ts';

// The sources folder may be given as the first argument (the compiled server has no source tree beside it).
const dir = process.argv[2] ?? join(import.meta.dir, '../../fixtures/sources');
await readSourceServer(dir)().connect(new StdioServerTransport());
