/**
 * caplab's fixture server over a sources folder, for the payload sweep: the
 * same `serve()` and the same process streams as `caplab serve` (src/main.ts),
 * with the snapshot read from SOURCES_DIR instead of the embedded fixtures.
 *
 * Usage: bun scripts/bench/caplab-server.ts SOURCES_DIR
 */
import { fileSink } from '../../src/cli/index.ts';
import { serve } from '../../src/excerpt/server/index.ts';
import { readSnapshot } from './targets.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: caplab-server.ts SOURCES_DIR');
process.exitCode = await serve({ stdin: Bun.stdin.stream(), stdout: fileSink(Bun.stdout), stderr: fileSink(Bun.stderr), snapshot: readSnapshot(dir) });
